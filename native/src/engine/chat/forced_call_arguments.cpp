#include "forced_call_arguments.h"

#include "chat-peg-parser.h"
#include "gemma_schema.h"
#include "json-schema-to-grammar.h"
#include "peg_children.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <vector>

namespace cts {

namespace {

// The text of the literal a tag holds (a tool's or an argument's name), if it holds one.
std::optional<std::string> tagged_literal(const common_peg_arena & arena, common_peg_parser_id id, const std::string & tag) {
    std::set<common_peg_parser_id> seen;
    std::function<std::optional<std::string>(common_peg_parser_id, bool)> find = [&](common_peg_parser_id at,
                                                                                     bool inside) -> std::optional<std::string> {
        if (at == COMMON_PEG_INVALID_PARSER_ID || !seen.insert(at).second) {
            return std::nullopt;
        }
        const auto & node = arena.get(at);
        if (const auto * lit = std::get_if<common_peg_literal_parser>(&node)) {
            return inside ? std::optional<std::string>(lit->literal) : std::nullopt;
        }
        if (const auto * t = std::get_if<common_peg_tag_parser>(&node)) {
            return find(t->child, inside || t->tag == tag);
        }
        if (const auto * a = std::get_if<common_peg_atomic_parser>(&node)) {
            return find(a->child, inside);
        }
        if (const auto * sq = std::get_if<common_peg_sequence_parser>(&node)) {
            for (auto child : sq->children) {
                if (auto found = find(child, inside)) {
                    return found;
                }
            }
        }
        return std::nullopt;
    };
    return find(id, false);
}

// Whether a value's parser is already its schema's (XML formats: a raw string, or JSON held to the schema).
bool has_schema(const common_peg_arena & arena, common_peg_parser_id id) {
    std::set<common_peg_parser_id> seen;
    std::function<bool(common_peg_parser_id)> find = [&](common_peg_parser_id at) {
        if (at == COMMON_PEG_INVALID_PARSER_ID || !seen.insert(at).second) {
            return false;
        }
        const auto & node = arena.get(at);
        if (std::holds_alternative<common_peg_schema_parser>(node) || std::holds_alternative<common_peg_gbnf_parser>(node)) {
            return true;
        }
        if (const auto * r = std::get_if<common_peg_ref_parser>(&node)) {
            return find(arena.get_rule(r->name));
        }
        if (const auto * r = std::get_if<common_peg_rule_parser>(&node)) {
            return find(r->child);
        }
        if (const auto * t = std::get_if<common_peg_tag_parser>(&node)) {
            return find(t->child);
        }
        if (const auto * a = std::get_if<common_peg_atomic_parser>(&node)) {
            return find(a->child);
        }
        if (const auto * sq = std::get_if<common_peg_sequence_parser>(&node)) {
            return std::any_of(sq->children.begin(), sq->children.end(), find);
        }
        if (const auto * c = std::get_if<common_peg_choice_parser>(&node)) {
            return std::any_of(c->children.begin(), c->children.end(), find);
        }
        return false;
    };
    return find(id);
}

std::string rule_name(const std::string & text) {
    std::string name;
    for (const char c : text) {
        name += std::isalnum((unsigned char)c) ? c : '-';
    }
    return name;
}

bool is_rule(const common_peg_arena & arena, common_peg_parser_id id, const std::string & name) {
    const auto & node = arena.get(id);
    if (const auto * r = std::get_if<common_peg_ref_parser>(&node)) {
        return r->name == name;
    }
    if (const auto * r = std::get_if<common_peg_rule_parser>(&node)) {
        return r->name == name;
    }
    return false;
}

}  // namespace

// Argument values written as JSON (or Python literals, which JSON's syntax is part of) that llama.cpp's grammar
// does not hold to the tool's schema (`python-or-json-value`): each becomes a rule of its argument's schema.
// Raw string values (between XML tags) stay, as any text is a string.
HeldArguments hold_arguments(common_peg_arena & arena, const std::map<std::string, common_json> & tools) {
    HeldArguments held;
    std::set<common_peg_parser_id> seen;
    std::function<void(common_peg_parser_id, const std::string &, const std::string &)> visit =
        [&](common_peg_parser_id id, const std::string & tool, const std::string & arg) {
            if (id == COMMON_PEG_INVALID_PARSER_ID || !seen.insert(id).second) {
                return;
            }
            auto & node = arena.get(id);
            std::string tool_now = tool, arg_now = arg;
            if (const auto * tag = std::get_if<common_peg_tag_parser>(&node)) {
                if (tag->tag == common_chat_peg_builder::TOOL) {
                    tool_now = tagged_literal(arena, id, common_chat_peg_builder::TOOL_NAME).value_or("");
                } else if (tag->tag == common_chat_peg_builder::TOOL_ARGS && is_rule(arena, tag->child, "gemma4-dict")) {
                    const auto t = tools.find(tool);
                    if (t != tools.end()) {
                        if (const auto dict = gemma_value(t->second, 0)) {
                            const std::string name = rule_name("tool-" + tool + "-gemma-args");
                            held.rules[name] = *dict;
                            node = common_peg_gbnf_parser{tag->child, name};
                        }
                    }
                    return;
                } else if (tag->tag == common_chat_peg_builder::TOOL_ARG) {
                    arg_now = tagged_literal(arena, id, common_chat_peg_builder::TOOL_ARG_NAME).value_or("");
                } else if (tag->tag == common_chat_peg_builder::TOOL_ARG_VALUE && !arg.empty()) {
                    const auto t = tools.find(tool);
                    if (!has_schema(arena, tag->child) && t != tools.end() && t->second.contains("properties") &&
                        t->second["properties"].contains(arg)) {
                        const std::string name = rule_name("tool-" + tool + "-arg-" + arg + "-value");
                        held.schemas[name] = t->second["properties"][arg];
                        node = common_peg_gbnf_parser{tag->child, name};
                    }
                    return;
                }
            }
            for (const auto child : peg_children(arena, node)) {
                visit(child, tool_now, arg_now);
            }
        };
    visit(arena.root(), "", "");
    return held;
}

std::optional<std::string> held_rules(const HeldArguments & held) {
    std::vector<common_chat_schema_document> docs;
    std::string text;
    try {
        for (const auto & [name, schema] : held.schemas) {
            docs.push_back(common_chat_schema_from_json(schema));
        }
        size_t i = 0;
        text = build_grammar([&](const common_grammar_builder & builder) {
            for (const auto & [name, schema] : held.schemas) {
                builder.add_schema(name, *docs[i++].root);
            }
        });
    } catch (const std::exception &) {
        return std::nullopt;
    }
    for (const auto & [name, body] : held.rules) {
        text += name + " ::= " + body + "\n";
    }
    return text;
}

namespace {

// The serialized parser (peg-parser.cpp's save format): {"parsers": [...], "rules": {name: id}, "root": id}.
struct Serialized {
    common_json doc;

