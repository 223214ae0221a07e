// Model output → the assistant message, with llama.cpp's parser for the prompt's format (what llama-server
// does with a completion), and the per-request stream of it: the parser is loaded once per request and the
// output kept here as it grows, so a wake-up hands over only the new text and gets back only the deltas.
#pragma once

#include "chat.h"
#include "chat_layer.h"
#include "message_tracker.h"

#include <mutex>
#include <string>
#include <vector>

namespace cts {

// llama.cpp's reasoning format by its name; an unknown name is a bad request.
common_reasoning_format reasoning_format_named(const std::string & name);

// The prompt's parser, loaded once.
class ChatOutputParser {
public:
    explicit ChatOutputParser(const ChatPrompt & prompt);
    ParsedMessage parse(const std::string & text, bool is_partial) const;

private:
    common_chat_parser_params params_;
    bool is_continuation_;
};

// The whole output at once (POST /chat/parse).
ParsedMessage parse_chat_output(const std::string & text, bool is_partial, const ChatPrompt & prompt);

// One streamed chat completion: the output so far and what has been sent of it. Calls are serialized.
class ChatOutputStream {
public:
    explicit ChatOutputStream(const ChatPrompt & prompt) : parser_(prompt) {}

    // The output grows by `text`: what a partial parse of all of it adds to what was sent.
    std::vector<MessageDelta> append(const std::string & text);

    // The whole output once generation ended (`complete`: on its own, not cut off): what the final parse
    // adds. Output that breaks the format is read by a partial parse, as far as it goes.
    std::vector<MessageDelta> finish(const std::string & full_text, bool complete);

private:
    ChatOutputParser parser_;
    std::mutex mutex_;
    std::string text_;
    MessageTracker tracker_;
};

}  // namespace cts
