// The demo pair `chat-template serve` uses when no model is given: generated once into a cache folder and
// reused while the generator is unchanged. Its weights are random, so callers must say so to users.
//
// Several processes may create it at once (two VS Code windows, two endpoints on a fresh storage folder).
// Each writes its own temporary files in the folder and renames them into place, so a reader only ever
// sees a whole file; the generator is deterministic, so every creator renames the same bytes. The
// manifest records each file's size: a file cut short (a writer killed mid-write, or one of an older
// version, which wrote in place) does not pass for the cache.
import { randomBytes } from "node:crypto";
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultStorageDir } from "../engine";
import { writeConstructedPair, writeRandomPair, type PairFiles } from "./pairs";

/** Bump when the generated files change, so stale caches are regenerated. */
const GENERATOR_VERSION = 2;

export interface DemoModels extends PairFiles {
  /** One line to show users: what these models are. */
  description: string;
}

interface Manifest extends PairFiles {
  version: number;
  /** The files' sizes as written. */
  bytes: { target: number; draft: number };
}

export function ensureDemoModels(options: { dir?: string; kind?: "random" | "constructed" } = {}): DemoModels {
  const kind = options.kind ?? "random";
  const dir = options.dir ?? join(defaultStorageDir(), "demo-models");
  const manifest = join(dir, `${kind}.json`);
  const description =
    kind === "random"
      ? "demo models with random weights (a tiny Qwen3-shaped target and DFlash draft): the output is gibberish"
      : "demo models with hand-set weights: the target repeats the alphabet a..x and the DFlash draft predicts it";
  try {
    const { version, bytes, ...cached } = JSON.parse(readFileSync(manifest, "utf8")) as Manifest;
    if (version === GENERATOR_VERSION && statSync(cached.target).size === bytes?.target && statSync(cached.draft).size === bytes.draft)
      return { ...cached, description };
  } catch {
    // no cache yet, or an unreadable one: generate
  }
  const name = `demo-${kind}`;
  const tmp = `.${name}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const tmpManifest = join(dir, `${tmp}.json`);
  try {
    // the random target leans toward opening tool calls, so that forced tool calls appear within a few tokens, and
    // is marked as the agent demo, whose tool turns the endpoint steers so that agent loops complete
    const files = kind === "random" ? writeRandomPair(dir, tmp, { toolCalls: true, agentDemo: true }) : writeConstructedPair(dir, tmp);
    const pair: PairFiles = {
      kind: files.kind,
      target: join(dir, `${name}-target.gguf`),
      draft: join(dir, `${name}-draft.gguf`),
      blockSize: files.blockSize,
    };
    const bytes = { target: statSync(files.target).size, draft: statSync(files.draft).size };
    renameSync(files.target, pair.target);
    renameSync(files.draft, pair.draft);
    writeFileSync(tmpManifest, JSON.stringify({ ...pair, bytes, version: GENERATOR_VERSION } satisfies Manifest, null, 2) + "\n");
    renameSync(tmpManifest, manifest);
    return { ...pair, description };
  } finally {
    // what a failed write left behind (after the renames, nothing is left)
    for (const f of [`${tmp}-target.gguf`, `${tmp}-draft.gguf`, `${tmp}.json`]) rmSync(join(dir, f), { force: true });
  }
}
