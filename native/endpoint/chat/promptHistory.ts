// Where the prompt cache was lost. The endpoint remembers the last prompts it served (tokens and text, prompt and
// output together, as the KV cache holds them after the request) with the messages they came from. A new prompt is
// held against the one it shares the longest token prefix with (the candidate the engine restores); when it keeps
// fewer than all of the candidate's tokens, the first differing character is placed in a message and a block of it,
// and the cause is told from what the client changed: the system prompt or the tools (client_prefix_changed), nothing
// before that point (earlier_turn_rerendered: the template renders an earlier message differently from how the model
// wrote it or how it rendered it before), or an earlier message (new_conversation).
import { isDeepStrictEqual } from "node:util";

export type DivergenceCause = "client_prefix_changed" | "earlier_turn_rerendered" | "new_conversation";
export const DIVERGENCE_CAUSES: readonly DivergenceCause[] = ["client_prefix_changed", "earlier_turn_rerendered", "new_conversation"];

type Message = { role?: unknown; content?: unknown; reasoning_content?: unknown; tool_calls?: unknown };

export interface PromptRecord {
  tokens: readonly number[];
  text: string;
  messages: readonly unknown[];
  tools: unknown;
}

export interface Divergence {
  /** The first token of the new prompt that differs from the candidate's. */
  token: number;
  /** The first differing character, in both texts. */
  offset: number;
  /** The message of the new request whose rendering holds that character, and the part of it (null: before any). */
  message: { index: number; role: string; block: string } | null;
  cause: DivergenceCause;
  /** 30 characters before the divergence, and 30 after it in the candidate and in the new prompt. */
  before: string;
  cachedAfter: string;
  newAfter: string;
}

export interface CacheLoss {
  /** Tokens of the longest cached candidate (its prompt and output). */
  candidateTokens: number;
  /** Of them, the ones the new prompt starts with. */
  matched: number;
  divergence: Divergence | null;
}

const CONTEXT_CHARS = 30;

function commonPrefix<T>(a: ArrayLike<T>, b: ArrayLike<T>): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** A message's parts in the order templates render them, each with the text it shows. */
function parts(m: Message): { block: string; text: string }[] {
  const out: { block: string; text: string }[] = [];
  if (typeof m.reasoning_content === "string") out.push({ block: "reasoning", text: m.reasoning_content });
  if (typeof m.content === "string") out.push({ block: "content", text: m.content });
  else if (Array.isArray(m.content))
    m.content.forEach((p: { text?: unknown }, i) => typeof p?.text === "string" && out.push({ block: `content[${i}]`, text: p.text }));
  if (Array.isArray(m.tool_calls))
    m.tool_calls.forEach((c: { function?: { name?: unknown; arguments?: unknown } }, i) => {
      if (typeof c?.function?.name === "string") out.push({ block: `tool_calls[${i}]`, text: c.function.name });
      if (typeof c?.function?.arguments === "string") out.push({ block: `tool_calls[${i}]`, text: c.function.arguments });
    });
  return out.filter((p) => p.text.trim() !== "");
}

/**
 * The message and block whose rendering holds `offset`, in texts that agree up to it (the candidate's, then the new
 * prompt's: a part is looked for in the next one when the first lacks it, as a changed part does): each part is looked
 * for in order after the one before it; the markup between one message's parts and the next one's belongs to the
 * next (its header).
 */
export function locate(texts: readonly string[], messages: readonly unknown[], offset: number): Divergence["message"] {
  let cursor = 0;
  for (let index = 0; index < messages.length; index++) {
    const m = (messages[index] ?? {}) as Message;
    const found: { block: string; end: number }[] = [];
    for (const p of parts(m)) {
      const at = texts.map((t) => t.indexOf(p.text, cursor)).find((i) => i >= 0);
      if (at === undefined) continue;
      found.push({ block: p.block, end: at + p.text.length });
      cursor = at + p.text.length;
    }
    const role = typeof m.role === "string" ? m.role : "?";
    const within = found.find((p) => p.end >= offset);
    if (within) return { index, role, block: within.block };
    // the message rendered with none of its parts found (an empty turn, or text the template changed) past offset
    if (found.length === 0 && cursor >= offset) return { index, role, block: "markup" };
  }
  return null;
}

