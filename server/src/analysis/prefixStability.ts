// Prefix stability: does the prompt of an agent's next turn start with the prompt of this turn followed by the turn
// as the template writes it? A KV cache keeps only the common prefix, so a template that renders an earlier
// assistant turn differently once the conversation moves on (Qwen3-style templates drop the reasoning of turns before
// the last user message) makes every new user turn prefill again from that turn on. Simulated on one agent step:
// prompt N ends with a tool result after the model's turn (reasoning and a tool call, rendered as the latest turn,
// the way the model wrote it); prompt N+1 adds the model's answer and a new user message. The finding sits at the
// node that wrote the first differing bytes of prompt N+1.
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

/** An agent's conversation up to a tool result (prompt N), then its answer and a new user message (prompt N+1). */
const STEP = [
  { role: "system", content: "You are a coding agent." },
  { role: "user", content: "Why does the build fail?" },
  { role: "assistant", reasoning_content: "I should read the build script first.", content: "", tool_calls: [call("call_1", "build.sh")] },
  { role: "tool", tool_call_id: "call_1", content: "set -e\nmake all" },
];
const NEXT = [
  {
    role: "assistant",
    reasoning_content: "The script runs make; the Makefile lacks a target.",
    content: "The Makefile is missing a target.",
  },
  { role: "user", content: "Fix it." },
];

function renderOf(doc: TemplateDocument, dialect: Dialect, messages: object[], addGenerationPrompt: boolean): RenderResult {
  const context = parseJson(JSON.stringify({ messages, tools: TOOLS, add_generation_prompt: addGenerationPrompt, enable_thinking: true }));
  return renderRequest(doc, context as never, { dialect });
}

const commonPrefix = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
};

/** What the first differing bytes belong to in prompt N: which message, and which part of it. */
function whatChanged(before: string, after: string, offset: number): string {
  const dropped = STEP.findIndex(
    (m) => m.reasoning_content && before.indexOf(m.reasoning_content) >= offset && !after.includes(m.reasoning_content),
  );
  if (dropped >= 0) return `message ${dropped}'s reasoning is dropped once a later user message exists`;
  // the last message whose text starts before the difference (its markup after its text belongs to it)
  let index = 0;
  STEP.forEach((m, i) => {
    const text = [m.reasoning_content, m.content, m.tool_calls?.[0]?.function.name].find((t) => t);
    const at = text ? before.indexOf(text) : -1;
    if (at >= 0 && at <= offset) index = i;
  });
  return `message ${index} (${STEP[index].role}) renders differently once the conversation goes on`;
}

/** The finding for one engine, or none when prompt N+1 starts with prompt N and the turn (or a render fails). */
export function prefixStabilityFindings(doc: TemplateDocument, dialect: Dialect): Finding[] {
  // prompt N without its generation prompt: the next prompt must at least start with the conversation so far (the
  // model's turn then follows its generation prompt); a trailing tool result, so no prefill path is taken
  const promptN = renderOf(doc, dialect, STEP, false);
  const next = renderOf(doc, dialect, [...STEP, ...NEXT], true);
  if (promptN.error || next.error) return [];
  const before = promptN.output.replace(/\s+$/, "");
  const offset = commonPrefix(before, next.output);
  if (offset >= before.length) return [];
  const at = (r: RenderResult, i: number) => r.chunks.find((c) => c.start <= i && i < c.end);
  // the first bytes of prompt N+1 written by another node than wrote those bytes of prompt N (an else branch that
  // leaves the reasoning out) is where the rendering changed, even when its first bytes happen to agree
  const switched = next.chunks.find((c) => {
    if (c.start > offset) return false;
    const w = at(promptN, c.start);
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
      message: `Prefix cache lost: ${whatChanged(before, next.output, offset)}, so the next prompt does not start with this one; ${cost}${advice}`,
      nodeId: chunk.nodeId,
      start: chunk.sourceStart,
      end: chunk.sourceEnd,
      scenarios: [],
    },
  ];
}
