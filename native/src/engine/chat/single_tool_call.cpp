#include "single_tool_call.h"

#include "gbnf_rules.h"

#include <sstream>

namespace cts {

std::string single_tool_call_grammar(const std::string & grammar) {
    static const std::string head = "tool-calls ::= ";
    std::istringstream in(grammar);
    std::string out;
    bool held = false;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(head, 0) == 0) {
            if (const auto once = repeated_group(line.substr(head.size()))) {
                line = head + *once;
                held = true;
            }
        }
        out += line + "\n";
    }
    return held ? out : grammar;
}

}  // namespace cts
