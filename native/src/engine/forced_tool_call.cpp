#include "forced_tool_call.h"

#include "chat-peg-parser.h"
#include "json-schema-to-grammar.h"
#include "peg-parser.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <type_traits>

namespace cts {

namespace {

bool starts_with(const std::string & s, const char * prefix) { return s.rfind(prefix, 0) == 0; }

// Replaces the tagged parsers reachable from the root, outside tool calls, by epsilon.
bool drop_tagged(common_peg_arena & arena, const std::set<std::string> & tags) {
    bool dropped = false;
    std::set<common_peg_parser_id> seen;
    std::function<void(common_peg_parser_id)> visit = [&](common_peg_parser_id id) {
        if (id == COMMON_PEG_INVALID_PARSER_ID || !seen.insert(id).second) {
            return;
        }
        auto & node = arena.get(id);
        if (const auto * tag = std::get_if<common_peg_tag_parser>(&node)) {
            if (tags.count(tag->tag)) {
                node    = common_peg_epsilon_parser{};
                dropped = true;
                return;
            }
            if (starts_with(tag->tag, common_chat_peg_builder::TOOL)) {
                return;
            }
        }
        std::visit(
            [&](auto & p) {
                using T = std::decay_t<decltype(p)>;
                if constexpr (std::is_same_v<T, common_peg_sequence_parser> || std::is_same_v<T, common_peg_choice_parser>) {
                    const auto children = p.children;
                    for (auto child : children) {
                        visit(child);
                    }
                } else if constexpr (std::is_same_v<T, common_peg_ref_parser>) {
                    visit(arena.get_rule(p.name));
                } else if constexpr (std::is_same_v<T, common_peg_repetition_parser> || std::is_same_v<T, common_peg_and_parser> ||
                                     std::is_same_v<T, common_peg_not_parser> || std::is_same_v<T, common_peg_tag_parser> ||
                                     std::is_same_v<T, common_peg_atomic_parser> || std::is_same_v<T, common_peg_rule_parser> ||
                                     std::is_same_v<T, common_peg_ac_parser>) {
                    visit(p.child);
                }
                // schema and gbnf parsers constrain arguments or a response format, not message text
            },
            node);
    };
    visit(arena.root());
    return dropped;
}

// Turns what now matches only the empty string into epsilon, so the grammar has no `?` or `*` of nothing
// (llama.cpp prints an empty child's quantifier on its own).
void collapse_empty(common_peg_arena & arena) {
    auto empty = [&](common_peg_parser_id id) { return std::holds_alternative<common_peg_epsilon_parser>(arena.get(id)); };
    for (bool changed = true; changed;) {
        changed = false;
        for (common_peg_parser_id id = 0; id < (common_peg_parser_id) arena.size(); id++) {
            auto & node      = arena.get(id);
            bool   now_empty = false;
            if (const auto * r = std::get_if<common_peg_repetition_parser>(&node)) {
                now_empty = empty(r->child);
            } else if (const auto * t = std::get_if<common_peg_tag_parser>(&node)) {
                now_empty = empty(t->child);
            } else if (const auto * a = std::get_if<common_peg_atomic_parser>(&node)) {
                now_empty = empty(a->child);
            } else if (const auto * s = std::get_if<common_peg_sequence_parser>(&node)) {
                now_empty = !s->children.empty() && std::all_of(s->children.begin(), s->children.end(), empty);
            }
            if (now_empty) {
                node    = common_peg_epsilon_parser{};
                changed = true;
            }
        }
    }
}

// GBNF as llama.cpp's builder writes it: one `name ::= body` per line, names in order.
using Rules = std::map<std::string, std::string>;

Rules rules_of(const std::string & grammar) {
    Rules rules;
    std::istringstream in(grammar);
    for (std::string line; std::getline(in, line);) {
        const size_t eq = line.find(" ::= ");
        if (eq != std::string::npos) {
            rules[line.substr(0, eq)] = line.substr(eq + 5);
        }
    }
    return rules;
}

std::string grammar_of(const common_peg_arena & arena) {
    return build_grammar([&](const common_grammar_builder & builder) { arena.build_grammar(builder, false); });
}

}  // namespace

std::string forced_call_grammar(const std::string & grammar, const std::string & serialized_parser, bool keep_reasoning) {
    if (serialized_parser.empty()) {
        return grammar;
    }
    common_peg_arena arena;
    arena.load(serialized_parser);
    const Rules before = rules_of(grammar_of(arena));
    std::set<std::string> tags = { common_chat_peg_builder::CONTENT };
    if (!keep_reasoning) {
        tags.insert(common_chat_peg_builder::REASONING);
        tags.insert(common_chat_peg_builder::REASONING_BLOCK);
    }
    if (!drop_tagged(arena, tags)) {
        return grammar;
    }
    collapse_empty(arena);
    const Rules after = rules_of(grammar_of(arena));
    Rules out = rules_of(grammar);
    // the reloaded parser writes the same rules as llama.cpp's, but for the schemas it lost
    for (const auto & [name, body] : before) {
        const auto now = after.find(name);
        if (now != after.end() && now->second == body) {
            continue;
        }
        const auto orig = out.find(name);
        if (orig == out.end() || orig->second != body) {
            return grammar;
        }
        if (now == after.end()) {
            out.erase(orig);
        } else {
            orig->second = now->second;
        }
    }
    for (const auto & [name, body] : after) {
        if (!before.count(name)) {
            out[name] = body;
        }
    }
    std::string text;
    for (const auto & [name, body] : out) {
        text += name + " ::= " + body + "\n";
    }
    return text;
}

}  // namespace cts
