// A forced call's arguments held to the tool's schema where llama.cpp's grammar leaves them free: values written
// as Python or JSON literals of any type (LFM2.5), and hand-written formats' "any argument, any number of times"
// (Kimi-K3, muse-glimmer), in which a call can leave out a required argument. Part of forced_tool_call.h.
#pragma once

#include "json.h"
#include "peg-parser.h"

#include <map>
#include <optional>
#include <string>

namespace cts {

// The serialized chat parser with each call's "any of the arguments, repeated" replaced by the schema's
// properties in order, the required ones once and the others at most once; unchanged where a tool has no
// required argument or the shape is another.
std::string require_arguments(const std::string & serialized_parser, const std::map<std::string, common_json> & tools);

// The rules a forced call's arguments are held to: JSON schemas (converted by llama.cpp) and rules written here.
struct HeldArguments {
    std::map<std::string, common_json> schemas;
    std::map<std::string, std::string> rules;

    bool empty() const { return schemas.empty() && rules.empty(); }
};

// Replaces each JSON or Python argument value that no schema holds by a reference to a rule of its argument's
// schema, and gemma 4's free argument dict by one of the tool's schema in gemma's syntax.
HeldArguments hold_arguments(common_peg_arena & arena, const std::map<std::string, common_json> & tools);

// Their GBNF rules; nullopt when a schema is outside what llama.cpp converts.
std::optional<std::string> held_rules(const HeldArguments & held);

}  // namespace cts
