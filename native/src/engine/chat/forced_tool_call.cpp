#include "forced_tool_call.h"

#include "chat-peg-parser.h"
#include "forced_call_arguments.h"
#include "forced_call_header.h"
#include "gbnf_rules.h"
#include "json-schema-to-grammar.h"
#include "peg_children.h"
#include "peg-parser.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace cts {

namespace {

bool starts_with(const std::string & s, const char * prefix) {
    return s.rfind(prefix, 0) == 0;
}

// Replaces the tagged parsers reachable from the root, outside tool calls, by what `replacement` gives for
// their tag (epsilon: nothing, or a literal).
bool replace_tagged(common_peg_arena & arena, const std::map<std::string, std::string> & replacement) {
    bool replaced = false;
    std::set<common_peg_parser_id> seen;
    std::function<void(common_peg_parser_id)> visit = [&](common_peg_parser_id id) {
        if (id == COMMON_PEG_INVALID_PARSER_ID || !seen.insert(id).second) {
            return;
        }
        auto & node = arena.get(id);
        if (const auto * tag = std::get_if<common_peg_tag_parser>(&node)) {
            const auto r = replacement.find(tag->tag);
            if (r != replacement.end()) {
                if (r->second.empty()) {
                    node = common_peg_epsilon_parser{};
                } else {
                    node = common_peg_literal_parser{r->second};
                }
                replaced = true;
                return;
            }
            if (starts_with(tag->tag, common_chat_peg_builder::TOOL)) {
                return;
            }
        }
        for (const auto child : peg_children(arena, node)) {
            visit(child);
        }
    };
    visit(arena.root());
    return replaced;
}

// After the reasoning that `replace_tagged` held to the prompt's text (a literal now), an optional end tag
// becomes required.
void require_end_tag(common_peg_arena & arena, const std::vector<std::string> & end_tags) {
    for (common_peg_parser_id id = 0; id < (common_peg_parser_id)arena.size(); id++) {
        const auto * seq = std::get_if<common_peg_sequence_parser>(&arena.get(id));
        if (!seq) {
            continue;
        }
        const auto children = seq->children;
        for (size_t i = 0; i + 1 < children.size(); i++) {
            auto * opt = std::get_if<common_peg_repetition_parser>(&arena.get(children[i + 1]));
            const bool after_reasoning = std::holds_alternative<common_peg_literal_parser>(arena.get(children[i])) ||
                                         std::holds_alternative<common_peg_epsilon_parser>(arena.get(children[i]));
            if (!after_reasoning || !opt || opt->min_count != 0 || opt->max_count != 1) {
                continue;
            }
            const auto * end = std::get_if<common_peg_literal_parser>(&arena.get(opt->child));
            if (end && std::find(end_tags.begin(), end_tags.end(), end->literal) != end_tags.end()) {
                opt->min_count = 1;
            }
        }
    }
}

// Turns what now matches only the empty string into epsilon, so the grammar has no `?` or `*` of nothing
// (llama.cpp prints an empty child's quantifier on its own).
void collapse_empty(common_peg_arena & arena) {
    auto empty = [&](common_peg_parser_id id) { return std::holds_alternative<common_peg_epsilon_parser>(arena.get(id)); };
    for (bool changed = true; changed;) {
        changed = false;
        for (common_peg_parser_id id = 0; id < (common_peg_parser_id)arena.size(); id++) {
            auto & node = arena.get(id);
            bool now_empty = false;
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
                node = common_peg_epsilon_parser{};
                changed = true;
            }
        }
    }
}

std::string grammar_of(const common_peg_arena & arena) {
    return build_grammar([&](const common_grammar_builder & builder) { arena.build_grammar(builder, false); });
}

}  // namespace

std::string forced_call_grammar(const std::string & grammar, const std::string & serialized_parser, const ForcedReasoning & reasoning,
                                const std::map<std::string, common_json> & tools) {
    if (serialized_parser.empty()) {
        return grammar;
    }
    const GbnfRules before = [&] {
        common_peg_arena original;
        original.load(serialized_parser);
        return rules_of(grammar_of(original));
    }();
    common_peg_arena arena;
    const std::string required = require_arguments(serialized_parser, tools);
    arena.load(required);
    std::map<std::string, std::string> replacement = {{common_chat_peg_builder::CONTENT, ""}};
    if (reasoning.opened) {
        // the block's tags stay: the generation prompt holds its opening, the model writes its end
        replacement[common_chat_peg_builder::REASONING] = reasoning.opened_text;
    } else if (!reasoning.keep) {
        replacement[common_chat_peg_builder::REASONING] = "";
        replacement[common_chat_peg_builder::REASONING_BLOCK] = "";
    }
    const bool replaced = replace_tagged(arena, replacement);
    if (reasoning.opened) {
        require_end_tag(arena, reasoning.end_tags);
    }
    const bool bounded = bound_header_text(arena);
    const auto held = hold_arguments(arena, tools);
    const auto rules_held = held_rules(held);
    if (!rules_held) {
        return grammar;
    }
    if (!replaced && !bounded && held.empty() && required == serialized_parser) {
        return grammar;
    }
    collapse_empty(arena);
    const GbnfRules after = rules_of(grammar_of(arena));
    GbnfRules out = rules_of(grammar);
    for (const auto & [name, body] : before) {
        const auto now = after.find(name);
        if (now != after.end() && now->second == body) {
            continue;
        }
        const auto orig = out.find(name);
        if (orig == out.end()) {
            return grammar;
        }
        if (now == after.end()) {
            if (orig->second != body) {
                return grammar;
            }
            out.erase(orig);
            continue;
        }
        const auto edited = edit_rule(body, now->second, orig->second);
        if (!edited) {
            return grammar;
        }
        orig->second = *edited;
    }
    for (const auto & [name, body] : after) {
        if (!before.count(name)) {
            out[name] = body;
        }
    }
    for (const auto & [name, body] : rules_of(*rules_held)) {
        const auto [at, added] = out.insert({name, body});
        if (!added && at->second != body) {
            return grammar;
        }
    }
    std::string text;
    for (const auto & [name, body] : out) {
        text += name + " ::= " + body + "\n";
    }
    return text;
}

}  // namespace cts
