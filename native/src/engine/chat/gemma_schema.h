// A JSON schema as a GBNF expression of gemma 4's value syntax, which llama.cpp's grammar leaves free in a tool
// call's arguments (forced_call_arguments.h).
#pragma once

#include "json.h"

#include <optional>
#include <string>

namespace cts {

// A JSON schema as gemma 4 writes values (its template's format_argument): strings between <|"|>, keys bare, no
// spaces, a dict's keys sorted. Uses the gemma4-* rules of llama.cpp's grammar for what the schema leaves open.
// An object needs its required properties (sorted) and takes the others after them; nullopt for an object
// with none required at the top (the dict stays free).
std::optional<std::string> gemma_value(const common_json & schema, int depth = 0);

}  // namespace cts
