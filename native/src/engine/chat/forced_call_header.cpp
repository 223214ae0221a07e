#include "forced_call_header.h"

#include "chat-peg-parser.h"
#include "peg_children.h"

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <utility>

namespace cts {

namespace {

constexpr int MAX_HEADER_TEXT = 64;

bool is_value_tag(const std::string & tag) {
    using B = common_chat_peg_builder;
    using M = common_chat_peg_minimax_m3_mapper;
    return tag == B::TOOL_ARG_VALUE || tag == B::TOOL_ARG_STRING_VALUE || tag == M::TOOL_ARG_OBJECT || tag == M::TOOL_ARG_ARRAY ||
           tag == M::TOOL_ARG_ITEM;
}

// The tags of a call's and an argument's header: its opening (recipient, name, attributes), id and closing.
bool is_header_tag(const std::string & tag) {
    using B = common_chat_peg_builder;
    return tag == B::TOOL_OPEN || tag == B::TOOL_CLOSE || tag == B::TOOL_ID || tag == B::TOOL_NAME || tag == B::TOOL_ARG_OPEN ||
           tag == B::TOOL_ARG_CLOSE || tag == B::TOOL_ARG_NAME;
}

// `until(delimiters)` as at most MAX_HEADER_TEXT characters that cannot begin a delimiter; false when a
// delimiter does not begin with an ASCII character (a char class of bytes would split a UTF-8 character).
bool bounded_until(const common_peg_until_parser & until, common_peg_chars_parser & out) {
    std::string pattern = "[^";
    out.ranges.clear();
    for (const auto & d : until.delimiters) {
        if (d.empty() || (unsigned char)d[0] >= 0x80) {
            return false;
        }
        if (std::string("\\]^-[").find(d[0]) != std::string::npos) {
            pattern += '\\';
        }
        pattern += d[0];
        out.ranges.push_back({(uint32_t)(unsigned char)d[0], (uint32_t)(unsigned char)d[0]});
    }
    out.pattern = pattern + "]";
    out.negated = true;
    out.min_count = 0;
    out.max_count = MAX_HEADER_TEXT;
    return !until.delimiters.empty();
}

}  // namespace

bool bound_header_text(common_peg_arena & arena) {
    bool bounded = false;
    std::set<std::pair<common_peg_parser_id, bool>> seen;
    // in_tool: inside a header
    std::function<void(common_peg_parser_id, bool)> visit = [&](common_peg_parser_id id, bool in_tool) {
        if (id == COMMON_PEG_INVALID_PARSER_ID || !seen.insert({id, in_tool}).second) {
            return;
        }
        auto & node = arena.get(id);
        if (const auto * tag = std::get_if<common_peg_tag_parser>(&node)) {
            if (is_value_tag(tag->tag)) {
                return;
            }
            // a call's arguments (a JSON object, a dict) are no header, but each argument's own opening is
            if (tag->tag == common_chat_peg_builder::TOOL_ARGS) {
                in_tool = false;
            } else if (tag->tag == common_chat_peg_builder::TOOL || tag->tag == common_chat_peg_builder::TOOL_ARG ||
                       is_header_tag(tag->tag)) {
                in_tool = true;
            }
        }
        if (in_tool) {
            if (auto * chars = std::get_if<common_peg_chars_parser>(&node); chars && chars->max_count < 0) {
                chars->max_count = std::max(chars->min_count, MAX_HEADER_TEXT);
                bounded = true;
                return;
            }
            if (const auto * until = std::get_if<common_peg_until_parser>(&node)) {
                common_peg_chars_parser chars;
                if (bounded_until(*until, chars)) {
                    node = chars;
                    bounded = true;
                }
                return;
            }
        }
        for (const auto child : peg_children(arena, node)) {
            visit(child, in_tool);
        }
    };
    visit(arena.root(), false);
    return bounded;
}

}  // namespace cts
