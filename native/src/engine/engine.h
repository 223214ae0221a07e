// The inference engine: a target model, optionally with a DFlash block-diffusion draft, decoding one
// request at a time on the caller's thread. It is the loop llama-server runs for one slot (prefix reuse,
// drafting through common/speculative, verification through common_sampler_sample_and_accept_n), without
// HTTP or N-API, so the Node addon and the C++ bench drive the same code.
#pragma once

#include "chat_layer.h"
#include "draft_controller.h"
#include "errors.h"
#include "message_tracker.h"
#include "prompt_cache.h"
#include "token_logprobs.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cts {

struct LoadParams {
    std::string target;
    std::string draft;  // empty: no speculative decoding
    int n_ctx = 4096;
    int n_batch = 512;
    int n_gpu_layers = -1;  // -1: all
    int draft_gpu_layers = -1;
    int n_threads = 0;  // 0: one for narrow models (default_threads in engine.cpp), else llama.cpp's default
    std::string cache_type_k = "f16";
    std::string cache_type_v = "f16";
    int draft_max = 0;  // tokens drafted per step; 0: the draft's block size - 1
    bool draft_adaptive = true;  // choose each step's draft length (draft_controller.h); false: always draft_max
    int draft_window = 0;  // > 0: positions the draft attends to, instead of its dflash.attention.sliding_window
    bool warmup = true;
    std::string flash_attention = "auto";  // "auto", "on", "off"
    size_t cache_ram_bytes = 0;  // host memory for the KV state of earlier conversations (prompt_cache.h); 0: none
};

struct ModelInfo {
    std::string arch, name, description, chat_template;
    int n_ctx = 0, n_ctx_train = 0, n_vocab = 0, n_embd = 0, n_layer = 0;
    int n_threads = 0;  // CPU threads the target decodes with
    uint64_t size_bytes = 0, n_params = 0;
    int32_t bos = -1, eos = -1;
    std::string bos_text, eos_text;
    bool add_bos = false;
    // draft, when loaded
    bool has_draft = false;
    std::string draft_name;
    int draft_layers = 0, block_size = 0, draft_max = 0;
    bool draft_adaptive = false;
    int draft_window = 0;  // positions the draft attends to; 0: all
};

// Acceptance in one context bucket (draft_controller.h), counted at the context of each step.
struct ContextBucketStats {
    int steps = 0;  // steps with a draft
    int plain_steps = 0;  // steps the controller left without one
    int drafted = 0;
    int accepted = 0;
    // wall time of those steps (draft, verify, sampling): tokens per second with and without a draft here
    double step_ms = 0;
    double plain_ms = 0;
};

struct SamplingParams {
    float temperature = 0.8f;  // <= 0: greedy
    int top_k = 40;
    float top_p = 0.95f;
    float min_p = 0.05f;
    uint32_t seed = 0xFFFFFFFF;  // LLAMA_DEFAULT_SEED: random
    float repeat_penalty = 1.0f;
    int repeat_last_n = 64;
    float frequency_penalty = 0.0f;
    float presence_penalty = 0.0f;
    std::vector<std::pair<int32_t, float>> logit_bias;  // added to a token's logit; -inf bans it
};

struct GenerateParams {
    std::vector<int32_t> prompt;
    int max_tokens = 256;
    std::vector<std::string> stop;
    SamplingParams sampling;
    // constraint: GBNF text, or a JSON schema (converted by llama.cpp), not both
    std::string grammar;
    std::string grammar_kind = "user";  // "user", "tool_calls", "output_format" (as ChatPrompt::grammar_kind)
    bool grammar_lazy = false;
    std::vector<GrammarTrigger> grammar_triggers;
    std::vector<std::string> preserved_tokens;  // rendered as text even though they are special
    std::string generation_prompt;  // fed to a tool-call/output-format grammar first
    std::string json_schema;
    bool ignore_eos = false;
    bool speculative = true;  // use the draft when one is loaded
    int draft_adaptive = -1;  // -1: the engine's LoadParams::draft_adaptive; 0: full blocks; 1: adaptive
    bool logprobs = false;  // report each token's log-probability (token_logprobs.h)
    int top_logprobs = 0;  // and that many most likely alternatives
    // The chat layer's prompt this generates from: its grammar (unless `grammar` replaces it), triggers,
    // preserved tokens, generation prompt and stops join the fields above, and its parser reads the output.
    std::shared_ptr<const ChatPrompt> chat;
    // With `chat`: the output parsed into the assistant message (GenerateResult::message_deltas), and with
    // `stream_message` partially while it is generated too, as the pacing allows (TokenEvent::deltas).
    bool parse_message = false;
    bool stream_message = false;
};

