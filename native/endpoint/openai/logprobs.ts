// OpenAI's logprobs: the request fields (chat: `logprobs` + `top_logprobs`; completions: `logprobs` N) and the
// response shapes (chat: `{content: [{token, logprob, bytes, top_logprobs}]}`; completions: the legacy
// `{tokens, token_logprobs, top_logprobs, text_offset}`). The figures are the engine's (TokenLogprobs: the
// target's distribution before the sampler chain, as llama-server reports by default).
import type { TokenLogprob, TokenLogprobs } from "../../engine";
import { badRequest } from "../http/errors";
import type { Fields } from "../http/fields";

/** OpenAI's limit for top_logprobs (and the engine's). */
export const MAX_TOP_LOGPROBS = 20;

export type LogprobsRequest = { top: number } | undefined;

export function chatLogprobsRequest(f: Fields): LogprobsRequest {
  const top = f.integer("top_logprobs", 0, MAX_TOP_LOGPROBS);
  if (!f.boolean("logprobs")) {
    if (top !== undefined) throw badRequest("needs logprobs: true", ["top_logprobs"]);
    return undefined;
  }
  return { top: top ?? 0 };
}

/** The legacy completions field: how many alternatives per token (0: the chosen token's only). */
export function completionLogprobsRequest(f: Fields): LogprobsRequest {
  const top = f.integer("logprobs", 0, MAX_TOP_LOGPROBS);
  return top === undefined ? undefined : { top };
}

const decoder = new TextDecoder();
/** A token's text; a token that is part of a UTF-8 character reads as U+FFFD, as OpenAI's do (bytes has the truth). */
const text = (t: TokenLogprob) => decoder.decode(Uint8Array.from(t.bytes));

const entry = (t: TokenLogprob) => ({ token: text(t), logprob: t.logprob, bytes: t.bytes });

export function chatLogprobs(tokens: readonly TokenLogprobs[]) {
  return { content: tokens.map((t) => ({ ...entry(t), top_logprobs: t.top.map(entry) })), refusal: null };
}

/** `start`: the text's length before these tokens (a stream's earlier chunks). */
export function completionLogprobs(tokens: readonly TokenLogprobs[], start = 0) {
  const offsets: number[] = [];
  let offset = start;
  for (const t of tokens) {
    offsets.push(offset);
    offset += text(t).length;
  }
  return {
    tokens: tokens.map(text),
    token_logprobs: tokens.map((t) => t.logprob),
    top_logprobs: tokens.map((t) => Object.fromEntries(t.top.map((a) => [text(a), a.logprob]))),
    text_offset: offsets,
  };
}

/** A stream's tokens not yet sent: each chunk carries those generated since the previous one. */
export class PendingLogprobs {
  private pending: TokenLogprobs[] = [];
  /** Text length of the tokens already taken, where the next chunk's text_offset starts. */
  offset = 0;

  push(t: TokenLogprobs): void {
    this.pending.push(t);
  }

  take(): TokenLogprobs[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }
}
