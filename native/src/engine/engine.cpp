#include "engine.h"

#include "chat_output.h"
#include "draft_feed.h"
#include "errors.h"
#include "logging.h"
#include "model_check.h"
#include "text_stream.h"
#include "thread_pool.h"
#include "utf8.h"

#include "common.h"
#include "json-schema-to-grammar.h"
#include "json.h"
#include "llama-ext.h"
#include "llama.h"
#include "sampling.h"
#include "speculative.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <cmath>
#include <numeric>
#include <optional>

namespace cts {

namespace {

ggml_type cache_type(const std::string & name) {
    static const ggml_type allowed[] = {GGML_TYPE_F32,  GGML_TYPE_F16,    GGML_TYPE_BF16, GGML_TYPE_Q8_0, GGML_TYPE_Q4_0,
                                        GGML_TYPE_Q4_1, GGML_TYPE_IQ4_NL, GGML_TYPE_Q5_0, GGML_TYPE_Q5_1};
    std::string names;
    for (ggml_type t : allowed) {
        if (name == ggml_type_name(t)) {
            return t;
        }
        names += std::string(names.empty() ? "" : ", ") + ggml_type_name(t);
    }
    throw EngineError(ErrorCode::InvalidArgument, "unsupported KV cache type '" + name + "' (one of " + names + ")");
}

double ms_since(int64_t t0_us) {
    return (ggml_time_us() - t0_us) / 1000.0;
}

// The clock of the draft controller's cost measurements. On the CPU it is this thread's CPU time: what a
// step costs is compared with what another cost minutes earlier, and wall time on a busy machine counts
// the other processes too (the calling thread computes its share of every graph and spins at the barriers,
// so its CPU time follows the compute). A GPU step is mostly waiting, so there it is wall time.
double cost_clock_ms(bool cpu_time) {
    if (cpu_time) {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
    }
    return ggml_time_us() / 1000.0;
}

bool runs_on_cpu(int n_gpu_layers) {
    if (n_gpu_layers == 0)
        return true;
    for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
        const auto type = ggml_backend_dev_type(ggml_backend_dev_get(i));
        if (type == GGML_BACKEND_DEVICE_TYPE_GPU || type == GGML_BACKEND_DEVICE_TYPE_IGPU)
            return false;
    }
    return true;
}

// Threads when the caller names none. A narrow model's ops take microseconds, less than llama.cpp's threadpool
// spends at the barrier after each op; on a busy machine a descheduled worker makes every barrier wait for a
// time slice, so the demo pair decoded 9x faster on one thread than on two (issue 30). -1: llama.cpp's default.
constexpr uint32_t NARROW_MODEL_EMBD = 512;
int default_threads(const GgufSummary & target) {
    return target.n_embd > 0 && target.n_embd < NARROW_MODEL_EMBD ? 1 : -1;
}

// positions of target features held for the draft during plain steps (draft_feed.h): injected in one batch
// when it fills up, so a long run of plain steps costs one draft decode per this many tokens
constexpr size_t FEED_CAPACITY = 256;

// plain steps of a DFlash request whose costs are read for the draft-length controller: one in this many
constexpr int PLAIN_COST_SAMPLE = 8;

struct ProgressTarget {
    const ProgressFn * fn;
    const char * stage;
};

bool on_progress(float progress, void * user) {
    const auto * p = static_cast<ProgressTarget *>(user);
    if (p->fn && *p->fn) {
        (*p->fn)(p->stage, progress);
    }
    return true;
}

std::string token_text(const llama_vocab * vocab, llama_token id) {
    return id == LLAMA_TOKEN_NULL ? "" : common_token_to_piece(vocab, id, true);
}

}  // namespace

struct Engine::Impl {
    SharedThreadPool pool;  // first: the contexts that use it go before it
    common_params params;
    common_init_result_ptr init;
    llama_model * model = nullptr;
    llama_context * ctx = nullptr;
    const llama_vocab * vocab = nullptr;
    common_speculative_init_result_ptr spec_init;
    llama_context * ctx_dft = nullptr;
    common_speculative_ptr spec;
    std::vector<int32_t> target_layers;
    bool extracting = true;
    common_memory mem;
    llama_batch batch{};
    // tokens of the cache prefix whose target features are also in the draft's cache; a plain request
    // moves the target ahead without feeding the draft
    size_t draft_valid = 0;
    std::unique_ptr<DraftController> controller;  // kept across requests: its estimates and costs carry over
    bool cost_cpu_time = true;  // cost_clock_ms's choice
    DraftFeed feed;
    std::unique_ptr<PromptCache> prompt_cache;
    const std::atomic<bool> * abort = nullptr;

