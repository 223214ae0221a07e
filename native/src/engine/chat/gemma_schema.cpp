#include "gemma_schema.h"

#include "json-schema-to-grammar.h"

#include <algorithm>
#include <vector>

namespace cts {

std::optional<std::string> gemma_value(const common_json & schema, int depth) {
    auto literal = [](const common_json & v) {
        return gbnf_format_literal(v.is_string() ? "<|\"|>" + v.get<std::string>() + "<|\"|>" : v.dump());
    };
    auto nested = [&](const common_json & s) { return gemma_value(s, depth + 1).value_or("gemma4-value"); };
    if (depth > 8 || !schema.is_object()) {
        return depth == 0 ? std::nullopt : std::optional<std::string>("gemma4-value");
    }
    if (schema.contains("const")) {
        return literal(schema["const"]);
    }
    if (schema.contains("enum") && schema["enum"].is_array() && !schema["enum"].empty()) {
        std::string alts;
        for (size_t i = 0; i < schema["enum"].size(); i++) {
            alts += (i ? " | " : "") + literal(schema["enum"][i]);
        }
        return "(" + alts + ")";
    }
    const std::string type = schema.contains("type") && schema["type"].is_string() ? schema["type"].get<std::string>() : "";
    if (type == "object" && schema.contains("properties")) {
        std::vector<std::string> required =
            schema.contains("required") ? schema["required"].get<std::vector<std::string>>() : std::vector<std::string>();
        std::sort(required.begin(), required.end());
        if (required.empty()) {
            return depth == 0 ? std::nullopt : std::optional<std::string>("gemma4-dict");
        }
        std::vector<std::string> optional;
        for (const auto & [key, _] : schema["properties"].items()) {
            if (std::find(required.begin(), required.end(), key) == required.end()) {
                optional.push_back(key);
            }
        }
        std::sort(optional.begin(), optional.end());
        std::string body = "\"{\"";
        for (size_t i = 0; i < required.size(); i++) {
            if (!schema["properties"].contains(required[i])) {
                return std::nullopt;
            }
            body += (i ? " \",\" " : " ") + gbnf_format_literal(required[i] + ":") + " " + nested(schema["properties"][required[i]]);
        }
        for (const auto & key : optional) {
            body += " (\",\" " + gbnf_format_literal(key + ":") + " " + nested(schema["properties"][key]) + ")?";
        }
        return "(" + body + " \"}\")";
    }
    if (type == "array") {
        const std::string item = schema.contains("items") ? nested(schema["items"]) : "gemma4-value";
        return "(\"[\" (" + item + " (\",\" " + item + ")*)? \"]\")";
    }
    if (type == "string") {
        return std::string("gemma4-string");
    }
    if (type == "integer") {
        return std::string("(\"-\"? (\"0\" | [1-9] [0-9]{0,15}))");
    }
    if (type == "number") {
        return std::string("gemma4-number");
    }
    if (type == "boolean") {
        return std::string("gemma4-bool");
    }
    if (type == "null") {
        return std::string("gemma4-null");
    }
    return depth == 0 ? std::nullopt : std::optional<std::string>("gemma4-value");
}

}  // namespace cts
