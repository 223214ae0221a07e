// Prefix stability: does the prompt of an agent's next turn start with the prompt of this turn followed by the turn
// as the template writes it? A KV cache keeps only the common prefix, so a template that renders an earlier
// assistant turn differently once the conversation moves on (Qwen3-style templates drop the reasoning of turns before
// the last user message) makes every new user turn prefill again from that turn on. Simulated on one agent step:
// prompt N ends with a tool result; the model's turn is what the template renders for it as the latest turn
// (reasoning, content, tool call); prompt N+1 adds a new user message. The finding sits at the node that wrote the
// first differing bytes of prompt N+1.
import { parseJson, type Dialect, type RenderResult } from "../interpreter";
import type { TemplateDocument } from "../document";
import { renderRequest } from "./chatLayer";
import type { Finding } from "./finding";

export const PREFIX_CODE = "cache/earlier-turn-rerendered";

/** The session a finding's cost is told for. */
const SESSION_TOKENS = 30_000;

/** Names a template may read to keep earlier reasoning (a chat_template_kwargs option). */
const KEEP_REASONING_KWARGS = /\b(preserve_thinking|preserve_reasoning|keep_thinking|keep_reasoning|clear_thinking)\b/;

const TOOLS = [
  {
    type: "function",
    function: {
      name: "read_file",
      description: "Reads a file.",
      parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  },
];

const call = (id: string, path: string) => ({ id, type: "function", function: { name: "read_file", arguments: { path } } });

/** An agent's conversation up to a tool result, then its next turns. */
const STEP = [
  { role: "system", content: "You are a coding agent." },
  { role: "user", content: "Why does the build fail?" },
  { role: "assistant", reasoning_content: "I should read the build script first.", content: "", tool_calls: [call("call_1", "build.sh")] },
  { role: "tool", tool_call_id: "call_1", content: "set -e\nmake all" },
];
const TURN = {
  role: "assistant",
  reasoning_content: "The script runs make; the error is in the Makefile.",
  content: "The Makefile is missing a target.",
};
const NEXT_USER = { role: "user", content: "Fix it." };

function renderOf(doc: TemplateDocument, dialect: Dialect, messages: object[], addGenerationPrompt: boolean): RenderResult {
  const context = parseJson(JSON.stringify({ messages, tools: TOOLS, add_generation_prompt: addGenerationPrompt, enable_thinking: true }));
  return renderRequest(doc, context as never, { dialect });
}

const commonPrefix = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

/** What the first differing bytes belong to in the earlier prompt: which message, and which part of it. */
function whatChanged(before: string, offset: number): string {
  const messages = [...STEP, TURN];
  // the last message whose rendering starts at or before the difference
  let index = -1;
  let cursor = 0;
  messages.forEach((m, i) => {
    const text = [(m as { reasoning_content?: string }).reasoning_content, m.content].find((t) => t) ?? "";
    const at = text ? before.indexOf(text, cursor) : -1;
    if (at >= 0 && at <= offset + 40) [index, cursor] = [i, at];
  });
  const m = messages[index] as { role: string; reasoning_content?: string } | undefined;
  if (!m) return "the rendering of an earlier turn changes";
  const reasoning = m.reasoning_content !== undefined && before.indexOf(m.reasoning_content) >= offset;
  return reasoning
    ? `message ${index}'s reasoning is dropped once a later user message exists`
    : `message ${index} (${m.role}) renders differently once the conversation goes on`;
}

/** The finding for one engine, or none when prompt N+1 starts with prompt N and the turn (or a render fails). */
export function prefixStabilityFindings(doc: TemplateDocument, dialect: Dialect): Finding[] {
  const promptN = renderOf(doc, dialect, STEP, true);
  const written = renderOf(doc, dialect, [...STEP, TURN], false);
  const next = renderOf(doc, dialect, [...STEP, TURN, NEXT_USER], true);
  if (promptN.error || written.error || next.error || !written.output.startsWith(promptN.output.replace(/\s+$/, ""))) return [];
  // prompt N and the model's turn: the turn as the template renders it as the latest one (ending at its end marker)
  const before = written.output.replace(/\s+$/, "");
  const offset = commonPrefix(before, next.output);
  if (offset >= before.length) return [];
  const at = (r: RenderResult, i: number) => r.chunks.find((c) => c.start <= i && i < c.end);
  // the first bytes of prompt N+1 written by another node than wrote those bytes of prompt N (an else branch that
  // leaves the reasoning out) is where the rendering changed, even when its first bytes happen to agree
  const switched = next.chunks.find((c) => {
    if (c.start > offset) return false;
    const w = at(written, c.start);
    return !w || w.start !== c.start || w.sourceStart !== c.sourceStart;
  });
  const chunk = switched ?? at(next, offset) ?? next.chunks.at(-1);
  if (!chunk) return [];
  const lost = before.length - offset;
  const share = lost / before.length;
  const kwarg = KEEP_REASONING_KWARGS.exec(doc.text)?.[1];
  const cost =
    `everything from there on is prefilled again at every new user turn: ${lost} of this sample's ${before.length} characters ` +
    `(${Math.round(share * 100)} %; in a ${SESSION_TOKENS.toLocaleString("en-US")}-token agent session, the turns since the last user message)`;
  const advice = kwarg ? `; the template reads '${kwarg}': set it (chat_template_kwargs) to keep earlier turns as written` : "";
  return [
    {
      engine: dialect.engine,
      code: PREFIX_CODE,
      severity: "warning",
      message: `Prefix cache lost: ${whatChanged(before, offset)}, so the next prompt does not start with this turn's prompt and the model's turn; ${cost}${advice}`,
      nodeId: chunk.nodeId,
      start: chunk.sourceStart,
      end: chunk.sourceEnd,
      scenarios: [],
    },
  ];
}
