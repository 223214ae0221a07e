// What each parse of a growing model output adds to what a stream has already sent. Nothing sent is ever
// taken back: text that is not an extension of what was sent waits until it is one, and a tool call is
// announced once its name is complete, calls in order. Pure bookkeeping (no llama.cpp), unit-tested.
#pragma once

#include "chat_layer.h"

#include <string>
#include <vector>

namespace cts {

struct MessageDelta {
    enum class Kind { Reasoning, Content, ToolCall };
    Kind kind = Kind::Content;
    std::string text;  // reasoning, content, or the call's further arguments
    // tool calls: `start` is the call's first delta, the only one with its name and the model's id ("" if
    // it gave none)
    size_t index = 0;
    std::string id, name;
    bool start = false;
};

class MessageTracker {
public:
    std::vector<MessageDelta> update(const ParsedMessage & parsed);

private:
    ParsedMessage sent_;
};

}  // namespace cts
