#include "peg_children.h"

#include <type_traits>
#include <variant>

namespace cts {

std::vector<common_peg_parser_id> peg_children(const common_peg_arena & arena, const common_peg_parser_variant & node) {
    return std::visit(
        [&](const auto & p) -> std::vector<common_peg_parser_id> {
            using T = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<T, common_peg_sequence_parser> || std::is_same_v<T, common_peg_choice_parser>) {
                return p.children;
            } else if constexpr (std::is_same_v<T, common_peg_ref_parser>) {
                return {arena.get_rule(p.name)};
            } else if constexpr (std::is_same_v<T, common_peg_repetition_parser> || std::is_same_v<T, common_peg_and_parser> ||
                                 std::is_same_v<T, common_peg_not_parser> || std::is_same_v<T, common_peg_tag_parser> ||
                                 std::is_same_v<T, common_peg_atomic_parser> || std::is_same_v<T, common_peg_rule_parser> ||
                                 std::is_same_v<T, common_peg_ac_parser>) {
                return {p.child};
            } else {
                return {};
            }
        },
        node);
}

}  // namespace cts
