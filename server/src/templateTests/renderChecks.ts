// The render expectations of a case: `renders`, `sameAs` and `snapshot`, on the case's scenario and
// engines. Renders run at the checks' fixed instant (strftime_now is the same on every engine and run).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createTwoFilesPatch } from "diff";
import { CHECK_NOW, renderRequest } from "../analysis";
import { dialectFor } from "../dialects";
import type { EngineId, TemplateDocument } from "../document";
import type { RenderResult } from "../interpreter";
import type { Failure } from "./failure";
import type { TestCase } from "./testFile";

export interface RenderCheckOptions {
  /** Write the first engine's render to the snapshot file instead of comparing with it. */
  updateSnapshots?: boolean;
}

export interface RenderCheckResult {
  failures: Failure[];
  /** Snapshot files written by --update-snapshots. */
  written: string[];
}

export function checkRenders(doc: TemplateDocument, tc: TestCase, options: RenderCheckOptions = {}): RenderCheckResult {
  const ex = tc.expect;
  const out: RenderCheckResult = { failures: [], written: [] };
  if (!tc.scenario) return out;
  const renders = new Map<EngineId, RenderResult>();
  const renderOn = (engine: EngineId): RenderResult => {
    let r = renders.get(engine);
    if (!r) {
      const dialect = dialectFor(engine);
      // The test file's parser accepts registered engines only.
      if (!dialect) throw new Error(`engine ${engine} is not registered`);
      renders.set(engine, (r = renderRequest(doc, tc.scenario!.context(), { dialect, now: CHECK_NOW })));
    }
    return r;
  };
  const threw = (engine: EngineId, r: RenderResult) => {
    const p = doc.lines.positionAt(r.error!.start);
    return `${engine} threw at ${p.line + 1}:${p.character + 1}: ${r.error!.message}`;
  };

  if (ex.renders !== undefined) {
    for (const engine of tc.engines) {
      const r = renderOn(engine);
      if ((r.error === null) !== ex.renders) {
        out.failures.push({
          expectation: `renders (${engine})`,
          expected: ex.renders,
          seen: r.error === null,
          detail: r.error ? threw(engine, r) : undefined,
        });
      }
    }
  }

  if (ex.sameAs !== undefined) {
    const ref = renderOn(ex.sameAs);
    for (const engine of tc.engines.filter((e) => e !== ex.sameAs)) {
      const r = renderOn(engine);
      if (ref.error || r.error) {
        if (ref.error && r.error && ref.error.message === r.error.message) continue;
        out.failures.push({
          expectation: `sameAs (${engine})`,
          expected: ref.error ? `${ex.sameAs}'s error` : `${ex.sameAs}'s bytes`,
          seen: r.error ? "an error" : "a render",
          detail: [ref.error && threw(ex.sameAs, ref), r.error && threw(engine, r)].filter(Boolean).join("; "),
        });
      } else if (r.output !== ref.output) {
        out.failures.push({
          expectation: `sameAs (${engine})`,
          expected: `${ex.sameAs}'s bytes`,
          seen: "other bytes",
          detail: diff(ex.sameAs, engine, ref.output, r.output),
          expectedOutput: ref.output,
          seenOutput: r.output,
        });
      }
    }
  }

  if (ex.snapshot) {
    const { path, written } = ex.snapshot;
    let snapshot: string | undefined;
    if (options.updateSnapshots) {
      const first = renderOn(tc.engines[0]);
      if (!first.error) {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, first.output);
        out.written.push(path);
        snapshot = first.output;
      }
    } else {
      try {
        snapshot = readFileSync(path, "utf8");
      } catch (e) {
        out.failures.push({
          expectation: "snapshot",
          expected: written,
          seen: `no file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
          detail: "run with --update-snapshots to write it",
        });
        return out;
      }
    }
    for (const engine of tc.engines) {
      const r = renderOn(engine);
      if (r.error)
        out.failures.push({ expectation: `snapshot (${engine})`, expected: written, seen: "an error", detail: threw(engine, r) });
      else if (snapshot !== undefined && r.output !== snapshot) {
        out.failures.push({
          expectation: `snapshot (${engine})`,
          expected: written,
          seen: "other bytes",
          detail: diff(written, engine, snapshot, r.output),
          expectedOutput: snapshot,
          seenOutput: r.output,
        });
      }
    }
  }
  return out;
}

/** A unified diff, expected first; the two header lines name what is compared. */
function diff(expectedName: string, seenName: string, expected: string, seen: string): string {
  return createTwoFilesPatch(expectedName, seenName, expected, seen, undefined, undefined, { context: 3 })
    .split("\n")
    .filter((l) => !l.startsWith("====="))
    .join("\n")
    .trimEnd();
}
