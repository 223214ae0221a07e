// llama.cpp's own chat layer (common/chat.h): the prompt llama-server builds for an OpenAI-style chat
// request, the grammar and stops that go with it, parsing model output back into content, reasoning and
// tool calls, the template's inferred capabilities, and plain rendering with its Jinja engine.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct llama_model;
struct common_chat_templates;

namespace cts {

struct GrammarTrigger {
    std::string type;  // "token", "word", "pattern", "pattern_full"
    std::string value;
};

// Everything llama-server derives from a chat request besides the prompt text.
struct ChatPrompt {
    std::string prompt;
    std::string format;  // common_chat_format_name
    int format_id = 0;
    std::string grammar;
    std::string grammar_kind;  // "tool_calls", "output_format", "user" or "" (none)
    bool grammar_lazy = false;
    std::vector<GrammarTrigger> grammar_triggers;
    std::vector<std::string> preserved_tokens;
    std::vector<std::string> additional_stops;
    std::string generation_prompt;
    std::string parser;  // serialized PEG parser (chat_output.h)
    std::string reasoning_format;
    bool is_continuation = false;
    bool supports_thinking = false;
    std::string thinking_start_tag;
    std::vector<std::string> thinking_end_tags;
};

struct ToolCall {
    std::string name;
    std::string arguments;
    std::string id;
};

struct ParsedMessage {
    std::string content;
    std::string reasoning_content;
    std::vector<ToolCall> tool_calls;
};

// A template as llama.cpp would serve it. Built from a loaded model (its GGUF template, unless an
// override is given) or from template text alone with explicit bos/eos token text.
class ChatTemplates {
public:
    ChatTemplates(const llama_model * model, const std::string & override_source, const std::string & bos, const std::string & eos);
    ~ChatTemplates();

    // request_json: the fields of an OpenAI chat-completions body that shape the prompt (messages, tools,
    // tool_choice, parallel_tool_calls, response_format/json_schema, grammar, add_generation_prompt,
    // continue_final_message, chat_template_kwargs, reasoning_format, reasoning_effort, enable_thinking).
    ChatPrompt apply(const std::string & request_json);

    // What apply() hands llama.cpp's chat layer for this request, as JSON, so that the template can be run
    // under limits first: the messages and tools as common/chat serializes them, add_generation_prompt,
    // whether the last message is continued, enable_thinking and chat_template_kwargs (parsed).
    std::string template_inputs(const std::string & request_json);

    std::map<std::string, bool> caps();
    std::string source();

private:
    struct Request;
    Request request(const std::string & request_json);  // llama-server's checks; the inputs apply() renders
    bool supports_thinking();
    void init();
    std::string parsed_source() const;  // the text common_chat_templates_init parses

    const llama_model * model_;
    std::string override_, bos_, eos_;
    // running a template can rearrange its syntax tree when it throws, so calls are serialized and the
    // templates are rebuilt after a failure
    std::mutex mutex_;
    std::unique_ptr<common_chat_templates, void (*)(common_chat_templates *)> tmpls_;
    // common_chat_templates_support_enable_thinking renders a fixed conversation: the same answer every time
    std::optional<bool> thinking_;
};

// Renders template text with a JSON object of variables through llama.cpp's Jinja engine (common/jinja).
std::string render_jinja(const std::string & source, const std::string & context_json);

}  // namespace cts