    common_json & at(int id) { return doc["parsers"][(size_t)id]; }
    std::string type(int id) { return at(id).value("type", ""); }
    std::vector<int> children(int id) {
        common_json & p = at(id);
        if (p.contains("children")) {
            return p["children"].get<std::vector<int>>();
        }
        if (p.contains("child")) {
            return {p["child"].get<int>()};
        }
        if (type(id) == "ref" && doc["rules"].contains(p.value("name", ""))) {
            return {doc["rules"][p.value("name", "")].get<int>()};
        }
        return {};
    }
    int add(const common_json & parser) {
        doc["parsers"].push_back(parser);
        return (int)doc["parsers"].size() - 1;
    }

    // The first node under `id` tagged `tag` (-1: none), not looking inside other tags of `stop`.
    int find_tag(int id, const std::string & tag, std::set<int> & seen) {
        if (!seen.insert(id).second) {
            return -1;
        }
        if (type(id) == "tag" && at(id).value("tag", "") == tag) {
            return id;
        }
        for (int child : children(id)) {
            if (const int found = find_tag(child, tag, seen); found >= 0) {
                return found;
            }
        }
        return -1;
    }
    int find_tag(int id, const std::string & tag) {
        std::set<int> seen;
        return find_tag(id, tag, seen);
    }

