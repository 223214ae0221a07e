// tool_choice "required" or a named function promises a call (OpenAI's and Anthropic's contract). The
// grammar llama.cpp's autoparser builds for it still lets text come first
// (`root ::= … until-N? tool-calls`), so a model can write prose until max_tokens and never call; this
// drops that optional text. Grammars of other shapes (hand-written format handlers) are kept as they are.
import type { ChatPrompt } from "../engine/types";

const FREE_TEXT_BEFORE_CALLS = /^(root ::= .*) until-\d+\? (tool-calls?)$/m;

export function requireToolCall(p: ChatPrompt): ChatPrompt {
  if (p.grammarKind !== "tool_calls" || p.grammarLazy) return p;
  const grammar = p.grammar.replace(FREE_TEXT_BEFORE_CALLS, "$1 $2");
  return grammar === p.grammar ? p : { ...p, grammar };
}
