// tool_choice "required" (and a named tool) promises a call, OpenAI's and Anthropic's contract. The grammar
// llama.cpp derives for it still lets the model write free text before the first call (the autoparser's
// `optional(content(until(marker)))`, a hand-written format's content channel), so a model can write prose
// until max_tokens and never call.
#pragma once

#include <string>

namespace cts {

// llama.cpp's grammar for a forced call with the message content outside the calls removed, and the
// reasoning too when thinking is off. The pieces are found by the chat parser's tags (content, reasoning),
// not by rule names, so it holds for every format. The parser (common_chat_params.parser, serialized) does
// not keep the tools' JSON schemas, so only the rules that change are taken from it and the rest of
// llama.cpp's grammar (the calls and their arguments) stays as it was. Returns the grammar unchanged when
// there is nothing to remove or the rules do not line up.
std::string forced_call_grammar(const std::string & grammar, const std::string & serialized_parser, bool keep_reasoning);

}  // namespace cts
