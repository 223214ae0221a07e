// Where the rendered prompt contains special tokens, so the preview can set them apart from message text.
// With a model's vocabulary the exact list is known (its control and user-defined tokens); without one,
// the spellings that chat templates commonly use stand in, together with the bos/eos texts in use.
import type { Span } from "../protocol";

/** ChatML/Llama 3 `<|x|>`, DeepSeek's full-width `<｜x｜>`, `<s>`, Mistral's `[INST]`-style tags, Gemma's turns. */
const COMMON =
  /<\|[^<>|\s]{1,64}\|>|<｜[^<>｜]{1,64}｜>|<\/?s>|\[\/?(?:INST|SYSTEM_PROMPT|AVAILABLE_TOOLS|TOOL_CALLS|TOOL_RESULTS|THINK)\]|<(?:start|end)_of_turn>/y;

export interface SpecialTokenSet {
  /** Exact token texts; longest match wins where two start at the same place. */
  tokens: readonly string[];
  /** Also match the common spellings (when no vocabulary says what is special). */
  common: boolean;
}

export function specialTokenRanges(text: string, set: SpecialTokenSet): Span[] {
  const byFirst = new Map<string, string[]>();
  for (const t of set.tokens) {
    if (!t) continue;
    const list = byFirst.get(t[0]) ?? [];
    list.push(t);
    byFirst.set(t[0], list);
  }
  for (const list of byFirst.values()) list.sort((x, y) => y.length - x.length);
  const out: Span[] = [];
  for (let i = 0; i < text.length;) {
    let len = byFirst.get(text[i])?.find((t) => text.startsWith(t, i))?.length ?? 0;
    if (!len && set.common) {
      COMMON.lastIndex = i;
      len = COMMON.exec(text)?.[0].length ?? 0;
    }
    if (len) {
      out.push({ start: i, end: i + len });
      i += len;
    } else {
      i++;
    }
  }
  return out;
}
