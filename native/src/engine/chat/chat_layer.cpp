#include "chat_layer.h"

#include "chat_output.h"
#include "errors.h"
#include "forced_tool_call.h"
#include "single_tool_call.h"

#include "chat.h"
#include "jinja/parser.h"
#include "jinja/runtime.h"
#include "jinja/value.h"
#include "json.h"
#include "llama.h"

#include <type_traits>

namespace cts {

namespace {

const char * trigger_type_name(common_grammar_trigger_type t) {
    switch (t) {
        case COMMON_GRAMMAR_TRIGGER_TYPE_TOKEN:
            return "token";
        case COMMON_GRAMMAR_TRIGGER_TYPE_WORD:
            return "word";
        case COMMON_GRAMMAR_TRIGGER_TYPE_PATTERN:
            return "pattern";
        case COMMON_GRAMMAR_TRIGGER_TYPE_PATTERN_FULL:
            return "pattern_full";
    }
    return "word";
}

[[noreturn]] void bad_request(const std::string & why) {
    throw EngineError(ErrorCode::InvalidArgument, why);
}

// obj[key] as a string or boolean, `def` when absent or null; common_json's own type error names neither
// the field nor the type wanted.
template <typename T>
T field(const common_json & obj, const std::string & key, T def, const std::string & where = "") {
    if (!obj.is_object() || !obj.contains(key) || obj.at(key).is_null()) {
        return def;
    }
    const common_json & v = obj.at(key);
    constexpr bool is_bool = std::is_same<T, bool>::value;
    if (is_bool ? !v.is_boolean() : !v.is_string()) {
        bad_request("'" + where + key + "' must be " + (is_bool ? "a boolean" : "a string"));
    }
    return v.get<T>();
}

// Why template text does not parse, in llama.cpp's words: its lexer and parser exceptions carry the
// position (a caret under the source), the parser's plain runtime errors only the message.
std::string parse_error(const std::string & source) {
    try {
        jinja::lexer lexer;
        jinja::parse_from_tokens(lexer.tokenize(source));
    } catch (const std::exception & e) {
        return e.what();
    }
    return "";
}

// tool_choice as OpenAI sends it: "auto" | "none" | "required" | {"type": "function", "function": {"name"}}.
// A named choice keeps only that tool and requires a call, which llama.cpp enforces with its grammar.
common_chat_tool_choice resolve_tool_choice(const common_json & body, common_json & tools) {
    if (!body.contains("tool_choice") || body.at("tool_choice").is_null()) {
        return COMMON_CHAT_TOOL_CHOICE_AUTO;
    }
    const common_json & choice = body.at("tool_choice");
    if (choice.is_string()) {
        const std::string s = choice.get<std::string>();
        if (s != "auto" && s != "none" && s != "required") {
            bad_request("tool_choice must be \"auto\", \"none\", \"required\" or a named function, got \"" + s + "\"");
        }
        return common_chat_tool_choice_parse_oaicompat(s);
    }
    const std::string name = choice.is_object() && choice.contains("function")
                                 ? field<std::string>(choice.at("function"), "name", "", "tool_choice.function.")
                                 : std::string();
    if (name.empty()) {
        bad_request("tool_choice object must be {\"type\": \"function\", \"function\": {\"name\": NAME}}");
    }
    common_json kept = common_json::array();
    for (size_t i = 0; tools.is_array() && i < tools.size(); i++) {
        const common_json & t = tools.at(i);
        if (t.contains("function") &&
            field<std::string>(t.at("function"), "name", "", "tools[" + std::to_string(i) + "].function.") == name) {
            kept.push_back(t);
        }
    }
    if (kept.empty()) {
        bad_request("tool_choice names function \"" + name + "\", which is not in tools");
    }
    tools = kept;
    return COMMON_CHAT_TOOL_CHOICE_REQUIRED;
}

// The same checks llama-server makes before templating (server-common.cpp, oaicompat_chat_params_parse).
void check_messages(const common_json & messages) {
    if (!messages.is_array()) {
        bad_request("'messages' must be an array");
    }
    for (size_t i = 0; i < messages.size(); i++) {
        const common_json & msg = messages.at(i);
        if (!msg.is_object()) {
            bad_request("messages[" + std::to_string(i) + "] must be an object");
        }
        const std::string role = field<std::string>(msg, "role", "", "messages[" + std::to_string(i) + "].");
        if (role != "assistant" && !msg.contains("content")) {
            bad_request("messages[" + std::to_string(i) + "]: all non-assistant messages must contain 'content'");
        }
        if (role == "assistant" && !msg.contains("content") && !msg.contains("tool_calls")) {
            bad_request("messages[" + std::to_string(i) + "]: an assistant message must contain 'content' or 'tool_calls'");
        }
        if (!msg.contains("content")) {
            continue;
        }
        const common_json & content = msg.at("content");
        if (content.is_string() || content.is_null()) {
            continue;
        }
        if (!content.is_array()) {
            bad_request("messages[" + std::to_string(i) + "].content must be a string or an array");
        }
        for (size_t j = 0; j < content.size(); j++) {
            if (field<std::string>(content.at(j), "type", "", "messages[" + std::to_string(i) + "].content[" + std::to_string(j) + "].") !=
                "text") {
                bad_request("messages[" + std::to_string(i) + "].content[" + std::to_string(j) + "]: only text parts are supported");
            }
        }
    }
}

}  // namespace

ChatTemplates::ChatTemplates(const llama_model * model, const std::string & override_source, const std::string & bos,
                             const std::string & eos)
    : model_(model), override_(override_source), bos_(bos), eos_(eos), tmpls_(nullptr, common_chat_templates_free) {
    init();
}

ChatTemplates::~ChatTemplates() = default;

void ChatTemplates::init() {
    if (model_ == nullptr && override_.empty()) {
        throw EngineError(ErrorCode::InvalidArgument, "a chat template needs a model or template text");
    }
    try {
        tmpls_.reset(common_chat_templates_init(model_, override_, bos_, eos_).release());
    } catch (const std::exception & e) {
        // common_chat_templates_init logs the parse error and rethrows a copy sliced to std::exception
        // (`throw e;`), whose message is just "std::exception": parse the same text again for the real one
        const std::string why = parse_error(parsed_source());
        throw EngineError(ErrorCode::Template, "chat template does not parse: " + (why.empty() ? std::string(e.what()) : why));
    }
}

std::string ChatTemplates::parsed_source() const {
    if (!override_.empty()) {
        return override_;
    }
    // common_chat_templates_init's choice: the default template, else its tool_use variant (else ChatML, which parses)
    const char * own = llama_model_chat_template(model_, nullptr);
    if (own == nullptr || std::string(own).empty() || std::string(own) == "chatml") {
        own = llama_model_chat_template(model_, "tool_use");
    }
    return own ? own : "";
}

std::map<std::string, bool> ChatTemplates::caps() {
    std::lock_guard<std::mutex> lock(mutex_);
    return common_chat_templates_get_caps(tmpls_.get());
}

std::string ChatTemplates::source() {
    std::lock_guard<std::mutex> lock(mutex_);
    return common_chat_templates_source(tmpls_.get());
}

struct ChatTemplates::Request {
    common_chat_templates_inputs inputs;
    std::string reasoning_format;
};

bool ChatTemplates::supports_thinking() {
    if (!thinking_) {
        try {
            thinking_ = common_chat_templates_support_enable_thinking(tmpls_.get());
        } catch (const std::exception & e) {
            const std::string what = e.what();
            init();
            throw EngineError(ErrorCode::Template, "chat template failed: " + what);
        }
    }
    return *thinking_;
}

ChatTemplates::Request ChatTemplates::request(const std::string & request_json) {
    common_json body = common_json::parse_no_throw(request_json);
    if (body.is_discarded() || !body.is_object()) {
        bad_request("chat request must be a JSON object");
    }
    if (!body.contains("messages")) {
        bad_request("'messages' is required");
    }
    const common_json & messages = body.at("messages");
    check_messages(messages);

    common_json tools = body.value("tools", common_json());
    if (!tools.is_null() && !tools.is_array()) {
        bad_request("'tools' must be an array");
    }
    const common_chat_tool_choice tool_choice = resolve_tool_choice(body, tools);

    common_json json_schema = body.value("json_schema", common_json());
    const std::string grammar = body.contains("grammar") && body.at("grammar").is_string() ? body.at("grammar").get<std::string>() : "";
    if (!json_schema.is_null() && !grammar.empty()) {
        bad_request("cannot use both json_schema and grammar");
    }
    if (body.contains("response_format") && body.at("response_format").is_object()) {
        const common_json & rf = body.at("response_format");
        const std::string type = field<std::string>(rf, "type", "", "response_format.");
        if (type == "json_object") {
            json_schema = rf.value("schema", common_json::object());
        } else if (type == "json_schema") {
            json_schema = rf.value("json_schema", common_json::object()).value("schema", common_json::object());
        } else if (!type.empty() && type != "text") {
            bad_request("response_format type must be \"text\", \"json_object\" or \"json_schema\", got \"" + type + "\"");
        }
    }
    // llama-server: an absent or empty schema means any object
    if (json_schema.is_object() && json_schema.empty()) {
        json_schema["type"] = "object";
    }

    const auto caps = common_chat_templates_get_caps(tmpls_.get());
    common_chat_templates_inputs inputs;
    try {
        inputs.messages = common_chat_msgs_parse_oaicompat(messages);
        inputs.tools = tools.is_array() ? common_chat_tools_parse_oaicompat(tools) : std::vector<common_chat_tool>();
    } catch (const EngineError &) {
        throw;
    } catch (const std::exception & e) {
        bad_request(e.what());
    }
    inputs.tool_choice = tool_choice;
    inputs.json_schema = json_schema.is_null() ? "" : json_schema.dump(-1);
    inputs.grammar = grammar;
    inputs.parallel_tool_calls = field(body, "parallel_tool_calls", caps.at("supports_parallel_tool_calls"));
    inputs.add_generation_prompt = field(body, "add_generation_prompt", true);
    inputs.continue_final_message = body.contains("continue_final_message")
                                        ? common_chat_continuation_parse(body.at("continue_final_message"))
                                        : COMMON_CHAT_CONTINUATION_NONE;
    // llama-server's default --prefill-assistant: a trailing assistant message is continued, not closed
    if (inputs.continue_final_message == COMMON_CHAT_CONTINUATION_NONE && !inputs.messages.empty() &&
        inputs.messages.back().role == "assistant") {
        if (inputs.messages.size() >= 2 && inputs.messages[inputs.messages.size() - 2].role == "assistant") {
            bad_request("cannot have 2 or more assistant messages at the end of the list");
        }
        inputs.continue_final_message = COMMON_CHAT_CONTINUATION_AUTO;
        inputs.add_generation_prompt = false;
    }
    if (inputs.continue_final_message != COMMON_CHAT_CONTINUATION_NONE && inputs.add_generation_prompt) {
        bad_request("cannot set both add_generation_prompt and continue_final_message");
    }
    if (inputs.continue_final_message != COMMON_CHAT_CONTINUATION_NONE && !inputs.messages.empty() &&
        inputs.messages.back().role == "assistant" && !inputs.messages.back().tool_calls.empty()) {
        bad_request("cannot continue an assistant message that contains tool calls");
    }
    const std::string reasoning_format = field<std::string>(body, "reasoning_format", "deepseek");
    inputs.reasoning_format = reasoning_format_named(reasoning_format);
    // llama-server's default: think when the template can (finding out renders the template)
    inputs.enable_thinking = supports_thinking();
    if (!inputs.tools.empty() && inputs.tool_choice != COMMON_CHAT_TOOL_CHOICE_NONE && !grammar.empty()) {
        bad_request("cannot use a custom grammar together with tools");
    }
    // llama-server's startup default (common_params_parse): the request's kwargs are merged over it
    inputs.chat_template_kwargs["preserve_reasoning"] = "true";
    if (body.contains("chat_template_kwargs")) {
        const common_json & kwargs = body.at("chat_template_kwargs");
        if (!kwargs.is_object()) {
            bad_request("chat_template_kwargs must be an object");
        }
        for (const auto & item : kwargs.items()) {
            inputs.chat_template_kwargs[item.key()] = item.value().dump(-1);
        }
    }
    if (body.contains("enable_thinking") && body.at("enable_thinking").is_boolean()) {
        inputs.chat_template_kwargs["enable_thinking"] = body.at("enable_thinking").get<bool>() ? "true" : "false";
    }
    const auto thinking = inputs.chat_template_kwargs.find("enable_thinking");
    if (thinking != inputs.chat_template_kwargs.end()) {
        if (thinking->second == "true" || thinking->second == "false") {
            inputs.enable_thinking = thinking->second == "true";
        } else {
            bad_request("enable_thinking must be a boolean");
        }
    }
    if (body.contains("reasoning_effort") && body.at("reasoning_effort").is_string()) {
        const std::string effort = body.at("reasoning_effort").get<std::string>();
        if (effort == "none") {
            inputs.enable_thinking = false;
        } else if (!effort.empty()) {
            inputs.chat_template_kwargs["reasoning_effort"] = common_json::make(effort).dump(-1);
        }
    }
    return {inputs, reasoning_format};
}

std::string ChatTemplates::template_inputs(const std::string & request_json) {
    std::lock_guard<std::mutex> lock(mutex_);
    const common_chat_templates_inputs inputs = request(request_json).inputs;
    common_json messages = common_json::array();
    for (const auto & msg : inputs.messages) {
        messages.push_back(msg.to_json_oaicompat());
    }
    common_json kwargs = common_json::object();
    for (const auto & item : inputs.chat_template_kwargs) {
        kwargs[item.first] = common_json::parse(item.second);
    }
    common_json out = common_json::object();
    out["messages"] = messages;
    out["tools"] = common_chat_tools_to_json_oaicompat(inputs.tools);
    out["add_generation_prompt"] = inputs.add_generation_prompt;
    out["continue_final_message"] = inputs.continue_final_message != COMMON_CHAT_CONTINUATION_NONE;
    out["enable_thinking"] = inputs.enable_thinking;
    out["chat_template_kwargs"] = kwargs;
    return out.dump_safe();
}

ChatPrompt ChatTemplates::apply(const std::string & request_json) {
    std::lock_guard<std::mutex> lock(mutex_);
    const Request r = request(request_json);
    const common_chat_templates_inputs & inputs = r.inputs;
    const std::string & reasoning_format = r.reasoning_format;

    common_chat_params params;
    try {
        params = common_chat_templates_apply(tmpls_.get(), inputs);
    } catch (const std::exception & e) {
        const std::string what = e.what();
        init();
        throw EngineError(ErrorCode::Template, "chat template failed: " + what);
    }

    ChatPrompt out;
    out.prompt = params.prompt;
    out.format_id = (int)params.format;
    out.format = common_chat_format_name(params.format);
    // llama-server samples under the request's own grammar when the chat layer builds none (it refuses one
    // beside tools or a schema above): the grammar covers the whole output, reasoning included
    out.grammar = params.grammar.empty() ? inputs.grammar : params.grammar;
    out.grammar_lazy = params.grammar.empty() ? false : params.grammar_lazy;
    out.preserved_tokens = params.preserved_tokens;
    out.additional_stops = params.additional_stops;
    out.generation_prompt = params.generation_prompt;
    out.parser = params.parser;
    out.reasoning_format = reasoning_format;
    out.is_continuation = inputs.continue_final_message != COMMON_CHAT_CONTINUATION_NONE;
    out.supports_thinking = params.supports_thinking;
    out.thinking_start_tag = params.thinking_start_tag;
    out.thinking_end_tags = params.thinking_end_tags;
    for (const auto & t : params.grammar_triggers) {
        out.grammar_triggers.push_back({trigger_type_name(t.type), t.value});
    }
    if (!out.grammar.empty()) {
        const bool tool_grammar = !inputs.tools.empty() && inputs.tool_choice != COMMON_CHAT_TOOL_CHOICE_NONE;
        out.grammar_kind = tool_grammar ? "tool_calls" : !inputs.json_schema.empty() ? "output_format" : "user";
        if (tool_grammar && inputs.tool_choice == COMMON_CHAT_TOOL_CHOICE_REQUIRED && !out.grammar_lazy) {
            ForcedReasoning reasoning;
            reasoning.keep = inputs.enable_thinking;
            const size_t start =
                params.thinking_start_tag.empty() ? std::string::npos : params.generation_prompt.rfind(params.thinking_start_tag);
            if (!inputs.enable_thinking && start != std::string::npos) {
                // up to its end tag where the prompt also closed it (Qwen3.5's `<think>\n\n</think>` with thinking off)
                std::string text = params.generation_prompt.substr(start + params.thinking_start_tag.size());
                for (const auto & end : params.thinking_end_tags) {
                    if (!end.empty()) {
                        text = text.substr(0, text.find(end));
                    }
                }
                reasoning.opened = true;
                reasoning.opened_text = text;
                reasoning.end_tags = params.thinking_end_tags;
            }
            std::map<std::string, common_json> schemas;
            for (const auto & tool : inputs.tools) {
                schemas[tool.name] = common_json::parse_no_throw(tool.parameters);
            }
            out.grammar = forced_call_grammar(out.grammar, params.parser, reasoning, schemas);
        }
        if (tool_grammar && !inputs.parallel_tool_calls) {
            out.grammar = single_tool_call_grammar(out.grammar);
        }
    }
    return out;
}

std::string render_jinja(const std::string & source, const std::string & context_json) {
    common_json vars = common_json::parse_no_throw(context_json);
    if (vars.is_discarded() || !vars.is_object()) {
        throw EngineError(ErrorCode::InvalidArgument, "template variables must be a JSON object");
    }
    try {
        jinja::lexer lexer;
        const auto tokens = lexer.tokenize(source);
        jinja::program prog = jinja::parse_from_tokens(tokens);
        jinja::context ctx(tokens.source);
        jinja::global_from_json(ctx, vars, true);
        jinja::runtime runtime(ctx);
        const jinja::value result = runtime.execute(prog);
        return jinja::runtime::gather_string_parts(result)->as_string().str();
    } catch (const std::exception & e) {
        throw EngineError(ErrorCode::Template, e.what());
    }
}

}  // namespace cts