struct TokenEvent {
    int32_t token;
    std::string text;  // text released by this token (held back while a stop string may be forming)
    const TokenLogprobs * logprobs = nullptr;  // when asked for
    int cached_tokens = 0;  // prompt tokens reused from the KV cache, known before the first token (stream usage)
    // stream_message: what the message gained by a partial parse of the output up to this token, if one ran
    const std::vector<MessageDelta> * deltas = nullptr;
    // more tokens of the same step follow at once (a DFlash step's accepted drafts): a caller that batches
    // its deliveries waits for them
    bool more_follow = false;
};

struct GenerateStats {
    bool speculative = false;
    int prompt_tokens = 0;
    int prompt_evaluated = 0;  // not served from the KV cache
    int prompt_restored = 0;  // served from a conversation brought back from host memory
    double prompt_ms = 0;
    int generated_tokens = 0;
    double generate_ms = 0;  // first sampled token to the end
    int target_decodes = 0;  // during generation
    int draft_steps = 0;  // verification steps with a non-empty draft
    int drafted = 0;
    int accepted = 0;
    std::vector<int> drafted_at;  // [i]: steps whose draft had a position i
    std::vector<int> accepted_at;  // [i]: steps that accepted position i
    double draft_ms = 0;  // drafting, incl. injecting target features into the draft's cache
    double verify_ms = 0;  // target decodes of verification batches
    double sample_ms = 0;
    // the draft-length controller
    bool adaptive = false;
    std::vector<int> choices;  // [n]: steps that drafted n tokens (0: plain steps)
    int probes = 0;  // full blocks drafted to re-check the draft
    int last_choice = 0;  // tokens the last step drafted
    double break_even = 0;  // best drafting speed / plain speed at the final context, as estimated; 0: unknown
    std::array<ContextBucketStats, CONTEXT_BUCKETS> by_context{};
};

struct GenerateResult {
    std::vector<int32_t> tokens;
    std::vector<TokenLogprobs> logprobs;  // one per token but a final end of generation, when asked for
    std::string text;
    std::string stop_reason;  // "eos", "stop", "length", "abort"
    std::string stop_string;
    GenerateStats stats;
    // parse_message: what the final parse added to the message the token events sent (all of it without
    // stream_message); none after an abort. A parse that failed ends parsing with its error here instead.
    std::vector<MessageDelta> message_deltas;
    std::optional<EngineError> message_error;
};

using ProgressFn = std::function<void(const std::string & stage, float progress)>;
using TokenFn = std::function<void(const TokenEvent &)>;

class Engine {
public:
    // Throws EngineError; the progress callback runs on the calling thread.
    static std::unique_ptr<Engine> load(const LoadParams & params, const ProgressFn & progress);
    ~Engine();

    const ModelInfo & info() const { return info_; }

    // Thread-safe (read-only use of the vocabulary), so they may run while a generation is in progress.
    std::vector<int32_t> tokenize(const std::string & text, bool add_special, bool parse_special) const;
    std::string detokenize(const std::vector<int32_t> & tokens, bool special) const;
    // Each token's bytes (special tokens as their text), which may be part of a UTF-8 character.
    std::vector<std::string> token_pieces(const std::vector<int32_t> & tokens) const;
    std::shared_ptr<ChatTemplates> chat_templates(const std::string & override_source) const;
    // Thread-safe, like tokenize.
    PromptCacheInfo prompt_cache_info() const;

    // One request at a time. Throws EngineError (context_overflow before any decoding). `abort` may be set
    // from any thread; generation then stops within a step and reports stop_reason "abort".
    GenerateResult generate(const GenerateParams & params, const TokenFn & on_token, const std::atomic<bool> & abort);

private:
    Engine();
    struct Impl;
    std::unique_ptr<Impl> impl_;
    ModelInfo info_;
    // tokens whose keys and values are in the KV cache: the prefix the next request can reuse
    std::vector<int32_t> cache_;
};

}  // namespace cts
