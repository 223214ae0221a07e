// The demo pair `chat-template serve` uses when no model is given: generated once into a cache folder and
// reused while the generator is unchanged. Its weights are random, so callers must say so to users.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultStorageDir } from "../engine/paths";
import { writeConstructedPair, writeRandomPair, type PairFiles } from "./pairs";

/** Bump when the generated files change, so stale caches are regenerated. */
const GENERATOR_VERSION = 1;

export interface DemoModels extends PairFiles {
  /** One line to show users: what these models are. */
  description: string;
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
    const { version, ...cached } = JSON.parse(readFileSync(manifest, "utf8")) as PairFiles & { version: number };
    if (version === GENERATOR_VERSION && existsSync(cached.target) && existsSync(cached.draft)) return { ...cached, description };
  } catch {
    // no cache yet, or an unreadable one: generate
  }
  // the random target leans toward opening tool calls, so that forced tool calls appear within a few tokens
  const files = kind === "random" ? writeRandomPair(dir, "demo-random", { toolCalls: true }) : writeConstructedPair(dir, "demo-constructed");
  const pair: PairFiles = { kind: files.kind, target: files.target, draft: files.draft, blockSize: files.blockSize };
  writeFileSync(manifest, JSON.stringify({ ...pair, version: GENERATOR_VERSION }, null, 2) + "\n");
  return { ...pair, description };
}