    ~Impl() {
        if (batch.token) {
            llama_batch_free(batch);
        }
        // the speculative state refers to both contexts, so it goes first
        spec.reset();
        spec_init.reset();
        init.reset();
    }

    // Extracting the target layers the draft reads costs a copy per token; plain requests skip it.
    void set_extraction(bool on) {
        if (on == extracting) {
            return;
        }
        for (int32_t id : target_layers) {
            llama_set_embeddings_layer_inp(ctx, (uint32_t)id, on);
        }
        extracting = on;
    }

    void check_tokens(const std::vector<int32_t> & tokens) const {
        const int32_t n_vocab = llama_vocab_n_tokens(vocab);
        for (size_t i = 0; i < tokens.size(); i++) {
            if (tokens[i] < 0 || tokens[i] >= n_vocab) {
                throw EngineError(ErrorCode::InvalidArgument, "token " + std::to_string(tokens[i]) + " at index " + std::to_string(i) +
                                                                  " is outside the vocabulary (0.." + std::to_string(n_vocab - 1) + ")");
            }
        }
    }

    common_sampler * make_sampler(const GenerateParams & p) const;
};

Engine::Engine() : impl_(new Impl()) {}

Engine::~Engine() = default;

std::unique_ptr<Engine> Engine::load(const LoadParams & lp, const ProgressFn & progress) {
    LogCapture log;
    const GgufSummary target = inspect_model(lp.target, "target");
    if (target.arch == "dflash") {
        throw EngineError(ErrorCode::InvalidModel, lp.target + " is a DFlash draft; load it as the draft of a target model");
    }
    std::optional<GgufSummary> draft;
    if (!lp.draft.empty()) {
        draft = inspect_model(lp.draft, "draft");
        check_draft_pair(target, *draft);
    }
    if (lp.n_ctx < 8 || lp.n_batch < 1 || lp.n_threads < 0 || lp.draft_window < 0) {
        throw EngineError(ErrorCode::InvalidArgument,
                          "context size must be at least 8, batch size at least 1, threads and draft window not negative");
    }

    std::unique_ptr<Engine> engine(new Engine());
    Impl & m = *engine->impl_;
    common_params & params = m.params;
    params.model.path = lp.target;
    params.n_ctx = lp.n_ctx;
    params.n_batch = lp.n_batch;
    params.n_ubatch = lp.n_batch;
    params.n_parallel = 1;
    params.n_gpu_layers = lp.n_gpu_layers;
    params.fit_params = false;  // the caller's context size and layer count are what it gets
    params.warmup = lp.warmup;
    if (lp.flash_attention != "auto" && lp.flash_attention != "on" && lp.flash_attention != "off") {
        throw EngineError(ErrorCode::InvalidArgument, "flash attention must be auto, on or off, got '" + lp.flash_attention + "'");
    }
    params.flash_attn_type = lp.flash_attention == "on"    ? LLAMA_FLASH_ATTN_TYPE_ENABLED
                             : lp.flash_attention == "off" ? LLAMA_FLASH_ATTN_TYPE_DISABLED
                                                           : LLAMA_FLASH_ATTN_TYPE_AUTO;
    params.cache_type_k = cache_type(lp.cache_type_k);
    params.cache_type_v = cache_type(lp.cache_type_v);
    params.cpuparams.n_threads = lp.n_threads > 0 ? lp.n_threads : default_threads(target);
    params.cpuparams_batch.n_threads = params.cpuparams.n_threads;
    // what llama.cpp's argument parser does after parsing: -1 threads becomes the number of math cores
    postprocess_cpu_params(params.cpuparams, nullptr);
    postprocess_cpu_params(params.cpuparams_batch, &params.cpuparams);
    ProgressTarget target_progress{&progress, "target"};
    params.load_progress_callback = on_progress;
    params.load_progress_callback_user_data = &target_progress;
    int draft_max = 0;
    if (draft) {
        draft_max = lp.draft_max > 0 ? std::min<int>(lp.draft_max, draft->block_size - 1) : (int)draft->block_size - 1;
        params.speculative.types = {COMMON_SPECULATIVE_TYPE_DRAFT_DFLASH};
        params.speculative.draft.mparams.path = lp.draft;
        params.speculative.draft.n_max = draft_max;
        params.speculative.draft.n_gpu_layers = lp.draft_gpu_layers;
        params.speculative.draft.cache_type_k = params.cache_type_k;
        params.speculative.draft.cache_type_v = params.cache_type_v;
        params.speculative.draft.cpuparams = params.cpuparams;
        params.speculative.draft.cpuparams_batch = params.cpuparams_batch;
    }

    m.init = common_init_from_params(params);
    m.model = m.init->model();
    m.ctx = m.init->context();
    if (m.model == nullptr) {
        throw EngineError(ErrorCode::InvalidModel, "llama.cpp could not load the target " + lp.target + ": " + log.summary());
    }
    if (m.ctx == nullptr) {
        throw EngineError(ErrorCode::InvalidArgument,
                          "llama.cpp could not create a context of " + std::to_string(lp.n_ctx) + " tokens: " + log.summary());
    }
    m.vocab = llama_model_get_vocab(m.model);

    if (draft) {
        common_params params_dft = common_base_params_to_speculative(params);
        ProgressTarget draft_progress{&progress, "draft"};
        if (lp.draft_window > 0) {
            // llama.cpp reads the window from the draft's metadata; its per-layer pattern must be there too
            if (!draft->window_pattern) {
                throw EngineError(ErrorCode::InvalidArgument,
                                  "a draft window needs a draft with sliding-window attention, and " + lp.draft +
                                      " has none (no dflash.attention.sliding_window_pattern): it attends to every position");
            }
            llama_model_kv_override window{};
            window.tag = LLAMA_KV_OVERRIDE_TYPE_INT;
            snprintf(window.key, sizeof(window.key), "dflash.attention.sliding_window");
            window.val_i64 = lp.draft_window;
            params_dft.kv_overrides = {window, llama_model_kv_override{}};
        }
        params_dft.load_progress_callback = on_progress;
        params_dft.load_progress_callback_user_data = &draft_progress;
        m.spec_init = common_speculative_init_from_params(params_dft, m.model, m.ctx);
        m.ctx_dft = m.spec_init->context();
        if (m.spec_init->model() == nullptr || m.ctx_dft == nullptr) {
            throw EngineError(ErrorCode::InvalidModel, "llama.cpp could not load the draft " + lp.draft + ": " + log.summary());
        }
        params.speculative.draft.ctx_tgt = m.ctx;
        params.speculative.draft.ctx_dft = m.ctx_dft;
        try {
            m.spec.reset(common_speculative_init(params.speculative, 1));
        } catch (const std::exception & e) {
            throw EngineError(ErrorCode::ModelMismatch, std::string("DFlash could not start: ") + e.what());
        }
        if (!m.spec) {
            throw EngineError(ErrorCode::ModelMismatch, "DFlash could not start: " + log.summary());
        }
        m.target_layers = draft->target_layers;
        m.pool.attach(params.cpuparams, m.ctx, m.ctx_dft);
        DraftControllerOptions copt;
        copt.n_max = draft_max;
        copt.adaptive = lp.draft_adaptive;
        m.controller = std::make_unique<DraftController>(copt);
        m.cost_cpu_time = runs_on_cpu(lp.n_gpu_layers);
        m.feed.init(m.ctx, m.ctx_dft, m.target_layers, FEED_CAPACITY);
    }
    m.mem.init(m.ctx, m.ctx_dft);
    m.prompt_cache = std::make_unique<PromptCache>(lp.cache_ram_bytes);
    m.batch = llama_batch_init(std::max(lp.n_batch, draft_max + 1), 0, 1);

    ModelInfo & info = engine->info_;
    char buf[256];
    info.arch = target.arch;
    info.name = llama_model_meta_val_str(m.model, "general.name", buf, sizeof(buf)) >= 0 ? buf : "";
    llama_model_desc(m.model, buf, sizeof(buf));
    info.description = buf;
    const char * tmpl = llama_model_chat_template(m.model, nullptr);
    info.chat_template = tmpl ? tmpl : "";
    info.n_ctx = (int)llama_n_ctx(m.ctx);
    info.n_ctx_train = llama_model_n_ctx_train(m.model);
    info.n_vocab = llama_vocab_n_tokens(m.vocab);
    info.n_embd = llama_model_n_embd(m.model);
    info.n_layer = llama_model_n_layer(m.model);
    info.size_bytes = llama_model_size(m.model);
    info.n_params = llama_model_n_params(m.model);
    info.n_threads = params.cpuparams.n_threads;
    info.bos = llama_vocab_bos(m.vocab);
    info.eos = llama_vocab_eos(m.vocab);
    info.bos_text = token_text(m.vocab, info.bos);
    info.eos_text = token_text(m.vocab, info.eos);
    info.add_bos = llama_vocab_get_add_bos(m.vocab);
    if (draft) {
        info.has_draft = true;
        info.draft_name = llama_model_meta_val_str(m.spec_init->model(), "general.name", buf, sizeof(buf)) >= 0 ? buf : "";
        info.draft_layers = (int)draft->n_layer;
        info.block_size = (int)draft->block_size;
        info.draft_max = draft_max;
        info.draft_adaptive = lp.draft_adaptive;
        info.draft_window = lp.draft_window > 0 ? lp.draft_window : (draft->window_pattern ? (int)draft->sliding_window : 0);
    }
    return engine;
}