/** The index of the first message that differs between the two lists (the shorter one's length when none does). */
const firstChanged = (a: readonly unknown[], b: readonly unknown[]) => {
  let i = 0;
  while (i < a.length && i < b.length && isDeepStrictEqual(a[i], b[i])) i++;
  return i;
};

function causeOf(candidate: PromptRecord, next: PromptRecord, message: Divergence["message"]): DivergenceCause {
  const changed = firstChanged(candidate.messages, next.messages);
  const system = (m: unknown) => (m as Message | undefined)?.role === "system";
  if (changed < candidate.messages.length)
    return system(candidate.messages[changed]) && changed === 0 ? "client_prefix_changed" : "new_conversation";
  // the client sent the candidate's messages again, extended: a changed prefix can only be the tools, or the template
  if (!isDeepStrictEqual(candidate.tools, next.tools) && (message === null || system(next.messages[message.index])))
    return "client_prefix_changed";
  return "earlier_turn_rerendered";
}

export class PromptHistory {
  private entries: PromptRecord[] = [];

  /** `size`: prompts remembered (the engine's prompt cache holds a few conversations too). */
  constructor(private readonly size = 8) {}

  /** The new prompt (tokens and text of the prompt alone) against the longest cached candidate; null: none yet. */
  compare(next: PromptRecord): CacheLoss | null {
    let best: PromptRecord | undefined;
    let matched = -1;
    for (const e of this.entries) {
      const n = commonPrefix(e.tokens, next.tokens);
      if (n > matched) [best, matched] = [e, n];
    }
    if (!best) return null;
    const loss: CacheLoss = { candidateTokens: best.tokens.length, matched, divergence: null };
    // a request sent again (a retry, a regeneration) diverges only in the candidate's output: nothing was lost
    const resent = isDeepStrictEqual(best.messages, next.messages) && matched >= next.tokens.length;
    if (matched >= best.tokens.length || resent) return loss;
    const offset = commonPrefix(best.text, next.text);
    // the candidate's text holds the model's own turn as it wrote it, the new prompt's what is new or changed
    const message = locate([best.text, next.text], next.messages, offset);
    loss.divergence = {
      token: matched,
      offset,
      message,
      cause: causeOf(best, next, message),
      before: next.text.slice(Math.max(0, offset - CONTEXT_CHARS), offset),
      cachedAfter: best.text.slice(offset, offset + CONTEXT_CHARS),
      newAfter: next.text.slice(offset, offset + CONTEXT_CHARS),
    };
    return loss;
  }

  /** A served request: its prompt followed by its output, as the context holds them now. */
  remember(served: PromptRecord): void {
    // an entry the new one extends is in it (the engine drops those too)
    this.entries = this.entries.filter((e) => commonPrefix(e.tokens, served.tokens) < e.tokens.length);
    this.entries.unshift(served);
    this.entries.length = Math.min(this.entries.length, this.size);
  }
}

/** The request log line's words for a loss. */
export function describeLoss(reused: number, loss: CacheLoss): string {
  const head = `prompt cache: reused ${reused} of the ${loss.candidateTokens} tokens of the longest cached prompt`;
  const d = loss.divergence;
  if (!d) return head;
  const where = d.message ? ` (message ${d.message.index}, ${d.message.role}, ${d.message.block})` : "";
  return `${head}, diverged at token ${d.token}${where}: ${d.cause}`;
}

/** The debug line: the rendered text either side of the divergence. */
export function describeDivergenceText(d: Divergence): string {
  return `prompt cache: diverged at character ${d.offset}: ${JSON.stringify(d.before)} then cached ${JSON.stringify(d.cachedAfter)}, new ${JSON.stringify(d.newAfter)}`;
}
