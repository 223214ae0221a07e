// `chat-template bench --agent-session` on the demo models, with a small session (the default is ~30k tokens): the
// JSON line's shape, a prefix-stable template keeping >= 95 % of each previous prompt, and Qwen3's template (it drops
// the reasoning of turns before the last user message) losing it at the turn after a new user prompt.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import { runCli } from "../../helpers/cli";
import { tempDir } from "../../helpers/gguf";

const tmp = tempDir("agent-bench");
after(tmp.cleanup);

/** Qwen3's template, rendering every turn's reasoning: prompt N+1 starts with prompt N and the turn as written. */
const STABLE = QWEN3_CHAT_TEMPLATE.replace("{%- if loop.index0 > ns.last_query_index %}", "{%- if true %}");

type Turn = { prompt: number; reused: number; ttft_ms: number; prefill_ms: number };

function bench(extra: string[]): Turn[] {
  const r = runCli(["bench", "--agent-session", "--system-tokens", "400", "--turns", "5", "--json", ...extra]);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split("\n");
  assert.match(lines[0], /^agent session: 5 turns on demo-random, template .+, context \d+$/);
  assert.match(lines[2], /^turn 2: prompt \d+ tokens, reused \d+ \(\d+\.\d % of turn 1's prompt\), prefill \d+ ms, first token \d+ ms$/);
  const json = JSON.parse(lines.at(-1)!) as { turns: Turn[] };
  assert.equal(json.turns.length, 5);
  for (const t of json.turns) assert.deepEqual(Object.keys(t), ["prompt", "reused", "ttft_ms", "prefill_ms"]);
  return json.turns;
}

const kept = (turns: Turn[]) => turns.slice(1).map((t, i) => t.reused / turns[i].prompt);

describe("chat-template bench --agent-session", () => {
  it("a prefix-stable template reuses >= 95 % of each previous prompt from turn 2 on", () => {
    const file = join(tmp.dir, "stable.jinja");
    writeFileSync(file, STABLE);
    const turns = bench(["--template", file]);
    assert.ok(turns[0].prompt >= 400, `turn 1: ${turns[0].prompt} tokens`);
    for (const [i, share] of kept(turns).entries()) assert.ok(share >= 0.95, `turn ${i + 2} kept ${share}`);
  });

  it("Qwen3's template loses the turns since the last user prompt once a new one comes (turn 5)", () => {
    const shares = kept(bench([]));
    assert.ok(shares[3] < 0.95, `turn 5 kept ${shares[3]}`);
    assert.ok(
      shares.slice(0, 3).every((s) => s >= 0.95),
      `turns 2-4 kept ${shares}`,
    );
  });
});