std::vector<int32_t> Engine::tokenize(const std::string & text, bool add_special, bool parse_special) const {
    return common_tokenize(impl_->vocab, text, add_special, parse_special);
}

std::string Engine::detokenize(const std::vector<int32_t> & tokens, bool special) const {
    impl_->check_tokens(tokens);
    return common_detokenize(impl_->vocab, tokens, special);
}

std::vector<std::string> Engine::token_pieces(const std::vector<int32_t> & tokens) const {
    impl_->check_tokens(tokens);
    std::vector<std::string> pieces;
    for (const int32_t t : tokens) {
        pieces.push_back(common_token_to_piece(impl_->vocab, t, true));
    }
    return pieces;
}

PromptCacheInfo Engine::prompt_cache_info() const {
    return impl_->prompt_cache->info();
}

std::shared_ptr<ChatTemplates> Engine::chat_templates(const std::string & override_source) const {
    return std::make_shared<ChatTemplates>(impl_->model, override_source, "", "");
}

common_sampler * Engine::Impl::make_sampler(const GenerateParams & p) const {
    const SamplingParams & s = p.sampling;
    if (!std::isfinite(s.temperature) || s.top_p < 0 || s.top_p > 1 || s.min_p < 0 || s.min_p > 1 || s.repeat_last_n < -1) {
        throw EngineError(ErrorCode::InvalidArgument, "sampling parameters out of range (top_p and min_p in [0, 1], repeat_last_n >= -1)");
    }
    common_params_sampling sp;
    sp.temp = s.temperature;
    sp.top_k = s.top_k;
    sp.top_p = s.top_p;
    sp.min_p = s.min_p;
    sp.seed = s.seed;
    sp.penalty_repeat = s.repeat_penalty;
    sp.penalty_last_n = s.repeat_last_n;
    sp.penalty_freq = s.frequency_penalty;
    sp.penalty_present = s.presence_penalty;
    sp.ignore_eos = p.ignore_eos;
    const int32_t n_vocab = llama_vocab_n_tokens(vocab);
    for (const auto & [token, bias] : s.logit_bias) {
        if (token < 0 || token >= n_vocab) {
            throw EngineError(ErrorCode::InvalidArgument,
                              "logit bias for token " + std::to_string(token) + ", which is outside the vocabulary");
        }
        sp.logit_bias.push_back({token, bias});
    }
    if (p.ignore_eos) {
        for (llama_token t = 0; t < n_vocab; t++) {
            if (llama_vocab_is_eog(vocab, t)) {
                sp.logit_bias.push_back({t, -INFINITY});
            }
        }
    }
    if (!p.grammar.empty() && !p.json_schema.empty()) {
        throw EngineError(ErrorCode::InvalidArgument, "give a grammar or a JSON schema, not both");
    }
    if (!p.json_schema.empty()) {
        const common_json schema = common_json::parse_no_throw(p.json_schema);
        if (schema.is_discarded()) {
            throw EngineError(ErrorCode::InvalidArgument, "json_schema is not valid JSON");
        }
        try {
            sp.grammar = {COMMON_GRAMMAR_TYPE_OUTPUT_FORMAT, json_schema_to_grammar(schema)};
        } catch (const std::exception & e) {
            throw EngineError(ErrorCode::InvalidArgument, std::string("json_schema: ") + e.what());
        }
    } else if (!p.grammar.empty()) {
        const common_grammar_type type = p.grammar_kind == "tool_calls"      ? COMMON_GRAMMAR_TYPE_TOOL_CALLS
                                         : p.grammar_kind == "output_format" ? COMMON_GRAMMAR_TYPE_OUTPUT_FORMAT
                                                                             : COMMON_GRAMMAR_TYPE_USER;
        sp.grammar = {type, p.grammar};
    }
    sp.generation_prompt = p.generation_prompt;
    // as llama-server's grammar_triggers/preserved_tokens fields: single-token words trigger on the token
    for (const auto & t : p.preserved_tokens) {
        const auto ids = common_tokenize(vocab, t, false, true);
        if (ids.size() == 1) {
            sp.preserved_tokens.insert(ids[0]);
        }
    }
    sp.grammar_lazy = p.grammar_lazy;
    for (const auto & t : p.grammar_triggers) {
        if (t.type == "word") {
            const auto ids = common_tokenize(vocab, t.value, false, true);
            if (ids.size() == 1 && sp.preserved_tokens.count(ids[0])) {
                common_grammar_trigger trigger{COMMON_GRAMMAR_TRIGGER_TYPE_TOKEN, t.value, ids[0]};
                sp.grammar_triggers.push_back(trigger);
            } else {
                sp.grammar_triggers.push_back({COMMON_GRAMMAR_TRIGGER_TYPE_WORD, t.value});
            }
        } else if (t.type == "pattern" || t.type == "pattern_full") {
            sp.grammar_triggers.push_back(
                {t.type == "pattern" ? COMMON_GRAMMAR_TRIGGER_TYPE_PATTERN : COMMON_GRAMMAR_TRIGGER_TYPE_PATTERN_FULL, t.value});
        } else {
            throw EngineError(ErrorCode::InvalidArgument,
                              "grammar trigger type must be word, pattern or pattern_full, got '" + t.type + "'");
        }
    }
    if (sp.grammar_lazy && sp.grammar_triggers.empty()) {
        throw EngineError(ErrorCode::InvalidArgument, "a lazy grammar needs at least one trigger");
    }
    LogCapture log;
    common_sampler * smpl = nullptr;
    std::string why;
    try {
        smpl = common_sampler_init(model, sp);
    } catch (const std::invalid_argument & e) {
        throw EngineError(ErrorCode::InvalidArgument, e.what());  // e.g. a repetition penalty <= 0
    } catch (const std::exception & e) {
        why = e.what();
    }
    if (smpl == nullptr) {
        // llama.cpp's grammar parser logs where the text is wrong; the exception only says that it is
        const std::string where = log.summary();
        throw EngineError(ErrorCode::InvalidArgument, "grammar does not parse: " + (where.empty() ? why : where));
    }
    return smpl;
}

