// Where a prompt left the cache: the longest cached candidate, the message and block of the first differing
// character, and the cause told from what the client changed. Tokens here are characters.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PromptHistory, describeLoss, locate, type PromptRecord } from "../../../native/endpoint/chat/promptHistory";

const SYSTEM = { role: "system", content: "You are terse." };
const USER = { role: "user", content: "List the files." };
const CALL = {
  role: "assistant",
  reasoning_content: "I should call ls.",
  content: "",
  tool_calls: [{ function: { name: "ls", arguments: "{}" } }],
};
const RESULT = { role: "tool", content: "a.txt b.txt" };

/** A Qwen3-like rendering: reasoning shown only for turns after the last user message. */
function render(messages: any[], tools: unknown = null): string {
  const lastUser = messages.map((m) => m.role).lastIndexOf("user");
  const toolText = tools ? `[tools ${JSON.stringify(tools)}]` : "";
  return messages
    .map((m, i) => {
      const think = m.reasoning_content && i > lastUser ? `<think>${m.reasoning_content}</think>` : "";
      const calls = (m.tool_calls ?? []).map((c: any) => `<call>${c.function.name} ${c.function.arguments}</call>`).join("");
      return `<|${m.role}|>${m.role === "system" ? toolText : ""}${think}${m.content}${calls}<|end|>`;
    })
    .join("");
}

const record = (messages: any[], text: string, tools: unknown = null): PromptRecord => ({
  tokens: [...text].map((c) => c.charCodeAt(0)),
  text,
  messages,
  tools,
});

/** The history after serving `messages` with `output` appended to their prompt. */
function served(messages: any[], output: string, tools: unknown = null): PromptHistory {
  const h = new PromptHistory();
  const text = render(messages, tools) + "<|assistant|>" + output;
  h.remember(record(messages, text, tools));
  return h;
}

describe("PromptHistory", () => {
  test("nothing cached: no report; an extended conversation keeps every cached token", () => {
    const h = new PromptHistory();
    assert.equal(h.compare(record([SYSTEM, USER], render([SYSTEM, USER]))), null);
    const first = [SYSTEM, USER];
    const output = "<think>I should call ls.</think><call>ls {}</call><|end|>";
    const after = served(first, output);
    const next = [SYSTEM, USER, CALL, RESULT];
    const loss = after.compare(record(next, render(next)))!;
    assert.equal(loss.divergence, null);
    assert.equal(loss.matched, loss.candidateTokens);
  });

  test("a template that drops earlier reasoning once a user message follows: earlier_turn_rerendered at its reasoning", () => {
    const before = [SYSTEM, USER, CALL, RESULT];
    const h = served(before, "Two files.<|end|>");
    const next = [...before, { role: "assistant", content: "Two files." }, { role: "user", content: "Thanks." }];
    const text = render(next);
    const loss = h.compare(record(next, text))!;
    const d = loss.divergence!;
    assert.equal(d.cause, "earlier_turn_rerendered");
    assert.deepEqual(d.message, { index: 2, role: "assistant", block: "reasoning" });
    // the first differing character: "<think>" against "<call>"
    assert.match(d.before, /<\|assistant\|><$/);
    assert.match(d.cachedAfter, /^think>I should/);
    assert.match(d.newAfter, /^call>ls/);
    assert.equal(d.token, d.offset, "a token per character");
    assert.match(
      describeLoss(10, loss),
      /^prompt cache: reused 10 of the \d+ tokens of the longest cached prompt, diverged at token \d+ \(message 2, assistant, reasoning\): earlier_turn_rerendered$/,
    );
  });

  test("a changed system prompt or tool list: client_prefix_changed; another first user message: new_conversation", () => {
    const h = served([SYSTEM, USER], "Sure.<|end|>");
    const system = [{ role: "system", content: "You are verbose." }, USER];
    assert.equal(h.compare(record(system, render(system)))!.divergence!.cause, "client_prefix_changed");
    const tools = [SYSTEM, USER, { role: "assistant", content: "Sure." }, { role: "user", content: "More." }];
    const d = h.compare(record(tools, render(tools, [{ name: "ls" }]), [{ name: "ls" }]))!.divergence!;
    assert.equal(d.cause, "client_prefix_changed");
    assert.equal(d.message?.index, 0);
    const other = [SYSTEM, { role: "user", content: "Delete the files." }];
    const n = h.compare(record(other, render(other)))!.divergence!;
    assert.equal(n.cause, "new_conversation");
    assert.deepEqual(n.message, { index: 1, role: "user", block: "content" });
  });

  test("the same request again (a retry) diverges only in the output it had: nothing lost", () => {
    const h = served([SYSTEM, USER], "Sure.<|end|>");
    assert.equal(h.compare(record([SYSTEM, USER], render([SYSTEM, USER]) + "<|assistant|>"))!.divergence, null);
  });

  test("the candidate is the remembered prompt sharing the longest prefix; an extended one is forgotten", () => {
    const h = new PromptHistory();
    const a = render([SYSTEM, USER]) + "<|assistant|>Sure.<|end|>";
    h.remember(record([SYSTEM, USER], a));
    const side = [{ role: "system", content: "Title?" }, USER];
    h.remember(record(side, render(side) + "<|assistant|>Files<|end|>"));
    const next = [SYSTEM, USER, { role: "assistant", content: "Sure." }, { role: "user", content: "Go." }];
    const loss = h.compare(record(next, render(next)))!;
    assert.equal(loss.candidateTokens, a.length);
    assert.equal(loss.divergence, null);
    h.remember(record(next, render(next)));
    assert.equal(h.compare(record([SYSTEM, USER], a))!.candidateTokens, render(next).length);
  });

  test("locate: markup before a message's first part belongs to that message", () => {
    const text = render([SYSTEM, USER]);
    assert.deepEqual(locate([text], [SYSTEM, USER], text.indexOf("<|user|>")), { index: 1, role: "user", block: "content" });
    assert.deepEqual(locate([text], [SYSTEM, USER], 2), { index: 0, role: "system", block: "content" });
  });
});
