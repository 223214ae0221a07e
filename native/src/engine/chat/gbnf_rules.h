// GBNF rules as text, as llama.cpp's grammar builder writes them (one `name ::= body` per line), and the merge of
// an edited rule into llama.cpp's own (forced_tool_call.h).
#pragma once

#include <map>
#include <optional>
#include <string>

namespace cts {

using GbnfRules = std::map<std::string, std::string>;

GbnfRules rules_of(const std::string & grammar);

// llama.cpp's rule `orig` edited as the reloaded parser's `before` became `after`. The reloaded parser writes
// the same rules but for the argument schemas it lost (`json-value` where llama.cpp has `tool-x-schema`), so
// `before` must match `orig` token for token but for rule names; the tokens of `after` that come from `before`
// (a longest common subsequence) are taken from `orig`. nullopt when the rules do not line up.
std::optional<std::string> edit_rule(const std::string & before, const std::string & after, const std::string & orig);

// `x` when the rule body is `(x)+` as a whole, nullopt otherwise.
std::optional<std::string> repeated_group(const std::string & body);

}  // namespace cts
