// Test models and engines for the native tests: generated once per test file into a temp folder.
import { after } from "node:test";
import { Engine } from "../../native/engine/engine";
import type { LoadOptions } from "../../native/engine/types";
import {
  writeConstructedPair,
  writeRandomPair,
  type ConstructedPair,
  type PairFiles,
  type PairOptions,
} from "../../native/testModels/pairs";
import { writeFallingPair, type FallingPair } from "../../native/testModels/falling";
import { tempDir } from "./gguf";
import "./templateGuard";

const tmp = tempDir("native");
const engines: Engine[] = [];
after(async () => {
  await Promise.all(engines.map((e) => e.close()));
  tmp.cleanup();
});

export const modelDir = tmp.dir;

let constructed: ConstructedPair | undefined;
export function constructedPair(): ConstructedPair {
  return (constructed ??= writeConstructedPair(tmp.dir));
}

let falling: FallingPair | undefined;
export function fallingPair(): FallingPair {
  return (falling ??= writeFallingPair(tmp.dir));
}

const randoms = new Map<string, PairFiles>();
export function randomPair(seed = 1, options: PairOptions = {}, name = `random${seed}`): PairFiles {
  if (!randoms.has(name)) randoms.set(name, writeRandomPair(tmp.dir, name, { seed, ...options }));
  return randoms.get(name)!;
}

/** One thread: these models are 64 wide, and the test machines are small and shared. */
export async function loadEngine(options: LoadOptions): Promise<Engine> {
  const e = await Engine.load({ threads: 1, contextSize: 2048, warmup: false, ...options });
  engines.push(e);
  return e;
}

/** A deterministic pseudo-random prompt of ordinary (byte and merged) tokens. */
export function randomPrompt(seed: number, length: number, vocabLimit = 300): number[] {
  let s = seed * 2654435761;
  return Array.from({ length }, () => {
    s = (s * 1103515245 + 12345) >>> 0;
    return 32 + (s % (vocabLimit - 32));
  });
}
