// Prompt cache of several prefixes: the KV state of recent conversations, kept in host memory
// (llama_state_seq_get_data) when a request of another conversation would overwrite it, and brought back
// (llama_state_seq_set_data) when a later request shares a longer prefix with it than with what the context
// holds. So a short side request (an agent's title or subagent call) does not evict the main conversation.
// Within a memory budget; the least recently used entries go first. The DFlash draft's cache is kept with
// its target's, with the prefix it is valid for, so drafting after a switch sees the same features.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <list>
#include <mutex>
#include <vector>

struct llama_context;

namespace cts {

struct PromptCacheEntryInfo {
    size_t tokens = 0;
    size_t draft_tokens = 0;  // of them, those whose target features are in the draft's saved cache
    size_t bytes = 0;
    int64_t last_used_ms = 0;  // Unix time
};

struct PromptCacheInfo {
    size_t live_tokens = 0;  // in the context (as of the last request's end)
    size_t budget_bytes = 0;
    size_t used_bytes = 0;
    std::vector<PromptCacheEntryInfo> entries;  // most recently used first
};

class PromptCache {
public:
    explicit PromptCache(size_t budget_bytes) : budget_(budget_bytes) {}

    // Before a request: `live` holds the tokens whose keys and values are in sequence 0 of `ctx` (and, up
    // to `draft_valid`, in `ctx_dft`). Saves the live state when the request would cut away most of it, and
    // swaps in the saved entry that shares the longest prefix with `prompt` when that beats the live one.
    // Returns the tokens brought back from host memory (0: none).
    size_t prepare(llama_context * ctx, llama_context * ctx_dft, std::vector<int32_t> & live, size_t & draft_valid,
                   const std::vector<int32_t> & prompt);

    // After a request: how many tokens the context holds, for info().
    void set_live(size_t tokens) { live_tokens_ = tokens; }

    // Thread-safe: may run while a generation is in progress.
    PromptCacheInfo info() const;

private:
    struct Entry {
        std::vector<int32_t> tokens;
        std::vector<uint8_t> target, draft;
        size_t draft_valid = 0;
        int64_t last_used_ms = 0;
        size_t bytes() const { return target.size() + draft.size(); }
    };

    void save(llama_context * ctx, llama_context * ctx_dft, const std::vector<int32_t> & live, size_t draft_valid);

    mutable std::mutex mutex_;  // guards entries_ (and used_) against info()
    size_t budget_;
    size_t used_ = 0;
    std::atomic<size_t> live_tokens_{0};
    std::list<Entry> entries_;  // most recently used first
};

}  // namespace cts
