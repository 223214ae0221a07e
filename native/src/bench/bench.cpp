// dflash-bench: plain vs DFlash decoding of one pair through the engine library, where Node is absent
// (the GPU check builds llama.cpp with CUDA and runs this). The Node CLI's `chat-template bench` reports
// the same figures through the addon.
#include "backend.h"
#include "compare_llama.h"
#include "engine.h"
#include "errors.h"
#include "make_models.h"

#include "llama.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace {

const char * USAGE =
    "usage:\n"
    "  dflash-bench make-models DIR [--shape tiny|qwen3-8b] [--kind constructed|falling|random] [--type f32|f16|q8_0] [--seed N]\n"
    "  dflash-bench run --target T --draft D [--tokens N] [--prompt N] [--ctx N] [--gpu-layers N] [--threads N] [--flash-attn "
    "auto|on|off]\n"
    "                   [--draft-max N] [--draft-adaptive on|off] [--context-sweep N,N,...] [--json]\n"
    "  dflash-bench compare-llama --target T [--prompts N,N,...] [--tokens N] [--gpu-layers N] [--threads N] [--json]\n";

struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::string> values;
    bool has(const std::string & k) const { return values.count(k) > 0; }
    std::string get(const std::string & k, const std::string & def) const { return has(k) ? values.at(k) : def; }
    int num(const std::string & k, int def) const { return has(k) ? std::atoi(values.at(k).c_str()) : def; }
};

Args parse(int argc, char ** argv, int from) {
    Args a;
    for (int i = from; i < argc; i++) {
        std::string s = argv[i];
        if (s == "--json") {
            a.values["json"] = "1";
        } else if (s.rfind("--", 0) == 0 && i + 1 < argc) {
            a.values[s.substr(2)] = argv[++i];
        } else {
            a.positional.push_back(s);
        }
    }
    return a;
}

// the folder of the llama.cpp libraries this binary runs on, where its ggml backends are
std::string library_dir() {
    Dl_info info{};
    if (dladdr((void *)&llama_backend_init, &info) && info.dli_fname) {
        std::string p = info.dli_fname;
        return p.substr(0, p.find_last_of('/'));
    }
    return "";
}

