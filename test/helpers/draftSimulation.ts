// The engine's fixed-block drafting loop, simulated on a constructed pair whose behaviour is known exactly:
// the target's greedy next token is successor[x], and the draft proposes, at block slot i of a step whose
// last sampled token sits at position pos, propose(x, pos, i). Tests compare the engine's counts with these.
import assert from "node:assert/strict";
import type { GenerateStats } from "../../native/engine/types";

export interface KnownPair {
  successor: number[];
  lookback: number;
  blockSize: number;
}

export interface SimulatedStep {
  /** Tokens in the cache when the step drafts (the position of the last sampled token). */
  pos: number;
  drafted: number;
  accepted: number;
}

/** The constructed draft: the successor of the token `lookback` positions before the proposed one. */
export const lookbackProposal = (pair: KnownPair) => (x: number[], pos: number, i: number) =>
  pair.successor[x[pos + 1 + i - pair.lookback]];

export function simulate(pair: KnownPair, prompt: number[], maxTokens: number, contextSize: number, propose = lookbackProposal(pair)) {
  const x = [...prompt];
  while (x.length < prompt.length + maxTokens + 16) x.push(pair.successor[x.at(-1)!]);
  const draftMax = pair.blockSize - 1;
  const drafted: number[] = [];
  const accepted: number[] = [];
  const steps: SimulatedStep[] = [];
  let generated = 1; // the first token comes from the prompt's logits
  let pos = prompt.length; // position of the last sampled token, not yet in the cache
  while (generated < maxTokens) {
    const nMax = Math.min(draftMax, contextSize - pos - 2, maxTokens - generated - 1);
    let a = 0;
    if (nMax > 0) {
      const proposal = Array.from({ length: nMax }, (_, i) => propose(x, pos, i));
      while (a < nMax && proposal[a] === x[pos + 1 + a]) a++;
      for (let i = 0; i < nMax; i++) {
        drafted[i] = (drafted[i] ?? 0) + 1;
        accepted[i] = (accepted[i] ?? 0) + (i < a ? 1 : 0);
      }
    }
    steps.push({ pos, drafted: Math.max(0, nMax), accepted: a });
    generated += a + 1;
    pos += a + 1;
  }
  return { tokens: x.slice(prompt.length, prompt.length + maxTokens), drafted, accepted, decodes: steps.length, steps };
}

export function checkAgainstSimulation(stats: GenerateStats, sim: ReturnType<typeof simulate>) {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  assert.deepEqual(stats.draftedAt, sim.drafted);
  assert.deepEqual(stats.acceptedAt, sim.accepted);
  assert.equal(stats.targetDecodes, sim.decodes);
  assert.equal(stats.drafted, sum(sim.drafted));
  assert.equal(stats.accepted, sum(sim.accepted));
}
