// parse-pacing-tests: when a stream's next partial parse may run (parse_pacing.h), on hand-made times.
// test/unit/native/engineUnit.test.ts runs it; exit status 0 = pass.
#include "check.h"
#include "parse_pacing.h"

namespace {

using cts_test::check;

void no_wait_until_a_parse_sends_something() {
    cts::ParsePacing p;
    check(p.due(0), "the first parse runs at once");
    p.parsed(0, 10, false);
    check(p.due(10), "a parse that sent nothing (a tag that may be starting) makes the next one wait for nothing");
    p.parsed(10, 20, false);
    check(p.due(20), "still nothing sent, still no wait");
}

void after_a_delta_the_parses_keep_to_their_share() {
    cts::ParsePacing p;
    p.parsed(0, 10, true);
    check(!p.due(10), "after the first delta the next parse waits");
    check(!p.due(499.9), "49 times the 10 ms parse");
    check(p.due(500), "the parses so far (10 ms) are 2 % of the time");
    p.parsed(500, 502, false);
    check(!p.due(502) && p.due(600), "a parse that sent nothing still counts: 49 times 2 ms");
}

void no_more_often_than_30_frames_a_second() {
    cts::ParsePacing p;
    p.parsed(0, 0.1, true);
    check(!p.due(5) && !p.due(33.3), "a 0.1 ms parse would allow the next after 5 ms; a frame is 33.3 ms");
    check(p.due(33.34), "the next frame");
}

}  // namespace

int main() {
    no_wait_until_a_parse_sends_something();
    after_a_delta_the_parses_keep_to_their_share();
    no_more_often_than_30_frames_a_second();
    return cts_test::finish("parse pacing");
}
