#include "token_logprobs.h"

#include "common.h"
#include "llama.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cts {

TokenLogprobs token_logprobs(llama_context * ctx, const llama_vocab * vocab, int idx, int32_t chosen, int n_top) {
    const float * logits = llama_get_logits_ith(ctx, idx);
    const int n_vocab = llama_vocab_n_tokens(vocab);
    // log-sum-exp around the maximum, so large logits do not overflow
    const float max = *std::max_element(logits, logits + n_vocab);
    double sum = 0;
    for (int i = 0; i < n_vocab; i++) {
        sum += std::exp((double)(logits[i] - max));
    }
    const float log_z = max + (float)std::log(sum);
    auto entry = [&](int32_t t) { return TokenLogprob{t, common_token_to_piece(vocab, t, true), logits[t] - log_z}; };
    TokenLogprobs out;
    out.chosen = entry(chosen);
    n_top = std::min(n_top, n_vocab);
    if (n_top > 0) {
        std::vector<int32_t> ids(n_vocab);
        std::iota(ids.begin(), ids.end(), 0);
        // ties go to the lower token id, so the list is deterministic
        std::partial_sort(ids.begin(), ids.begin() + n_top, ids.end(),
                          [&](int32_t a, int32_t b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); });
        for (int i = 0; i < n_top; i++) {
            out.top.push_back(entry(ids[i]));
        }
    }
    return out;
}

}  // namespace cts
