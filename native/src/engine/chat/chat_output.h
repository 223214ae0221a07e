// Model output → the assistant message, with llama.cpp's parser for the prompt's format (what llama-server
// does with a completion), and the per-request stream of it that the generation loop feeds (engine.h): the
// parser is loaded once per request, the output kept here as it grows, and a partial parse runs when its
// pacing allows (parse_pacing.h), giving only what it adds to what was sent.
#pragma once

#include "chat.h"
#include "chat_layer.h"
#include "message_tracker.h"
#include "parse_pacing.h"

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

// One chat completion's output: what it is so far and what has been sent of it. One thread uses it.
class ChatOutputStream {
public:
    explicit ChatOutputStream(const ChatPrompt & prompt) : parser_(prompt) {}

    // The output grows by `text`: when the pacing allows a parse now, what a partial parse of all of it adds
    // to what was sent; else nothing yet.
    std::vector<MessageDelta> append(const std::string & text);

    // The whole output once generation ended (`complete`: on its own, not cut off): what the final parse
    // adds. Output that breaks the format is read by a partial parse, as far as it goes.
    std::vector<MessageDelta> finish(const std::string & full_text, bool complete);

private:
    ChatOutputParser parser_;
    ParsePacing pacing_;
    std::string text_;
    MessageTracker tracker_;
};

}  // namespace cts
