#include "convert.h"

#include <cmath>
#include <limits>

namespace cts_addon {

namespace {

[[noreturn]] void type_error(const Napi::Env & env, const std::string & field, const char * expected) {
    throw Napi::TypeError::New(env, "'" + field + "' must be " + expected);
}

bool has(const Napi::Object & o, const char * key) {
    return o.Has(key) && !o.Get(key).IsUndefined() && !o.Get(key).IsNull();
}

std::string str(const Napi::Object & o, const char * key, const std::string & def) {
    if (!has(o, key))
        return def;
    const Napi::Value v = o.Get(key);
    if (!v.IsString())
        type_error(o.Env(), key, "a string");
    return v.As<Napi::String>().Utf8Value();
}

double num(const Napi::Object & o, const char * key, double def) {
    if (!has(o, key))
        return def;
    const Napi::Value v = o.Get(key);
    if (!v.IsNumber() || !std::isfinite(v.As<Napi::Number>().DoubleValue()))
        type_error(o.Env(), key, "a finite number");
    return v.As<Napi::Number>().DoubleValue();
}

int64_t integer(const Napi::Object & o, const char * key, int64_t def, int64_t min, int64_t max) {
    const double d = num(o, key, (double)def);
    if (d != std::floor(d) || d < (double)min || d > (double)max) {
        throw Napi::RangeError::New(
            o.Env(), "'" + std::string(key) + "' must be an integer from " + std::to_string(min) + " to " + std::to_string(max));
    }
    return (int64_t)d;
}

bool boolean(const Napi::Object & o, const char * key, bool def) {
    if (!has(o, key))
        return def;
    const Napi::Value v = o.Get(key);
    if (!v.IsBoolean())
        type_error(o.Env(), key, "a boolean");
    return v.As<Napi::Boolean>().Value();
}

std::vector<std::string> strings(const Napi::Object & o, const char * key) {
    std::vector<std::string> out;
    if (!has(o, key))
        return out;
    const Napi::Value v = o.Get(key);
    if (!v.IsArray())
        type_error(o.Env(), key, "an array of strings");
    const auto a = v.As<Napi::Array>();
    for (uint32_t i = 0; i < a.Length(); i++) {
        const Napi::Value item = a.Get(i);
        if (!item.IsString())
            type_error(o.Env(), key, "an array of strings");
        out.push_back(item.As<Napi::String>().Utf8Value());
    }
    return out;
}

std::vector<cts::GrammarTrigger> triggers(const Napi::Object & o, const char * key) {
    std::vector<cts::GrammarTrigger> out;
    if (!has(o, key))
        return out;
    const Napi::Value v = o.Get(key);
    if (!v.IsArray())
        type_error(o.Env(), key, "an array of {type, value}");
    const auto a = v.As<Napi::Array>();
    for (uint32_t i = 0; i < a.Length(); i++) {
        if (!a.Get(i).IsObject())
            type_error(o.Env(), key, "an array of {type, value}");
        const auto t = a.Get(i).As<Napi::Object>();
        out.push_back({str(t, "type", ""), str(t, "value", "")});
    }
    return out;
}

Napi::Array js_strings(Napi::Env env, const std::vector<std::string> & v) {
    auto a = Napi::Array::New(env, v.size());
    for (size_t i = 0; i < v.size(); i++)
        a.Set((uint32_t)i, v[i]);
    return a;
}

Napi::Array js_ints(Napi::Env env, const std::vector<int> & v) {
    auto a = Napi::Array::New(env, v.size());
    for (size_t i = 0; i < v.size(); i++)
        a.Set((uint32_t)i, v[i]);
    return a;
}

constexpr int64_t I32_MAX = std::numeric_limits<int32_t>::max();

}  // namespace

std::vector<int32_t> token_array(const Napi::Value & v, const char * what) {
    std::vector<int32_t> out;
    if (v.IsTypedArray() && v.As<Napi::TypedArray>().TypedArrayType() == napi_int32_array) {
        const auto a = v.As<Napi::Int32Array>();
        out.assign(a.Data(), a.Data() + a.ElementLength());
        return out;
    }
    if (!v.IsArray())
        type_error(v.Env(), what, "an array of token ids");
    const auto a = v.As<Napi::Array>();
    out.reserve(a.Length());
    for (uint32_t i = 0; i < a.Length(); i++) {
        const Napi::Value item = a.Get(i);
        const double d = item.IsNumber() ? item.As<Napi::Number>().DoubleValue() : -1.5;
        if (d != std::floor(d) || d < 0 || d > (double)I32_MAX)
            type_error(v.Env(), what, "an array of token ids (non-negative integers)");
        out.push_back((int32_t)d);
    }
    return out;
}

cts::LoadParams load_params(const Napi::Object & o) {
    cts::LoadParams p;
    p.target = str(o, "target", "");
    p.draft = str(o, "draft", "");
    p.n_ctx = (int)integer(o, "contextSize", p.n_ctx, 8, I32_MAX);
    p.n_batch = (int)integer(o, "batchSize", p.n_batch, 1, I32_MAX);
    p.n_gpu_layers = (int)integer(o, "gpuLayers", p.n_gpu_layers, -1, 100000);
    p.draft_gpu_layers = (int)integer(o, "draftGpuLayers", p.draft_gpu_layers, -1, 100000);
    p.n_threads = (int)integer(o, "threads", 0, 0, 1024);
    p.cache_type_k = str(o, "cacheTypeK", p.cache_type_k);
    p.cache_type_v = str(o, "cacheTypeV", p.cache_type_v);
    p.draft_max = (int)integer(o, "draftMax", 0, 0, 1024);
    p.draft_adaptive = boolean(o, "draftAdaptive", p.draft_adaptive);
    p.draft_window = (int)integer(o, "draftWindow", 0, 0, I32_MAX);
    p.warmup = boolean(o, "warmup", p.warmup);
    p.flash_attention = str(o, "flashAttention", p.flash_attention);
    p.cache_ram_bytes = (size_t)integer(o, "cacheRamMiB", 0, 0, 1 << 24) << 20;
    if (p.target.empty())
        throw Napi::TypeError::New(o.Env(), "'target' (the target model path) is required");
    return p;
}

cts::GenerateParams generate_params(const Napi::Object & o) {
    cts::GenerateParams p;
    if (!has(o, "prompt"))
        throw Napi::TypeError::New(o.Env(), "'prompt' (token ids) is required");
    p.prompt = token_array(o.Get("prompt"), "prompt");
    p.max_tokens = (int)integer(o, "maxTokens", p.max_tokens, 1, I32_MAX);
    p.stop = strings(o, "stop");
    p.grammar = str(o, "grammar", "");
    p.grammar_kind = str(o, "grammarKind", p.grammar_kind);
    p.grammar_lazy = boolean(o, "grammarLazy", false);
    p.grammar_triggers = triggers(o, "grammarTriggers");
    p.preserved_tokens = strings(o, "preservedTokens");
    p.generation_prompt = str(o, "generationPrompt", "");
    p.json_schema = str(o, "jsonSchema", "");
    p.ignore_eos = boolean(o, "ignoreEos", false);
    p.speculative = boolean(o, "speculative", true);
    if (o.Has("draftAdaptive") && !o.Get("draftAdaptive").IsUndefined()) {
        p.draft_adaptive = boolean(o, "draftAdaptive", true) ? 1 : 0;
    }
    p.logprobs = boolean(o, "logprobs", false);
    p.top_logprobs = (int)integer(o, "topLogprobs", 0, 0, 20);
    p.parse_message = boolean(o, "parseMessage", false);
    auto & s = p.sampling;
    s.temperature = (float)num(o, "temperature", s.temperature);
    s.top_k = (int)integer(o, "topK", s.top_k, 0, I32_MAX);
    s.top_p = (float)num(o, "topP", s.top_p);
    s.min_p = (float)num(o, "minP", s.min_p);
    s.seed = (uint32_t)integer(o, "seed", s.seed, 0, 0xFFFFFFFFll);
    s.repeat_penalty = (float)num(o, "repeatPenalty", s.repeat_penalty);
    s.repeat_last_n = (int)integer(o, "repeatLastN", s.repeat_last_n, -1, I32_MAX);
    s.frequency_penalty = (float)num(o, "frequencyPenalty", s.frequency_penalty);
    s.presence_penalty = (float)num(o, "presencePenalty", s.presence_penalty);
    if (has(o, "logitBias")) {
        const Napi::Value v = o.Get("logitBias");
        if (!v.IsArray())
            type_error(o.Env(), "logitBias", "an array of [token, bias] pairs");
        const auto a = v.As<Napi::Array>();
        for (uint32_t i = 0; i < a.Length(); i++) {
            const Napi::Value pair = a.Get(i);
            if (!pair.IsArray() || pair.As<Napi::Array>().Length() != 2 || !pair.As<Napi::Array>().Get(0u).IsNumber() ||
                !pair.As<Napi::Array>().Get(1u).IsNumber()) {
                type_error(o.Env(), "logitBias", "an array of [token, bias] pairs");
            }
            const auto pr = pair.As<Napi::Array>();
            s.logit_bias.emplace_back(pr.Get(0u).As<Napi::Number>().Int32Value(), pr.Get(1u).As<Napi::Number>().FloatValue());
        }
    }
    return p;
}

Napi::Int32Array to_js(Napi::Env env, const std::vector<int32_t> & tokens) {
    auto a = Napi::Int32Array::New(env, tokens.size());
    std::copy(tokens.begin(), tokens.end(), a.Data());
    return a;
}

Napi::Object to_js(Napi::Env env, const cts::ModelInfo & i) {
    auto o = Napi::Object::New(env);
    o.Set("arch", i.arch);
    o.Set("name", i.name);
    o.Set("description", i.description);
    o.Set("chatTemplate", i.chat_template);
    o.Set("contextSize", i.n_ctx);
    o.Set("trainContextSize", i.n_ctx_train);
    o.Set("vocabSize", i.n_vocab);
    o.Set("embeddingSize", i.n_embd);
    o.Set("layers", i.n_layer);
    o.Set("sizeBytes", (double)i.size_bytes);
    o.Set("parameters", (double)i.n_params);
    o.Set("threads", i.n_threads);
    o.Set("bos", i.bos < 0 ? env.Null() : Napi::Number::New(env, i.bos));
    o.Set("eos", i.eos < 0 ? env.Null() : Napi::Number::New(env, i.eos));
    o.Set("bosText", i.bos_text);
    o.Set("eosText", i.eos_text);
    o.Set("addBos", i.add_bos);
    if (i.has_draft) {
        auto d = Napi::Object::New(env);
        d.Set("name", i.draft_name);
        d.Set("layers", i.draft_layers);
        d.Set("blockSize", i.block_size);
        d.Set("draftMax", i.draft_max);
        d.Set("draftAdaptive", i.draft_adaptive);
        d.Set("window", i.draft_window);
        o.Set("draft", d);
    } else {
        o.Set("draft", env.Null());
    }
    return o;
}

static Napi::Object to_js(Napi::Env env, const cts::TokenLogprob & t) {
    auto o = Napi::Object::New(env);
    o.Set("token", t.token);
    auto bytes = Napi::Array::New(env, t.piece.size());
    for (size_t i = 0; i < t.piece.size(); i++) {
        bytes.Set((uint32_t)i, (uint32_t)(uint8_t)t.piece[i]);
    }
    o.Set("bytes", bytes);
    o.Set("logprob", t.logprob);
    return o;
}

Napi::Object to_js(Napi::Env env, const cts::TokenLogprobs & l) {
    auto o = to_js(env, l.chosen);
    auto top = Napi::Array::New(env, l.top.size());
    for (size_t i = 0; i < l.top.size(); i++) {
        top.Set((uint32_t)i, to_js(env, l.top[i]));
    }
    o.Set("top", top);
    return o;
}

Napi::Object to_js(Napi::Env env, const cts::PromptCacheInfo & c) {
    auto o = Napi::Object::New(env);
    o.Set("liveTokens", (double)c.live_tokens);
    o.Set("budgetBytes", (double)c.budget_bytes);
    o.Set("usedBytes", (double)c.used_bytes);
    auto entries = Napi::Array::New(env, c.entries.size());
    for (size_t i = 0; i < c.entries.size(); i++) {
        auto e = Napi::Object::New(env);
        e.Set("tokens", (double)c.entries[i].tokens);
        e.Set("draftTokens", (double)c.entries[i].draft_tokens);
        e.Set("bytes", (double)c.entries[i].bytes);
        e.Set("lastUsedMs", (double)c.entries[i].last_used_ms);
        entries.Set((uint32_t)i, e);
    }
    o.Set("entries", entries);
    return o;
}

Napi::Object to_js(Napi::Env env, const cts::GenerateResult & r) {
    const auto & s = r.stats;
    auto stats = Napi::Object::New(env);
    stats.Set("speculative", s.speculative);
    stats.Set("promptTokens", s.prompt_tokens);
    stats.Set("promptEvaluated", s.prompt_evaluated);
    stats.Set("promptRestored", s.prompt_restored);
    stats.Set("promptMs", s.prompt_ms);
    stats.Set("generatedTokens", s.generated_tokens);
    stats.Set("generateMs", s.generate_ms);
    stats.Set("targetDecodes", s.target_decodes);
    stats.Set("draftSteps", s.draft_steps);
    stats.Set("drafted", s.drafted);
    stats.Set("accepted", s.accepted);
    stats.Set("draftedAt", js_ints(env, s.drafted_at));
    stats.Set("acceptedAt", js_ints(env, s.accepted_at));
    stats.Set("draftMs", s.draft_ms);
    stats.Set("verifyMs", s.verify_ms);
    stats.Set("sampleMs", s.sample_ms);
    if (s.speculative) {
        auto c = Napi::Object::New(env);
        c.Set("adaptive", s.adaptive);
        c.Set("choices", js_ints(env, s.choices));
        c.Set("probes", s.probes);
        c.Set("lastChoice", s.last_choice);
        c.Set("breakEven", s.break_even);
        stats.Set("controller", c);
        auto buckets = Napi::Array::New(env, cts::CONTEXT_BUCKETS);
        for (int b = 0; b < cts::CONTEXT_BUCKETS; b++) {
            const auto & cb = s.by_context[b];
            auto e = Napi::Object::New(env);
            e.Set("bucket", cts::context_bucket_name(b));
            e.Set("steps", cb.steps);
            e.Set("plainSteps", cb.plain_steps);
            e.Set("drafted", cb.drafted);
            e.Set("accepted", cb.accepted);
            e.Set("stepMs", cb.step_ms);
            e.Set("plainMs", cb.plain_ms);
            buckets.Set((uint32_t)b, e);
        }
        stats.Set("byContext", buckets);
    }
    auto o = Napi::Object::New(env);
    o.Set("tokens", to_js(env, r.tokens));
    o.Set("text", r.text);
    o.Set("stopReason", r.stop_reason);
    o.Set("stopString", r.stop_string.empty() ? env.Null() : Napi::String::New(env, r.stop_string));
    if (!r.logprobs.empty()) {
        auto lp = Napi::Array::New(env, r.logprobs.size());
        for (size_t i = 0; i < r.logprobs.size(); i++) {
            lp.Set((uint32_t)i, to_js(env, r.logprobs[i]));
        }
        o.Set("logprobs", lp);
    }
    if (r.message_error) {
        o.Set("messageError", engine_error(env, *r.message_error).Value());
    } else {
        o.Set("messageDeltas", to_js(env, r.message_deltas));
    }
    o.Set("stats", stats);
    return o;
}

Napi::Object to_js(Napi::Env env, const cts::ChatPrompt & p) {
    auto o = Napi::Object::New(env);
    o.Set("prompt", p.prompt);
    o.Set("format", p.format);
    o.Set("grammar", p.grammar);
    o.Set("grammarKind", p.grammar_kind);
    o.Set("grammarLazy", p.grammar_lazy);
    auto trig = Napi::Array::New(env, p.grammar_triggers.size());
    for (size_t i = 0; i < p.grammar_triggers.size(); i++) {
        auto t = Napi::Object::New(env);
        t.Set("type", p.grammar_triggers[i].type);
        t.Set("value", p.grammar_triggers[i].value);
        trig.Set((uint32_t)i, t);
    }
    o.Set("grammarTriggers", trig);
    o.Set("preservedTokens", js_strings(env, p.preserved_tokens));
    o.Set("additionalStops", js_strings(env, p.additional_stops));
    o.Set("generationPrompt", p.generation_prompt);
    o.Set("reasoningFormat", p.reasoning_format);
    o.Set("isContinuation", p.is_continuation);
    o.Set("supportsThinking", p.supports_thinking);
    o.Set("thinkingStartTag", p.thinking_start_tag);
    o.Set("thinkingEndTags", js_strings(env, p.thinking_end_tags));
    return o;
}

Napi::Object to_js(Napi::Env env, const cts::ParsedMessage & m) {
    auto o = Napi::Object::New(env);
    o.Set("content", m.content);
    o.Set("reasoningContent", m.reasoning_content);
    auto calls = Napi::Array::New(env, m.tool_calls.size());
    for (size_t i = 0; i < m.tool_calls.size(); i++) {
        auto c = Napi::Object::New(env);
        c.Set("name", m.tool_calls[i].name);
        c.Set("arguments", m.tool_calls[i].arguments);
        c.Set("id", m.tool_calls[i].id);
        calls.Set((uint32_t)i, c);
    }
    o.Set("toolCalls", calls);
    return o;
}

Napi::Array to_js(Napi::Env env, const std::vector<cts::MessageDelta> & deltas) {
    static const char * const kinds[] = {"reasoning", "content", "tool_call"};
    auto a = Napi::Array::New(env, deltas.size());
    for (size_t i = 0; i < deltas.size(); i++) {
        const cts::MessageDelta & d = deltas[i];
        auto o = Napi::Object::New(env);
        o.Set("kind", kinds[(int)d.kind]);
        o.Set("text", d.text);
        if (d.kind == cts::MessageDelta::Kind::ToolCall) {
            o.Set("index", (double)d.index);
            o.Set("start", d.start);
            if (d.start) {
                o.Set("id", d.id);
                o.Set("name", d.name);
            }
        }
        a.Set((uint32_t)i, o);
    }
    return a;
}

Napi::Object to_js(Napi::Env env, const std::map<std::string, bool> & caps) {
    auto o = Napi::Object::New(env);
    for (const auto & [k, v] : caps)
        o.Set(k, v);
    return o;
}

Napi::Error engine_error(Napi::Env env, const cts::EngineError & e) {
    auto err = Napi::Error::New(env, e.what());
    err.Set("code", cts::error_code_name(e.code));
    for (const auto & [k, v] : e.fields)
        err.Set(k, Napi::Number::New(env, (double)v));
    return err;
}

}  // namespace cts_addon
