#include "model_check.h"

#include "errors.h"
#include "logging.h"

#include "gguf.h"

#include <filesystem>
#include <memory>

namespace cts {

namespace {

struct GgufFree {
    void operator()(gguf_context * ctx) const { gguf_free(ctx); }
};

[[noreturn]] void invalid(const std::string & path, const std::string & what) {
    throw EngineError(ErrorCode::InvalidModel, path + ": " + what);
}

// gguf_get_val_* abort on a type mismatch, so every read checks the type first
uint32_t get_u32(gguf_context * ctx, const std::string & path, const std::string & key) {
    const int64_t id = gguf_find_key(ctx, key.c_str());
    if (id < 0) {
        invalid(path, "missing metadata '" + key + "'");
    }
    switch (gguf_get_kv_type(ctx, id)) {
        case GGUF_TYPE_UINT32:
            return gguf_get_val_u32(ctx, id);
        case GGUF_TYPE_INT32: {
            const int32_t v = gguf_get_val_i32(ctx, id);
            if (v < 0) {
                invalid(path, "metadata '" + key + "' is negative");
            }
            return (uint32_t)v;
        }
        default:
            invalid(path, "metadata '" + key + "' has type " + gguf_type_name(gguf_get_kv_type(ctx, id)) + ", expected uint32");
    }
}

std::string get_str(gguf_context * ctx, const std::string & path, const std::string & key) {
    const int64_t id = gguf_find_key(ctx, key.c_str());
    if (id < 0) {
        invalid(path, "missing metadata '" + key + "'");
    }
    if (gguf_get_kv_type(ctx, id) != GGUF_TYPE_STRING) {
        invalid(path, "metadata '" + key + "' is not a string");
    }
    return gguf_get_val_str(ctx, id);
}

}  // namespace

GgufSummary inspect_model(const std::string & path, const char * role) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        throw EngineError(ErrorCode::FileNotFound, std::string(role) + " model not found: " + path);
    }
    LogCapture log;
    std::unique_ptr<gguf_context, GgufFree> ctx(gguf_init_from_file(path.c_str(), {/*no_alloc*/ true, /*ctx*/ nullptr}));
    if (!ctx) {
        const std::string why = log.summary();
        invalid(path, "not a readable GGUF file" + (why.empty() ? std::string() : " (" + why + ")"));
    }
    GgufSummary s;
    s.path = path;
    s.arch = get_str(ctx.get(), path, "general.architecture");
    s.n_embd = get_u32(ctx.get(), path, s.arch + ".embedding_length");
    s.n_layer = get_u32(ctx.get(), path, s.arch + ".block_count");
    if (s.n_embd == 0) {
        invalid(path, s.arch + ".embedding_length is 0");
    }
    // llama.cpp's LLAMA_MAX_LAYERS
    if (s.n_layer == 0 || s.n_layer > 512) {
        invalid(path, s.arch + ".block_count is " + std::to_string(s.n_layer) + " (1 to 512 supported)");
    }
    const int64_t tok = gguf_find_key(ctx.get(), "tokenizer.ggml.tokens");
    if (tok < 0 || gguf_get_kv_type(ctx.get(), tok) != GGUF_TYPE_ARRAY || gguf_get_arr_type(ctx.get(), tok) != GGUF_TYPE_STRING ||
        gguf_get_arr_n(ctx.get(), tok) == 0) {
        invalid(path, "no vocabulary (tokenizer.ggml.tokens)");
    }
    const size_t n_vocab = gguf_get_arr_n(ctx.get(), tok);
    s.tokens.reserve(n_vocab);
    for (size_t i = 0; i < n_vocab; i++) {
        s.tokens.emplace_back(gguf_get_arr_str(ctx.get(), tok, i));
    }
    if (s.arch == "dflash") {
        const int64_t tl = gguf_find_key(ctx.get(), "dflash.target_layers");
        if (tl < 0 || gguf_get_kv_type(ctx.get(), tl) != GGUF_TYPE_ARRAY ||
            (gguf_get_arr_type(ctx.get(), tl) != GGUF_TYPE_INT32 && gguf_get_arr_type(ctx.get(), tl) != GGUF_TYPE_UINT32) ||
            gguf_get_arr_n(ctx.get(), tl) == 0) {
            invalid(path, "DFlash draft without dflash.target_layers");
        }
        const auto * ids = (const int32_t *)gguf_get_arr_data(ctx.get(), tl);
        s.target_layers.assign(ids, ids + gguf_get_arr_n(ctx.get(), tl));
        s.block_size = gguf_find_key(ctx.get(), "dflash.block_size") >= 0 ? get_u32(ctx.get(), path, "dflash.block_size") : 16;
        if (s.block_size < 2) {
            invalid(path, "dflash.block_size must be at least 2");
        }
        s.sliding_window = gguf_find_key(ctx.get(), "dflash.attention.sliding_window") >= 0
                               ? get_u32(ctx.get(), path, "dflash.attention.sliding_window")
                               : 0;
        s.window_pattern = gguf_find_key(ctx.get(), "dflash.attention.sliding_window_pattern") >= 0;
        s.mask_id = gguf_find_key(ctx.get(), "tokenizer.ggml.mask_token_id") >= 0
                        ? (int64_t)get_u32(ctx.get(), path, "tokenizer.ggml.mask_token_id")
                        : -1;
    }
    return s;
}

void check_draft_pair(const GgufSummary & target, const GgufSummary & draft) {
    auto mismatch = [&](const std::string & why) {
        throw EngineError(ErrorCode::ModelMismatch, "draft " + draft.path + " does not fit target " + target.path + ": " + why);
    };
    if (draft.arch != "dflash") {
        mismatch("its architecture is '" + draft.arch + "', a DFlash draft has 'dflash'");
    }
    if (target.arch == "dflash") {
        mismatch("the target is itself a DFlash draft");
    }
    // the draft reads the target's hidden states and borrows its embeddings and LM head
    if (draft.n_embd != target.n_embd) {
        mismatch("draft n_embd " + std::to_string(draft.n_embd) + " != target n_embd " + std::to_string(target.n_embd));
    }
    for (int32_t id : draft.target_layers) {
        if (id < 0 || (uint32_t)id >= target.n_layer) {
            mismatch("dflash.target_layers names layer " + std::to_string(id) + " but the target has " + std::to_string(target.n_layer) +
                     " layers");
        }
    }
    if (draft.tokens.size() != target.tokens.size()) {
        mismatch("tokenizer differs: draft has " + std::to_string(draft.tokens.size()) + " tokens, target " +
                 std::to_string(target.tokens.size()));
    }
    for (size_t i = 0; i < draft.tokens.size(); i++) {
        if (draft.tokens[i] != target.tokens[i]) {
            mismatch("tokenizer differs at token " + std::to_string(i) + ": '" + draft.tokens[i] + "' vs '" + target.tokens[i] + "'");
        }
    }
    if (draft.mask_id < 0 || (size_t)draft.mask_id >= draft.tokens.size()) {
        mismatch("the draft has no valid tokenizer.ggml.mask_token_id");
    }
}

}  // namespace cts
