// tool_choice "required" (and a named tool) promises a call, OpenAI's and Anthropic's contract. The grammar
// llama.cpp derives for it still lets the model write free text before the first call (the autoparser's
// `optional(content(until(marker)))`, a hand-written format's content channel), so a model can write prose
// until max_tokens and never call.
#pragma once

#include "json.h"

#include <map>
#include <string>
#include <vector>

namespace cts {

// What a forced call leaves of the reasoning before it.
struct ForcedReasoning {
    // thinking on: the model may think before it calls
    bool keep = true;
    // thinking off but the generation prompt opened the reasoning anyway (templates that always think): the
    // reasoning may hold only what the prompt already wrote into it, so the model must close it at once
    std::string opened_text;
    bool opened = false;
    // where the grammar lets an opened reasoning end without its end tag (Kimi-K3), the tag is required: the
    // parser reads all that follows an unclosed reasoning as reasoning
    std::vector<std::string> end_tags;
};

// llama.cpp's grammar for a forced call with the message content outside the calls removed, and the
// reasoning too when thinking is off (ForcedReasoning). The pieces are found by the chat parser's tags
// (content, reasoning), not by rule names, so it holds for every format. The parser (common_chat_params.parser,
// serialized) does not keep the tools' JSON schemas, so only the rules that change are taken from it and the
// rest of llama.cpp's grammar (the calls and their arguments) stays as it was. Returns the grammar unchanged
// when there is nothing to remove or the rules do not line up.
// `tools`: each tool's parameters schema by name; argument values the grammar leaves free (Python-style calls)
// are held to it.
std::string forced_call_grammar(const std::string & grammar, const std::string & serialized_parser, const ForcedReasoning & reasoning,
                                const std::map<std::string, common_json> & tools);

}  // namespace cts
