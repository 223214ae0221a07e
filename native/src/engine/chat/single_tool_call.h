// parallel_tool_calls false promises at most one call (OpenAI's field, Anthropic's disable_parallel_tool_use).
// llama.cpp's autoparser honours it in every format but one: a JSON call in its own markers with no section
// around them (Hermes' and Qwen3's `<tool_call>{...}</tool_call>`) is repeated one or more times whatever the
// request said, so a model could write several calls where the client asked for one.
#pragma once

#include <string>

namespace cts {

// llama.cpp's grammar with the repeated `tool-calls` rule (llama.cpp's name for that repetition) held to one
// repetition; any other grammar as it is.
std::string single_tool_call_grammar(const std::string & grammar);

}  // namespace cts