namespace {

// The request's fields joined by its chat prompt's constraints, as llama-server joins them: the chat layer's
// grammar unless the request brings its own, and the prompt's stops after the request's.
GenerateParams with_chat_prompt(const GenerateParams & request) {
    GenerateParams p = request;
    if (!request.chat) {
        return p;
    }
    const ChatPrompt & chat = *request.chat;
    p.stop.insert(p.stop.end(), chat.additional_stops.begin(), chat.additional_stops.end());
    if (p.grammar.empty()) {
        p.grammar = chat.grammar;
        p.grammar_kind = chat.grammar_kind.empty() ? "user" : chat.grammar_kind;
        p.grammar_lazy = chat.grammar_lazy;
        p.grammar_triggers = chat.grammar_triggers;
    }
    p.preserved_tokens = chat.preserved_tokens;
    p.generation_prompt = chat.generation_prompt;
    return p;
}

}  // namespace

GenerateResult Engine::generate(const GenerateParams & request, const TokenFn & on_token, const std::atomic<bool> & abort) {
    Impl & m = *impl_;
    const GenerateParams p = with_chat_prompt(request);
    if (p.prompt.empty()) {
        throw EngineError(ErrorCode::InvalidArgument, "the prompt has no tokens");
    }
    if (p.max_tokens < 1) {
        throw EngineError(ErrorCode::InvalidArgument, "max_tokens must be at least 1");
    }
    m.check_tokens(p.prompt);
    const int n_ctx = (int)llama_n_ctx(m.ctx);
    const int64_t n_prompt = (int64_t)p.prompt.size();
    if (n_prompt + p.max_tokens > n_ctx) {
        throw EngineError(ErrorCode::ContextOverflow,
                          "input length and max_tokens exceed context limit: " + std::to_string(n_prompt) + " + " +
                              std::to_string(p.max_tokens) + " > " + std::to_string(n_ctx),
                          {{"promptTokens", n_prompt}, {"maxTokens", p.max_tokens}, {"contextSize", n_ctx}});
    }
    common_sampler_ptr smpl(m.make_sampler(p));
    const bool use_spec = m.spec && p.speculative;
    m.set_extraction(use_spec);

    GenerateResult result;
    GenerateStats & st = result.stats;
    st.speculative = use_spec;
    st.prompt_tokens = (int)n_prompt;

    // another conversation's prefix may be in host memory; then reuse the longest common prefix (the last
    // prompt token is always decoded for its logits)
    st.prompt_restored = (int)m.prompt_cache->prepare(m.ctx, m.ctx_dft, cache_, m.draft_valid, p.prompt);
    size_t n_keep = 0;
    while (n_keep < cache_.size() && n_keep < p.prompt.size() && cache_[n_keep] == p.prompt[n_keep]) {
        n_keep++;
    }
    if (use_spec) {
        n_keep = std::min(n_keep, m.draft_valid);
    }
    n_keep = std::min(n_keep, p.prompt.size() - 1);
    m.mem.seq_rm(0, (llama_pos)n_keep, -1);
    cache_.resize(n_keep);
    m.draft_valid = std::min(m.draft_valid, n_keep);
    st.prompt_restored = std::min(st.prompt_restored, (int)n_keep);
    struct LiveReport {
        Impl & m;
        const std::vector<int32_t> & cache;
        ~LiveReport() { m.prompt_cache->set_live(cache.size()); }
    } live_report{m, cache_};

    m.abort = &abort;
    llama_set_abort_callback(
        m.ctx, [](void * data) { return static_cast<Impl *>(data)->abort->load(); }, &m);
    struct AbortReset {
        Impl & m;
        ~AbortReset() {
            llama_set_abort_callback(m.ctx, nullptr, nullptr);
            m.abort = nullptr;
        }
    } abort_reset{m};

    // Decodes the batch into the target (and feeds the draft). On failure the cache is cut back to what
    // is known to be valid, since an interrupted decode may leave the batch half written.
    auto decode = [&](bool feed_draft) -> bool {
        const int rc = llama_decode(m.ctx, m.batch);
        if (rc == 0) {
            llama_synchronize(m.ctx);
        }
        if (rc == 0 && feed_draft && !common_speculative_process(m.spec.get(), m.batch)) {
            throw EngineError(ErrorCode::Decode, "the DFlash draft failed to take the target's features");
        }
        if (rc != 0) {
            m.mem.seq_rm(0, (llama_pos)cache_.size(), -1);
            m.draft_valid = std::min(m.draft_valid, cache_.size());
            if (rc == 2) {
                return false;  // aborted
            }
            throw EngineError(ErrorCode::Decode, "llama_decode failed with status " + std::to_string(rc));
        }
        return true;
    };

    const int64_t t_prompt = ggml_time_us();
    st.prompt_evaluated = (int)(n_prompt - (int64_t)n_keep);
    const int n_batch = (int)llama_n_batch(m.ctx);
    for (size_t i = n_keep; i < p.prompt.size(); i += n_batch) {
        const size_t end = std::min(p.prompt.size(), i + n_batch);
        common_batch_clear(m.batch);
        for (size_t j = i; j < end; j++) {
            common_batch_add(m.batch, p.prompt[j], (llama_pos)j, {0}, j + 1 == p.prompt.size());
        }
        if (abort.load() || !decode(use_spec)) {
            result.stop_reason = "abort";
            st.prompt_ms = ms_since(t_prompt);
            return result;
        }
        cache_.insert(cache_.end(), p.prompt.begin() + i, p.prompt.begin() + end);
        if (use_spec) {
            m.draft_valid = cache_.size();
        }
    }
    for (llama_token t : p.prompt) {
        common_sampler_accept(smpl.get(), t, false);
    }
    // Samples the batch's logits from index `first` on, verifying `drafted`. A complete grammar allows only
    // the end of generation; when ignore_eos or a logit bias bans it too, every token is banned and the
    // sampler still picks one. Which one differs between CPUs: llama.cpp's grammar throws on accepting most,
    // but not on a control token whose piece is empty, which then repeats to max_tokens. So the pick is
    // refused when it was banned (its logit is -inf), whatever it is.
    auto sample = [&](int first, const std::vector<llama_token> & drafted) {
        std::vector<int> idxs(drafted.size() + 1);
        std::iota(idxs.begin(), idxs.end(), first);
        const std::string why = "the grammar is complete but the end of generation is banned (ignore_eos or a logit bias): ";
        std::vector<llama_token> ids;
        try {
            ids = common_sampler_sample_and_accept_n(smpl.get(), m.ctx, idxs, drafted);
        } catch (const std::runtime_error & e) {
            throw EngineError(ErrorCode::InvalidArgument, why + e.what());
        }
        // the candidates of the last position sampled, where the verification stopped
        const llama_token_data_array * cur = common_sampler_get_candidates(smpl.get(), false);
        if (cur->selected >= 0 && std::isinf(cur->data[cur->selected].logit) && cur->data[cur->selected].logit < 0) {
            throw EngineError(ErrorCode::InvalidArgument, why + "nothing else may follow");
        }
        return ids;
    };
    llama_token id = sample(m.batch.n_tokens - 1, {})[0];
    st.prompt_ms = ms_since(t_prompt);
    if (use_spec) {
        common_speculative_begin(m.spec.get(), 0, cache_);
    }

    const int64_t t_gen = ggml_time_us();
    TextStream text(p.stop);
    // the assistant message, parsed here as the output grows: no text goes to JavaScript and back to be parsed
    std::optional<ChatOutputStream> message;
    if (p.parse_message && p.chat) {
        message.emplace(*p.chat);
    }
    const auto parse = [&](const std::function<std::vector<MessageDelta>()> & run) -> std::vector<MessageDelta> {
        try {
            return run();
        } catch (const EngineError & e) {
            // a parse that fails ends the message's parses: the request reports it once generation ended
            result.message_error = e;
            message.reset();
            return {};
        }
    };
    std::set<llama_token> preserved;
    for (const auto & t : p.preserved_tokens) {
        const auto ids = common_tokenize(m.vocab, t, false, true);
        if (ids.size() == 1) {
            preserved.insert(ids[0]);
        }
    }
    // Takes one generated token, sampled from the logits at batch index `idx`; false when generation ends with it.
    auto emit = [&](llama_token t, int idx, bool more_follow) -> bool {
        result.tokens.push_back(t);
        st.generated_tokens++;
        const TokenLogprobs * lp = nullptr;
        // not for the end of generation, which no API shows as a token
        if (p.logprobs && !llama_vocab_is_eog(m.vocab, t)) {
            result.logprobs.push_back(token_logprobs(m.ctx, m.vocab, idx, t, p.top_logprobs));
            lp = &result.logprobs.back();
        }
        if (!p.ignore_eos && llama_vocab_is_eog(m.vocab, t)) {
            on_token({t, "", lp, (int)n_keep});
            result.stop_reason = "eos";
            return false;
        }
        // like llama-server: control tokens print only when the template marked them as preserved
        const std::string released = text.push(common_token_to_piece(m.vocab, t, preserved.count(t) > 0));
        std::vector<MessageDelta> deltas;
        if (message && p.stream_message && !released.empty()) {
            deltas = parse([&] { return message->append(well_formed_utf8(released)); });
        }
        on_token({t, released, lp, (int)n_keep, deltas.empty() ? nullptr : &deltas, more_follow});
        if (text.stopped()) {
            result.stop_reason = "stop";
            result.stop_string = text.stop_string();
            return false;
        }
        if (st.generated_tokens >= p.max_tokens) {
            result.stop_reason = "length";
            return false;
        }
        return true;
    };

    bool running = emit(id, m.batch.n_tokens - 1, false);
    std::vector<llama_token> draft;
    if (use_spec) {
        m.feed.clear();  // what an interrupted request held is a gap in the draft's cache now
        st.adaptive = p.draft_adaptive < 0 ? m.controller->options().adaptive : p.draft_adaptive == 1;
        st.choices.assign(m.controller->options().n_max + 1, 0);
    }
    // The controller's clock is a system call on the CPU (this thread's CPU time): on the 2-core test machine the
    // four reads a step used to make cost a plain request ~7 % of its speed. So a DFlash request reads it at every
    // step that drafts and at one plain step in PLAIN_COST_SAMPLE (the controller keeps medians), a plain request never.
    const auto cost_now = [&] { return cost_clock_ms(m.cost_cpu_time); };
    int plain_steps = 0;
    while (running) {
        if (abort.load()) {
            result.stop_reason = "abort";
            break;
        }
        const llama_pos n_past = (llama_pos)cache_.size();
        const int64_t t_step = ggml_time_us();
        draft.clear();
        int n_draft = 0;
        double draft_cost = 0;  // drafting and injecting this step's features, for the controller (cost clock)
        double process_cost = 0;  // of it, the injection after the verify
        bool measured = false;  // this step's costs go to the controller
        double c_begin = 0;
        if (use_spec) {
            const int limit = std::min({m.params.speculative.draft.n_max, n_ctx - n_past - 2, p.max_tokens - st.generated_tokens - 1});
            n_draft = st.adaptive ? m.controller->choose(n_past, limit) : std::max(0, limit);
            st.choices[n_draft]++;
            st.probes += st.adaptive && m.controller->last_was_probe() ? 1 : 0;
            st.last_choice = n_draft;
            measured = n_draft > 0 || plain_steps++ % PLAIN_COST_SAMPLE == 0;
            c_begin = measured ? cost_now() : 0;
            if (n_draft > 0) {
                int64_t t0 = ggml_time_us();
                if (m.feed.pending() > 0) {  // features of the plain steps since the last draft
                    if (!m.feed.flush()) {
                        throw EngineError(ErrorCode::Decode, "the DFlash draft failed to take the target's features");
                    }
                    m.draft_valid = cache_.size();
                    st.draft_ms += ms_since(t0);
                    t0 = ggml_time_us();
                }
                const double c0 = cost_now();
                auto & dp = common_speculative_get_draft_params(m.spec.get(), 0);
                dp = {true, n_draft, n_past, id, &cache_, &draft};
                common_speculative_draft(m.spec.get());
                // the noise block left keys and values in the draft's cache past the committed tokens
                m.mem.seq_rm(0, n_past, -1);
                draft_cost = cost_now() - c0;
                st.draft_ms += ms_since(t0);
            }
        }
        common_batch_clear(m.batch);
        common_batch_add(m.batch, id, n_past, {0}, true);
        for (size_t i = 0; i < draft.size(); i++) {
            common_batch_add(m.batch, draft[i], n_past + 1 + (llama_pos)i, {0}, true);
        }
        const int64_t t_verify = ggml_time_us();
        const double c_verify = measured ? cost_now() : 0;
        const int rc = llama_decode(m.ctx, m.batch);
        if (rc == 2) {
            m.mem.seq_rm(0, n_past, -1);
            result.stop_reason = "abort";
            break;
        }
        if (rc != 0) {
            m.mem.seq_rm(0, n_past, -1);
            throw EngineError(ErrorCode::Decode, "llama_decode failed with status " + std::to_string(rc));
        }
        llama_synchronize(m.ctx);
        const double verify_ms = ms_since(t_verify);
        st.target_decodes++;
        if (use_spec && !draft.empty()) {
            const int64_t t0 = ggml_time_us();
            const double c0 = cost_now();
            if (!common_speculative_process(m.spec.get(), m.batch)) {
                throw EngineError(ErrorCode::Decode, "the DFlash draft failed to take the target's features");
            }
            process_cost = cost_now() - c0;
            draft_cost += process_cost;
            st.draft_ms += ms_since(t0);
        } else if (use_spec) {
            // a plain step: the draft takes these features before it next drafts, or now when the buffer is full
            // (its cache must hold every position in order: llama.cpp refuses a gap)
            if (m.feed.pending() + (size_t)m.batch.n_tokens > FEED_CAPACITY && !m.feed.flush()) {
                throw EngineError(ErrorCode::Decode, "the DFlash draft failed to take the target's features");
            }
            m.feed.hold(m.batch);
        }
        const int64_t t_sample = ggml_time_us();
        const std::vector<llama_token> ids = sample(0, draft);
        const double c_done = measured ? cost_now() : 0;
        st.sample_ms += ms_since(t_sample);
        const size_t n_acc = ids.size() - 1;
        if (use_spec) {
            if (measured) {
                m.controller->observe_step_cost(m.batch.n_tokens, c_done - c_verify - process_cost);
                if (st.adaptive) {
                    m.controller->observe_whole_step(c_done - c_begin);
                }
            }
            m.controller->observe(n_past, (int)draft.size(), (int)n_acc);
            if (!draft.empty()) {
                m.controller->observe_draft_cost(draft_cost);
            }
            ContextBucketStats & bucket = st.by_context[context_bucket(n_past)];
            bucket.steps += draft.empty() ? 0 : 1;
            bucket.plain_steps += draft.empty() ? 1 : 0;
            bucket.drafted += (int)draft.size();
            bucket.accepted += (int)n_acc;
            (draft.empty() ? bucket.plain_ms : bucket.step_ms) += ms_since(t_step);
        }
        if (!draft.empty()) {
            common_speculative_accept(m.spec.get(), 0, (uint16_t)n_acc);
            st.draft_steps++;
            st.verify_ms += verify_ms;
            st.drafted += (int)draft.size();
            st.accepted += (int)n_acc;
            if (st.drafted_at.size() < draft.size()) {
                st.drafted_at.resize(draft.size(), 0);
                st.accepted_at.resize(draft.size(), 0);
            }
            for (size_t i = 0; i < draft.size(); i++) {
                st.drafted_at[i]++;
                st.accepted_at[i] += i < n_acc ? 1 : 0;
            }
        }
        // keys and values now hold id and the accepted drafts; the rejected tail goes
        cache_.push_back(id);
        cache_.insert(cache_.end(), ids.begin(), ids.end() - 1);
        m.mem.seq_rm(0, (llama_pos)cache_.size(), -1);
        if (use_spec && m.feed.pending() == 0) {
            m.draft_valid = cache_.size();
        }
        for (size_t i = 0; i < ids.size(); i++) {
            if (!(running = emit(ids[i], (int)i, i + 1 < ids.size()))) {
                break;
            }
        }
        id = ids.back();
    }
    const std::string rest = text.finish();
    if (!rest.empty()) {
        on_token({LLAMA_TOKEN_NULL, rest, nullptr, (int)n_keep});
    }
    result.text = text.text();
    if (message && result.stop_reason != "abort") {
        const bool complete = result.stop_reason == "eos" || result.stop_reason == "stop";
        result.message_deltas = parse([&] { return message->finish(well_formed_utf8(result.text), complete); });
    }
    st.generate_ms = ms_since(t_gen);
    if (use_spec) {
        // the next request may reuse this prefix only if the draft has taken its features; this is the next
        // request's preparation (all tokens are out), so generate_ms leaves it out
        if (m.feed.pending() > 0 && m.feed.flush()) {
            m.draft_valid = cache_.size();
        }
        st.break_even = m.controller->break_even((int)cache_.size());
    }
    return result;
}

}  // namespace cts