int run(const Args & a) {
    if (!a.has("target") || !a.has("draft")) {
        fputs(USAGE, stderr);
        return 2;
    }
    cts::backend_init({library_dir()}, getenv("CTS_LLAMA_LOG") != nullptr);
    for (const auto & d : cts::backend_devices()) {
        fprintf(stderr, "device: %s (%s, %s), %.1f GiB\n", d.name.c_str(), d.description.c_str(), d.backend.c_str(),
                d.memory_total / 1073741824.0);
    }
    cts::LoadParams lp;
    lp.target = a.get("target", "");
    lp.draft = a.get("draft", "");
    lp.n_ctx = a.num("ctx", 4096);
    lp.n_gpu_layers = a.num("gpu-layers", -1);
    lp.draft_gpu_layers = lp.n_gpu_layers;
    lp.n_threads = a.num("threads", 0);
    lp.flash_attention = a.get("flash-attn", "auto");
    lp.draft_max = a.num("draft-max", 0);
    lp.draft_adaptive = a.get("draft-adaptive", "on") != "off";
    auto engine = cts::Engine::load(lp, nullptr);
    const int n_tokens = a.num("tokens", 256), n_prompt = a.num("prompt", 64);
    cts::GenerateParams gp;
    // the constructed pairs' cycle "abc…x" (byte tokens), so their drafts are right from the first step
    for (int i = 0; i < n_prompt; i++)
        gp.prompt.push_back('a' + i % 24);
    gp.sampling.temperature = 0;
    gp.ignore_eos = true;
    std::atomic<bool> no_abort{false};
    auto gen = [&](bool spec, int n, int adaptive = -1) {
        gp.speculative = spec;
        gp.max_tokens = n;
        gp.draft_adaptive = adaptive;
        return engine->generate(
            gp, [](const cts::TokenEvent &) {}, no_abort);
    };
    gen(false, 8);  // warm up both paths (allocations, kernels, caches)
    gen(true, 8);
    const cts::GenerateResult plain = gen(false, n_tokens);
    const cts::GenerateResult fl = gen(true, n_tokens);
    const auto & p = plain.stats;
    const auto & d = fl.stats;
    const double plain_tps = p.generated_tokens / (p.generate_ms / 1000.0);
    const double dflash_tps = d.generated_tokens / (d.generate_ms / 1000.0);
    const double acceptance = d.drafted ? (double)d.accepted / d.drafted : 0.0;
    const double t_plain_step = p.generate_ms / std::max(1, p.target_decodes);
    const double t_verify = d.draft_steps ? d.verify_ms / d.draft_steps : 0.0;
    const double t_draft = d.draft_steps ? d.draft_ms / d.draft_steps : 0.0;
    const double tau = (double)d.generated_tokens / std::max(1, d.target_decodes);
    const double ideal = t_verify + t_draft > 0 ? tau * t_plain_step / (t_verify + t_draft) : 0.0;
    const double speedup = dflash_tps / plain_tps;
    const bool lossless = plain.tokens == fl.tokens;
    printf("target: %s\ndraft:  %s (block %d, drafts up to %d)\n", engine->info().description.c_str(), engine->info().draft_name.c_str(),
           engine->info().block_size, engine->info().draft_max);
    printf("plain : %d tokens, %.1f tok/s, %.3f ms per step\n", p.generated_tokens, plain_tps, t_plain_step);
    printf("dflash: %d tokens, %.1f tok/s, acceptance %.1f%%, %.2f tokens per step, verify %.3f ms + draft %.3f ms per step\n",
           d.generated_tokens, dflash_tps, acceptance * 100, tau, t_verify, t_draft);
    printf("speedup %.2fx of ideal %.2fx (%.0f%%), lossless: %s\n", speedup, ideal, ideal > 0 ? 100 * speedup / ideal : 0.0,
           lossless ? "yes" : "NO");
    if (d.adaptive) {
        printf("controller: drafted per step");
        for (size_t n = 0; n < d.choices.size(); n++) {
            if (d.choices[n])
                printf(" %zu:%d", n, d.choices[n]);
        }
        printf(" (%d probes), break-even %.2f\n", d.probes, d.break_even);
    }
    if (!lossless) {
        // a late divergence on random weights is a near-tie flipped by batch-size rounding, not a drafting bug
        size_t i = 0;
        while (i < plain.tokens.size() && i < fl.tokens.size() && plain.tokens[i] == fl.tokens[i])
            i++;
        printf("outputs diverge at token %zu of %zu\n", i, plain.tokens.size());
    }
    // as `chat-template bench --context-sweep` (native/cli/contextSweep.ts): plain, a full block every step and
    // the adaptive draft length at each prompt length; acceptance is the full block's
    std::string sweep_json;
    bool sweep_lossless = true;
    if (a.has("context-sweep")) {
        printf("context sweep (tok/s; acceptance of the fixed block):\n%8s %10s %10s %10s %10s\n", "context", "plain", "fixed", "adaptive",
               "acceptance");
        std::string list = a.get("context-sweep", "");
        for (size_t at = 0; at <= list.size();) {
            const size_t comma = std::min(list.find(',', at), list.size());
            const int context = std::atoi(list.substr(at, comma - at).c_str());
            at = comma + 1;
            if (context < 1)
                continue;
            gp.prompt.clear();
            for (int i = 0; i < context; i++)
                gp.prompt.push_back('a' + i % 24);
            const auto tps = [](const cts::GenerateResult & r) { return r.stats.generated_tokens / (r.stats.generate_ms / 1000.0); };
            const cts::GenerateResult sp = gen(false, n_tokens), sf = gen(true, n_tokens, 0), sa = gen(true, n_tokens, 1);
            const double acc = sf.stats.drafted ? (double)sf.stats.accepted / sf.stats.drafted : 0.0;
            sweep_lossless = sweep_lossless && sp.tokens == sf.tokens && sp.tokens == sa.tokens;
            printf("%8d %10.1f %10.1f %10.1f %9.1f%%\n", context, tps(sp), tps(sf), tps(sa), acc * 100);
            char buf[256];
            snprintf(buf, sizeof(buf),
                     "%s{\"context\": %d, \"plain_tps\": %.2f, \"fixed_tps\": %.2f, \"adaptive_tps\": %.2f, \"acceptance\": %.4f}",
                     sweep_json.empty() ? "" : ", ", context, tps(sp), tps(sf), tps(sa), acc);
            sweep_json += buf;
        }
        if (!sweep_lossless)
            printf("context sweep: outputs differ between plain, fixed and adaptive decoding\n");
    }
    if (a.has("json")) {
        printf(
            "{\"lossless\": %s, \"acceptance\": %.4f, \"plain_tps\": %.2f, \"dflash_tps\": %.2f, \"speedup\": %.3f, \"ideal_speedup\": "
            "%.3f%s}\n",
            lossless ? "true" : "false", acceptance, plain_tps, dflash_tps, speedup, ideal,
            a.has("context-sweep") ? (", \"sweep\": [" + sweep_json + "]").c_str() : "");
    }
    return lossless && sweep_lossless ? 0 : 1;
}

}  // namespace

int main(int argc, char ** argv) {
    const std::string cmd = argc > 1 ? argv[1] : "";
    const Args a = parse(argc, argv, 2);
    try {
        if (cmd == "make-models" && a.positional.size() == 1) {
            cts::backend_init({}, false);
            const auto files = cts_bench::make_models(a.positional[0], a.get("shape", "tiny"), a.get("kind", "constructed"),
                                                      a.get("type", "f32"), (uint64_t)a.num("seed", 1));
            printf("%s\n%s\n", files.target.c_str(), files.draft.c_str());
            return 0;
        }
        if (cmd == "run") {
            return run(a);
        }
        if (cmd == "compare-llama" && a.has("target")) {
            cts::backend_init({library_dir()}, getenv("CTS_LLAMA_LOG") != nullptr);
            cts_bench::CompareParams p;
            p.target = a.get("target", "");
            const std::string list = a.get("prompts", "8192,32768,65536");
            for (size_t at = 0; at <= list.size();) {
                const size_t comma = std::min(list.find(',', at), list.size());
                const int n = std::atoi(list.substr(at, comma - at).c_str());
                if (n > 0)
                    p.prompts.push_back(n);
                at = comma + 1;
            }
            p.tokens = a.num("tokens", 64);
            p.n_gpu_layers = a.num("gpu-layers", -1);
            p.n_threads = a.num("threads", 0);
            p.json = a.has("json");
            return p.prompts.empty() ? 2 : cts_bench::compare_llama(p);
        }
    } catch (const cts::EngineError & e) {
        fprintf(stderr, "dflash-bench: %s: %s\n", cts::error_code_name(e.code), e.what());
        return 1;
    } catch (const std::exception & e) {
        fprintf(stderr, "dflash-bench: %s\n", e.what());
        return 1;
    }
    fputs(USAGE, stderr);
    return 2;
}
