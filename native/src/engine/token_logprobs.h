// Log-probabilities of generated tokens, for OpenAI's `logprobs` / `top_logprobs`. They are read from the
// target's own distribution at that position: the softmax of its logits before the sampler chain (no
// temperature, top-k/p, penalties or grammar), which is what llama-server reports by default
// (`post_sampling_probs` false) and what OpenAI's figures mean. With DFlash every emitted token was verified at
// its own position of the verification batch, so the figures equal plain decoding's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct llama_context;
struct llama_vocab;

namespace cts {

struct TokenLogprob {
    int32_t token = -1;
    std::string piece;  // the token's bytes (may be part of a UTF-8 character)
    float logprob = 0;
};

struct TokenLogprobs {
    TokenLogprob chosen;
    std::vector<TokenLogprob> top;  // most likely first
};

// From the logits of batch index `idx` (valid until the next decode).
TokenLogprobs token_logprobs(llama_context * ctx, const llama_vocab * vocab, int idx, int32_t chosen, int n_top);

}  // namespace cts
