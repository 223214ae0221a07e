// Runs one test case against a template and says, per failed expectation, what was expected and what
// was seen; a case passes when that list is empty.
import { capsOf, detectToolCallFormat, prefixStabilityFindings } from "../analysis";
import { dialectFor } from "../dialects";
import type { TemplateDocument } from "../document";
import { checkDiagnostics } from "./diagnosticsCheck";
import { checkLive, type LiveContext, type LiveSummary } from "./liveCheck";
import type { Failure } from "./failure";
import { checkRenders, type RenderCheckOptions } from "./renderChecks";
import type { CapsExpectation, TestCase } from "./testFile";

export type { Failure };

export interface CaseResult {
  name: string;
  line: number;
  failures: Failure[];
  /** Why the case did not run (a live case without an endpoint). */
  skipped?: string;
  /** Snapshot files this run wrote (--update-snapshots). */
  written: string[];
  /** A live case's samples. */
  live?: LiveSummary;
  durationMs: number;
}

export interface RunOptions extends RenderCheckOptions {
  /** Where live cases run; without it they are skipped. */
  live?: LiveContext;
}

export const NO_ENDPOINT = "live case, no --endpoint given";

export async function runCase(doc: TemplateDocument, tc: TestCase, options: RunOptions = {}): Promise<CaseResult> {
  const started = performance.now();
  if (tc.live && !options.live) return { name: tc.name, line: tc.line, failures: [], skipped: NO_ENDPOINT, written: [], durationMs: 0 };
  const failures: Failure[] = [];
  if (tc.expect.caps) failures.push(...checkCaps(doc, tc.expect.caps));
  if (tc.expect.toolCallFormat) failures.push(...checkToolCallFormat(doc, tc.expect.toolCallFormat));
  const renders = checkRenders(doc, tc, options);
  failures.push(...renders.failures);
  if (tc.expect.diagnostics) failures.push(...checkDiagnostics(doc, tc.expect.diagnostics));
  if (tc.expect.prefixStable !== undefined) failures.push(...checkPrefixStable(doc, tc.expect.prefixStable));
  let live: LiveSummary | undefined;
  if (tc.live && options.live) {
    const r = await checkLive(tc.live, options.live);
    failures.push(...r.failures);
    live = r.summary;
  }
  return {
    name: tc.name,
    line: tc.line,
    failures,
    written: renders.written,
    ...(live ? { live } : {}),
    durationMs: performance.now() - started,
  };
}

function checkCaps(doc: TemplateDocument, ex: CapsExpectation): Failure[] {
  const { caps, errors } = capsOf(doc, dialect(ex.engine), { nullTools: ex.nullToolsProbe });
  const detail = errors.length
    ? "probe renders that threw: " +
      errors
        .map((e) => {
          const p = doc.lines.positionAt(e.start);
          return `${e.probe} at ${p.line + 1}:${p.character + 1} (${e.message})`;
        })
        .join("; ")
    : undefined;
  return Object.entries(ex.values)
    .filter(([k, v]) => caps[k as keyof typeof caps] !== v)
    .map(([k, v]) => ({ expectation: `caps.${k}`, expected: v, seen: caps[k as keyof typeof caps], detail }));
}

function checkToolCallFormat(doc: TemplateDocument, expected: Record<string, unknown>): Failure[] {
  const d = dialect("llamacpp");
  const seen = detectToolCallFormat(doc, d, capsOf(doc, d).caps);
  return subsetMismatches("toolCallFormat", expected, seen as unknown as Record<string, unknown>);
}

function subsetMismatches(path: string, expected: Record<string, unknown>, seen: unknown): Failure[] {
  const out: Failure[] = [];
  for (const [k, want] of Object.entries(expected)) {
    const got = seen !== null && typeof seen === "object" ? (seen as Record<string, unknown>)[k] : undefined;
    if (want !== null && typeof want === "object" && !Array.isArray(want))
      out.push(...subsetMismatches(`${path}.${k}`, want as Record<string, unknown>, got));
    else if (JSON.stringify(want) !== JSON.stringify(got)) out.push({ expectation: `${path}.${k}`, expected: want, seen: got });
  }
  return out;
}

function dialect(engine: "llamacpp" | "minja" | "llama-server") {
  const d = dialectFor(engine);
  // These engines are built in; a missing one is a build error, not a user's.
  if (!d) throw new Error(`engine ${engine} is not registered`);
  return d;
}

/** `prefixStable`: the cache/earlier-turn-rerendered check of llama-server, the engine the endpoint serves with. */
function checkPrefixStable(doc: TemplateDocument, expected: boolean): Failure[] {
  const [finding] = prefixStabilityFindings(doc, dialect("llama-server"));
  const seen = finding === undefined;
  if (seen === expected) return [];
  const detail =
    finding && `${doc.lines.positionAt(finding.start).line + 1}:${doc.lines.positionAt(finding.start).character + 1} ${finding.message}`;
  return [{ expectation: "prefixStable", expected, seen, ...(detail ? { detail } : {}) }];
}
