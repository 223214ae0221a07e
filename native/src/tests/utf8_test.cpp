// utf8-tests: model output's ill-formed UTF-8 read as JavaScript reads it (utf8.h), on hand-made bytes.
// test/unit/native/engineUnit.test.ts runs it; exit status 0 = pass.
#include "check.h"
#include "utf8.h"

namespace {

using cts_test::check;

const std::string R = "\xEF\xBF\xBD";

void keeps_well_formed_text() {
    const std::string text = "abc \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80";
    check(cts::well_formed_utf8(text) == text, "ASCII, 2-, 3- and 4-byte characters stay as they are");
}

void replaces_each_maximal_subpart() {
    check(cts::well_formed_utf8("a\x80"
                                "b") == "a" + R + "b",
          "a lone continuation byte");
    check(cts::well_formed_utf8("\xE2\x82"
                                "b") == R + "b",
          "a truncated sequence is one replacement");
    check(cts::well_formed_utf8("\xE2\x82") == R, "truncated at the end");
    check(cts::well_formed_utf8("\xC0\xAF") == R + R, "C0 starts nothing: each byte on its own");
    check(cts::well_formed_utf8("\xED\xA0\x80") == R + R + R, "a surrogate: the lead byte, then each continuation");
    check(cts::well_formed_utf8("\xF4\x90\x80\x80") == R + R + R + R, "past U+10FFFF");
    check(cts::well_formed_utf8("\xF0\x9F\x98"
                                "\xF0\x9F\x98\x80") == R + "\xF0\x9F\x98\x80",
          "a cut sequence before a whole one");
}

}  // namespace

int main() {
    keeps_well_formed_text();
    replaces_each_maximal_subpart();
    return cts_test::finish("utf8");
}
