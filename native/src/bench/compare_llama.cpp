#include "compare_llama.h"

#include "engine.h"

#include "llama.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>

namespace cts_bench {
namespace {

struct Figures {
    double prefill = 0, decode = 0;  // tokens per second
};

struct Setting {
    bool flash_attention;
    int batch;
};

// the settings a llama.cpp user would try: flash attention on and off, llama.cpp's ubatch and a large one
const Setting SETTINGS[] = {{false, 512}, {false, 2048}, {true, 512}, {true, 2048}};

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// a prompt of n tokens that no other shares a prefix with: ids cycle through the vocabulary from `seed`
std::vector<llama_token> prompt_of(int n, int seed, int n_vocab) {
    std::vector<llama_token> p(n);
    for (int i = 0; i < n; i++)
        p[i] = (llama_token)(1 + (seed * 7919 + i * 31) % (n_vocab - 1));
    return p;
}

Figures run_llama(llama_model * model, const std::vector<llama_token> & prompt, int tokens, const Setting & s, int n_ctx, int n_threads) {
    llama_context_params cp = llama_context_default_params();
    cp.n_ctx = n_ctx;
    cp.n_batch = s.batch;
    cp.n_ubatch = s.batch;
    cp.flash_attn_type = s.flash_attention ? LLAMA_FLASH_ATTN_TYPE_ENABLED : LLAMA_FLASH_ATTN_TYPE_DISABLED;
    cp.n_threads = cp.n_threads_batch = n_threads;
    std::unique_ptr<llama_context, decltype(&llama_free)> ctx(llama_init_from_model(model, cp), llama_free);
    if (!ctx)
        throw std::runtime_error("llama.cpp could not create a context");
    const int n_vocab = llama_vocab_n_tokens(llama_model_get_vocab(model));
    const auto argmax = [&]() {
        const float * logits = llama_get_logits_ith(ctx.get(), -1);
        return (llama_token)(std::max_element(logits, logits + n_vocab) - logits);
    };
    const double t0 = now_ms();
    for (size_t i = 0; i < prompt.size(); i += s.batch) {
        const int n = (int)std::min<size_t>(s.batch, prompt.size() - i);
        if (llama_decode(ctx.get(), llama_batch_get_one(const_cast<llama_token *>(prompt.data() + i), n)) != 0)
            throw std::runtime_error("llama_decode failed in the prompt");
    }
    llama_token next = argmax();
    const double t1 = now_ms();
    for (int i = 0; i < tokens; i++) {
        if (llama_decode(ctx.get(), llama_batch_get_one(&next, 1)) != 0)
            throw std::runtime_error("llama_decode failed while decoding");
        next = argmax();
    }
    const double t2 = now_ms();
    return {prompt.size() / ((t1 - t0) / 1000.0), tokens / ((t2 - t1) / 1000.0)};
}

}  // namespace

int compare_llama(const CompareParams & p) {
    const int longest = *std::max_element(p.prompts.begin(), p.prompts.end());
    const int n_ctx = longest + p.tokens + 64;
    cts::LoadParams lp;
    lp.target = p.target;
    lp.n_ctx = n_ctx;
    lp.n_gpu_layers = p.n_gpu_layers;
    lp.n_threads = p.n_threads;
    auto engine = cts::Engine::load(lp, nullptr);
    const int n_vocab = engine->info().n_vocab;
    // llama.cpp's context default is 4 threads whatever the machine: both sides run on the engine's choice
    const int n_threads = engine->info().n_threads;
    std::vector<Figures> ours;
    std::atomic<bool> no_abort{false};
    for (size_t i = 0; i < p.prompts.size(); i++) {
        cts::GenerateParams gp;
        gp.prompt = prompt_of(p.prompts[i], (int)i + 1, n_vocab);
        gp.sampling.temperature = 0;
        gp.ignore_eos = true;
        gp.max_tokens = p.tokens;
        gp.speculative = false;
        const auto r = engine->generate(
            gp, [](const cts::TokenEvent &) {}, no_abort);
        ours.push_back(
            {r.stats.prompt_evaluated / (r.stats.prompt_ms / 1000.0), r.stats.generated_tokens / (r.stats.generate_ms / 1000.0)});
    }
    engine.reset();

    llama_model_params mp = llama_model_default_params();
    mp.n_gpu_layers = p.n_gpu_layers < 0 ? 999 : p.n_gpu_layers;
    std::unique_ptr<llama_model, decltype(&llama_model_free)> model(llama_model_load_from_file(p.target.c_str(), mp), llama_model_free);
    if (!model)
        throw std::runtime_error("llama.cpp could not load " + p.target);
    printf("engine vs a plain llama.cpp context (best of fa off/on x batch 512/2048), %d decoded tokens, tok/s\n", p.tokens);
    printf("%7s %9s %9s %6s %9s %9s %6s\n", "prompt", "prefill", "llama", "ratio", "decode", "llama", "ratio");
    std::string json;
    for (size_t i = 0; i < p.prompts.size(); i++) {
        Figures best;
        const auto prompt = prompt_of(p.prompts[i], (int)p.prompts.size() + (int)i + 1, n_vocab);
        for (const Setting & s : SETTINGS) {
            const Figures f = run_llama(model.get(), prompt, p.tokens, s, n_ctx, n_threads);
            best.prefill = std::max(best.prefill, f.prefill);
            best.decode = std::max(best.decode, f.decode);
        }
        printf("%7d %9.0f %9.0f %5.2fx %9.1f %9.1f %5.2fx\n", p.prompts[i], ours[i].prefill, best.prefill, ours[i].prefill / best.prefill,
               ours[i].decode, best.decode, ours[i].decode / best.decode);
        char buf[256];
        snprintf(buf, sizeof(buf),
                 "%s{\"prompt\": %d, \"ours_prefill\": %.1f, \"llama_prefill\": %.1f, \"ours_decode\": %.2f, \"llama_decode\": %.2f}",
                 json.empty() ? "" : ", ", p.prompts[i], ours[i].prefill, best.prefill, ours[i].decode, best.decode);
        json += buf;
    }
    if (p.json)
        printf("{\"points\": [%s]}\n", json.c_str());
    return 0;
}

}  // namespace cts_bench
