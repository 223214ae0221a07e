#include "message_tracker.h"

namespace cts {

namespace {

bool extends(const std::string & next, const std::string & prev) {
    return next.size() > prev.size() && next.compare(0, prev.size(), prev) == 0;
}

}  // namespace

std::vector<MessageDelta> MessageTracker::update(const ParsedMessage & parsed) {
    std::vector<MessageDelta> out;
    const auto grow = [&](MessageDelta::Kind kind, std::string & sent, const std::string & next) {
        if (!extends(next, sent))
            return;
        MessageDelta d;
        d.kind = kind;
        d.text = next.substr(sent.size());
        out.push_back(std::move(d));
        sent = next;
    };
    grow(MessageDelta::Kind::Reasoning, sent_.reasoning_content, parsed.reasoning_content);
    grow(MessageDelta::Kind::Content, sent_.content, parsed.content);
    for (size_t i = 0; i < parsed.tool_calls.size(); i++) {
        const ToolCall & call = parsed.tool_calls[i];
        MessageDelta d;
        d.kind = MessageDelta::Kind::ToolCall;
        d.index = i;
        if (i == sent_.tool_calls.size()) {
            if (call.name.empty())
                break;
            sent_.tool_calls.push_back(call);
            d.id = call.id;
            d.name = call.name;
            d.text = call.arguments;
            d.start = true;
            out.push_back(std::move(d));
        } else if (extends(call.arguments, sent_.tool_calls[i].arguments)) {
            ToolCall & prev = sent_.tool_calls[i];
            d.text = call.arguments.substr(prev.arguments.size());
            out.push_back(std::move(d));
            prev.arguments = call.arguments;
        }
    }
    return out;
}

}  // namespace cts
