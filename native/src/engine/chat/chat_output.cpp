#include "chat_output.h"

#include "errors.h"

#include <chrono>

namespace cts {

common_reasoning_format reasoning_format_named(const std::string & name) {
    try {
        return common_reasoning_format_from_name(name);
    } catch (const std::runtime_error &) {
        throw EngineError(ErrorCode::InvalidArgument,
                          "reasoning_format must be \"none\", \"auto\", \"deepseek\" or \"deepseek-legacy\", got \"" + name + "\"");
    }
}

ChatOutputParser::ChatOutputParser(const ChatPrompt & prompt) : is_continuation_(prompt.is_continuation) {
    params_.format = (common_chat_format)prompt.format_id;
    params_.generation_prompt = prompt.generation_prompt;
    params_.reasoning_format = reasoning_format_named(prompt.reasoning_format.empty() ? "deepseek" : prompt.reasoning_format);
    params_.is_continuation = prompt.is_continuation;
    try {
        if (!prompt.parser.empty()) {
            params_.parser.load(prompt.parser);
        }
    } catch (const std::exception & e) {
        throw EngineError(ErrorCode::InvalidArgument, std::string("chat parser state is not valid: ") + e.what());
    }
}

ParsedMessage ChatOutputParser::parse(const std::string & text, bool is_partial) const {
    common_chat_msg msg;
    try {
        msg = common_chat_parse(text, is_partial, params_);
        if (is_continuation_) {
            // generation_prompt ends with the prefilled text, so the parser reads it as the start of the
            // message. llama-server streams a continuation as deltas from the parse of no output
            // (task_result_state, echo off): the prefill is the client's own text, not the model's.
            const auto written = common_chat_msg_diff::compute_diffs(common_chat_parse("", true, params_), msg);
            msg.content.clear();
            msg.reasoning_content.clear();
            for (const auto & d : written) {
                msg.content += d.content_delta;
                msg.reasoning_content += d.reasoning_content_delta;
            }
        }
    } catch (const std::exception & e) {
        throw EngineError(ErrorCode::Template, std::string("model output does not parse: ") + e.what());
    }
    ParsedMessage out;
    out.content = msg.content;
    out.reasoning_content = msg.reasoning_content;
    for (const auto & tc : msg.tool_calls) {
        out.tool_calls.push_back({tc.name, tc.arguments, tc.id});
    }
    return out;
}

ParsedMessage parse_chat_output(const std::string & text, bool is_partial, const ChatPrompt & prompt) {
    return ChatOutputParser(prompt).parse(text, is_partial);
}

namespace {

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::vector<MessageDelta> ChatOutputStream::append(const std::string & text) {
    text_ += text;
    const double started = now_ms();
    if (!pacing_.due(started)) {
        return {};
    }
    auto deltas = tracker_.update(parser_.parse(text_, true));
    pacing_.parsed(started, now_ms(), !deltas.empty());
    return deltas;
}

std::vector<MessageDelta> ChatOutputStream::finish(const std::string & full_text, bool complete) {
    text_ = full_text;
    if (complete) {
        try {
            return tracker_.update(parser_.parse(text_, false));
        } catch (const EngineError &) {
            // the model broke the format: what a partial parse makes of it is all there is
        }
    }
    return tracker_.update(parser_.parse(text_, true));
}

}  // namespace cts