    // The literal under the first `tag` under `id`.
    std::optional<std::string> literal(int id, const std::string & tag) {
        int at_tag = find_tag(id, tag);
        for (int n = at_tag; n >= 0;) {
            if (type(n) == "literal") {
                return at(n).value("literal", "");
            }
            const auto c = children(n);
            n = c.size() == 1 ? c[0] : -1;
        }
        return std::nullopt;
    }
};

}  // namespace

std::string require_arguments(const std::string & serialized_parser, const std::map<std::string, common_json> & tools) {
    Serialized s{common_json::parse_no_throw(serialized_parser)};
    if (s.doc.is_discarded() || !s.doc.contains("parsers")) {
        return serialized_parser;
    }
    bool changed = false;
    const int n = (int)s.doc["parsers"].size();
    for (int id = 0; id < n; id++) {
        if (s.type(id) != "tag" || s.at(id).value("tag", "") != common_chat_peg_builder::TOOL) {
            continue;
        }
        const auto name = s.literal(id, common_chat_peg_builder::TOOL_NAME);
        const auto tool = name ? tools.find(*name) : tools.end();
        const int args = s.find_tag(id, common_chat_peg_builder::TOOL_ARGS);
        if (tool == tools.end() || args < 0 || !tool->second.contains("required") || !tool->second.contains("properties")) {
            continue;
        }
        // any of the arguments, repeated, each maybe followed by a separator: (arg | arg …)* or ((arg | arg …) space)*
        const int rep = s.children(args).empty() ? -1 : s.children(args)[0];
        if (rep < 0 || s.type(rep) != "repetition" || s.at(rep)["min_count"].get<int>() != 0 || s.at(rep)["max_count"].get<int>() != -1) {
            continue;
        }
        int choice = s.children(rep)[0];
        std::vector<int> after;
        if (s.type(choice) == "sequence") {
            const auto parts = s.children(choice);
            choice = parts[0];
            after.assign(parts.begin() + 1, parts.end());
        }
        if (s.type(choice) != "choice") {
            continue;
        }
        std::map<std::string, int> by_name;
        for (int alt : s.children(choice)) {
            if (const auto arg = s.literal(alt, common_chat_peg_builder::TOOL_ARG_NAME)) {
                by_name[*arg] = alt;
            }
        }
        const auto required = tool->second["required"].get<std::vector<std::string>>();
        if (required.empty() ||
            !std::all_of(required.begin(), required.end(), [&](const std::string & r) { return by_name.count(r) > 0; })) {
            continue;
        }
        std::vector<int> sequence;
        for (const auto & [prop, _] : tool->second["properties"].items()) {
            const auto alt = by_name.find(prop);
            if (alt == by_name.end()) {
                continue;
            }
            std::vector<int> item = {alt->second};
            item.insert(item.end(), after.begin(), after.end());
            int node = item.size() == 1 ? alt->second : s.add(common_json{{"type", "sequence"}, {"children", item}});
            if (std::find(required.begin(), required.end(), prop) == required.end()) {
                node = s.add(common_json{{"type", "repetition"}, {"child", node}, {"min_count", 0}, {"max_count", 1}});
            }
            sequence.push_back(node);
        }
        s.at(rep) = common_json{{"type", "sequence"}, {"children", sequence}};
        changed = true;
    }
    return changed ? s.doc.dump() : serialized_parser;
}

}  // namespace cts
