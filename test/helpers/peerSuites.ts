// The peer suites: the engines' own upstream test suites as template + context + expected bytes, in
// ../shared/peer-suites next to the checkout (read from there, never copied in; see its README). Each
// case runs in process through the CLI's `main` (what dist/cli.js runs) with the arguments the suites'
// runner (run.mjs) passes, and is judged as run.mjs judges it: the exact bytes on exit 0, or exit 3 (a
// template error) where an error is expected.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after } from "node:test";
import { main } from "../../cli/main";

export const PEER_SUITES = resolve(__dirname, "../../../shared/peer-suites");

export interface PeerCase {
  id: string;
  template: string;
  context?: unknown;
  /** The exact JSON text, where it matters (1.0, big integers). */
  context_json?: string;
  expected?: string;
  expected_error?: boolean;
  now?: string;
}

export interface PeerSuite {
  suite: string;
  engine: string;
  cases: PeerCase[];
}

/** The suite files there, by name (`jinja2` for jinja2.json). */
export function peerSuiteNames(): string[] {
  return readdirSync(PEER_SUITES)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -".json".length))
    .sort();
}

export function loadPeerSuite(name: string): PeerSuite {
  return JSON.parse(readFileSync(join(PEER_SUITES, `${name}.json`), "utf8")) as PeerSuite;
}

const work = mkdtempSync(join(tmpdir(), "peer-suites-"));
after(() => rmSync(work, { recursive: true, force: true }));

/** Why the case misses, or null when our engine agrees with it. */
export async function peerCaseMiss(engine: string, c: PeerCase): Promise<string | null> {
  const tf = join(work, "t.jinja");
  const cf = join(work, "c.json");
  writeFileSync(tf, c.template, "utf8");
  writeFileSync(cf, c.context_json ?? JSON.stringify(c.context), "utf8");
  const argv = ["render", tf, "--engine", engine, "--context", cf, ...(c.now ? ["--now", c.now] : [])];
  const out: Buffer[] = [];
  let err = "";
  const code = await main(argv, { stdout: (s) => out.push(Buffer.from(s)), stderr: (s) => void (err += s) });
  if (code !== 0 && code !== 3) return `exit ${code}: ${err.trim().slice(0, 200)}`;
  const got = Buffer.concat(out);
  if (c.expected_error) return code === 3 ? null : `expected a template error, got ${JSON.stringify(got.toString("utf8").slice(0, 80))}`;
  if (code === 3) return `expected ${JSON.stringify(c.expected!.slice(0, 60))}, got error ${err.trim().slice(0, 200)}`;
  const exp = Buffer.from(c.expected!, "utf8");
  if (exp.equals(got)) return null;
  let i = 0;
  while (i < exp.length && i < got.length && exp[i] === got[i]) i++;
  const show = (b: Buffer) => JSON.stringify(b.subarray(Math.max(0, i - 10), i + 40).toString("utf8"));
  return `first difference at byte ${i}: expected ${show(exp)} got ${show(got)}`;
}
