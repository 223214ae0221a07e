#include "gbnf_rules.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

namespace cts {

namespace {

// A rule body's GBNF tokens: literals, char classes, repetition counts, names, ( ) | ? * +.
std::vector<std::string> gbnf_tokens(const std::string & body) {
    std::vector<std::string> tokens;
    for (size_t i = 0; i < body.size();) {
        const char c = body[i];
        size_t j = i + 1;
        if (c == ' ') {
            i++;
            continue;
        }
        if (c == '"' || c == '[') {
            const char close = c == '"' ? '"' : ']';
            while (j < body.size() && body[j] != close) {
                j += body[j] == '\\' ? 2 : 1;
            }
            j++;
        } else if (c == '{') {
            j = body.find('}', i) + 1;
        } else if (std::string("()|?*+").find(c) == std::string::npos) {
            while (j < body.size() && std::string(" \"[{()|?*+").find(body[j]) == std::string::npos) {
                j++;
            }
        }
        j = std::min(j, body.size());
        tokens.push_back(body.substr(i, j - i));
        i = j;
    }
    return tokens;
}

bool is_name(const std::string & token) {
    return !token.empty() && std::isalpha((unsigned char)token[0]);
}

std::string join_gbnf(const std::vector<std::string> & tokens) {
    std::string text;
    for (size_t i = 0; i < tokens.size(); i++) {
        const std::string & t = tokens[i];
        const bool glued = i == 0 || tokens[i - 1] == "(" || t == ")" || t == "?" || t == "*" || t == "+" || t[0] == '{';
        text += (glued ? "" : " ") + t;
    }
    return text;
}

}  // namespace

GbnfRules rules_of(const std::string & grammar) {
    GbnfRules rules;
    std::istringstream in(grammar);
    for (std::string line; std::getline(in, line);) {
        const size_t eq = line.find(" ::= ");
        if (eq != std::string::npos) {
            rules[line.substr(0, eq)] = line.substr(eq + 5);
        }
    }
    return rules;
}

std::optional<std::string> edit_rule(const std::string & before, const std::string & after, const std::string & orig) {
    if (before == orig) {
        return after;
    }
    const auto b = gbnf_tokens(before), a = gbnf_tokens(after), o = gbnf_tokens(orig);
    if (b.size() != o.size()) {
        return std::nullopt;
    }
    for (size_t i = 0; i < b.size(); i++) {
        if (b[i] != o[i] && !(is_name(b[i]) && is_name(o[i]))) {
            return std::nullopt;
        }
    }
    // lcs[i][j]: the longest common subsequence of b[i..] and a[j..]
    std::vector<std::vector<int>> lcs(b.size() + 1, std::vector<int>(a.size() + 1, 0));
    for (size_t i = b.size(); i-- > 0;) {
        for (size_t j = a.size(); j-- > 0;) {
            lcs[i][j] = b[i] == a[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
        }
    }
    std::vector<std::string> out;
    size_t i = 0, j = 0;
    while (j < a.size()) {
        if (i < b.size() && b[i] == a[j]) {
            out.push_back(o[i++]);
            j++;
        } else if (i < b.size() && lcs[i + 1][j] >= lcs[i][j + 1]) {
            i++;
        } else {
            out.push_back(a[j++]);
        }
    }
    return join_gbnf(out);
}

std::optional<std::string> repeated_group(const std::string & body) {
    const auto t = gbnf_tokens(body);
    if (t.size() < 4 || t.front() != "(" || t[t.size() - 2] != ")" || t.back() != "+") {
        return std::nullopt;
    }
    // the first parenthesis must close at the end, not earlier (`(a)+ (b)+`)
    int depth = 0;
    for (size_t i = 0; i + 2 < t.size(); i++) {
        depth += t[i] == "(" ? 1 : t[i] == ")" ? -1 : 0;
        if (depth == 0) {
            return std::nullopt;
        }
    }
    return join_gbnf(std::vector<std::string>(t.begin() + 1, t.end() - 2));
}

}  // namespace cts
