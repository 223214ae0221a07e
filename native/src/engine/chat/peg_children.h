// The parsers a PEG parser node leads to, for the walks that rewrite llama.cpp's chat parsers
// (forced_tool_call.cpp, forced_call_header.cpp, forced_call_arguments.cpp).
#pragma once

#include "peg-parser.h"

#include <vector>

namespace cts {

// A node's children, a reference's rule included, as a copy: the walks may replace nodes as they go.
// Schema and gbnf parsers lead nowhere (they constrain arguments or a response format, not message text).
std::vector<common_peg_parser_id> peg_children(const common_peg_arena & arena, const common_peg_parser_variant & node);

}  // namespace cts
