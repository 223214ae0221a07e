// Part of a forced call's grammar (forced_tool_call.h): free text that llama.cpp's grammar leaves unbounded in
// a call's header, outside its arguments — a recipient (` to=…`), a content type (`<|constrain|>json`),
// attributes — is bounded, so that a forced call always ends.
#pragma once

#include "peg-parser.h"

namespace cts {

// Bounds that text in the arena to MAX_HEADER_TEXT characters; false when there is none.
bool bound_header_text(common_peg_arena & arena);

}  // namespace cts
