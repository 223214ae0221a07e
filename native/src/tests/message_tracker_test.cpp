// message-tracker-tests: what each parse of a growing output adds to what a stream has sent (the
// endpoint's stream deltas), on hand-made parses. test/unit/native/engineUnit.test.ts runs it; exit status
// 0 = pass.
#include "message_tracker.h"
#include "check.h"

#include <string>

namespace {

using cts_test::check;

using Kind = cts::MessageDelta::Kind;

cts::ParsedMessage parsed(const std::string & content, const std::string & reasoning = "", std::vector<cts::ToolCall> calls = {}) {
    cts::ParsedMessage m;
    m.content = content;
    m.reasoning_content = reasoning;
    m.tool_calls = std::move(calls);
    return m;
}

bool is(const cts::MessageDelta & d, Kind kind, const std::string & text) {
    return d.kind == kind && d.text == text;
}

void sends_what_each_parse_adds_in_order() {
    cts::MessageTracker t;
    auto d = t.update(parsed("", "hm"));
    check(d.size() == 1 && is(d[0], Kind::Reasoning, "hm"), "the first parse's reasoning");
    d = t.update(parsed("Hi", "hmm"));
    check(d.size() == 2 && is(d[0], Kind::Reasoning, "m") && is(d[1], Kind::Content, "Hi"), "reasoning, then content");
    check(t.update(parsed("Hi", "hmm")).empty(), "the same parse again adds nothing");
}

void never_takes_back_text() {
    cts::MessageTracker t;
    t.update(parsed("Hello <to"));
    check(t.update(parsed("Hello ")).empty(), "a parse that is not an extension sends nothing");
    auto d = t.update(parsed("Hello <tool"));
    check(d.size() == 1 && is(d[0], Kind::Content, "ol"), "what extends what was sent is sent");
}

void announces_a_call_once_named_then_its_arguments() {
    cts::MessageTracker t;
    check(t.update(parsed("", "", {{"", "", ""}})).empty(), "a call without a name is not announced");
    auto d = t.update(parsed("", "", {{"f", "{\"a\"", ""}}));
    check(d.size() == 1 && is(d[0], Kind::ToolCall, "{\"a\"") && d[0].start && d[0].index == 0 && d[0].name == "f" && d[0].id.empty(),
          "the call is announced with its name and arguments so far");
    d = t.update(parsed("", "", {{"f", "{\"a\": 1}", ""}, {"g", "{}", "own-id"}}));
    check(d.size() == 2, "two deltas");
    check(is(d[0], Kind::ToolCall, ": 1}") && !d[0].start && d[0].index == 0, "the first call's further arguments");
    check(is(d[1], Kind::ToolCall, "{}") && d[1].start && d[1].index == 1 && d[1].name == "g" && d[1].id == "own-id",
          "the second call, with the model's id");
}

void announces_calls_in_order() {
    cts::MessageTracker t;
    auto d = t.update(parsed("", "", {{"", "", ""}, {"g", "{}", ""}}));
    check(d.empty(), "a named call waits for the unnamed one before it");
}

}  // namespace

int main() {
    sends_what_each_parse_adds_in_order();
    never_takes_back_text();
    announces_a_call_once_named_then_its_arguments();
    announces_calls_in_order();
    return cts_test::finish("message tracker");
}
