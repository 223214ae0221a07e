#include "prompt_cache.h"

#include "llama.h"

#include <algorithm>
#include <chrono>
#include <optional>

namespace cts {

namespace {

size_t common_prefix(const std::vector<int32_t> & a, const std::vector<int32_t> & b) {
    const size_t n = std::min(a.size(), b.size());
    size_t i = 0;
    while (i < n && a[i] == b[i]) {
        i++;
    }
    return i;
}

bool is_prefix(const std::vector<int32_t> & shorter, const std::vector<int32_t> & longer) {
    return shorter.size() <= longer.size() && std::equal(shorter.begin(), shorter.end(), longer.begin());
}

int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::vector<uint8_t> copy_sequence(llama_context * ctx) {
    std::vector<uint8_t> data(llama_state_seq_get_size(ctx, 0));
    data.resize(llama_state_seq_get_data(ctx, data.data(), data.size(), 0));
    return data;
}

bool restore_sequence(llama_context * ctx, const std::vector<uint8_t> & data) {
    llama_memory_seq_rm(llama_get_memory(ctx), 0, -1, -1);
    return !data.empty() && llama_state_seq_set_data(ctx, data.data(), data.size(), 0) != 0;
}

}  // namespace

void PromptCache::save(llama_context * ctx, llama_context * ctx_dft, const std::vector<int32_t> & live, size_t draft_valid) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        // an entry this one extends is worth nothing more; one that extends this makes it worth nothing
        for (auto it = entries_.begin(); it != entries_.end();) {
            if (is_prefix(live, it->tokens)) {
                return;
            }
            if (is_prefix(it->tokens, live)) {
                used_ -= it->bytes();
                it = entries_.erase(it);
            } else {
                ++it;
            }
        }
    }
    const size_t size =
        llama_state_seq_get_size(ctx, 0) + (ctx_dft != nullptr && draft_valid > 0 ? llama_state_seq_get_size(ctx_dft, 0) : 0);
    if (size > budget_) {
        return;  // bigger than the whole budget: not worth the copy
    }
    Entry e;
    e.tokens = live;
    e.target = copy_sequence(ctx);
    if (ctx_dft != nullptr && draft_valid > 0) {
        e.draft = copy_sequence(ctx_dft);
        e.draft_valid = e.draft.empty() ? 0 : draft_valid;
    }
    e.last_used_ms = now_ms();
    if (e.target.empty() || e.bytes() > budget_) {
        return;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    used_ += e.bytes();
    entries_.push_front(std::move(e));
    while (used_ > budget_) {
        used_ -= entries_.back().bytes();
        entries_.pop_back();
    }
}

size_t PromptCache::prepare(llama_context * ctx, llama_context * ctx_dft, std::vector<int32_t> & live, size_t & draft_valid,
                            const std::vector<int32_t> & prompt) {
    if (budget_ == 0) {
        return 0;
    }
    const size_t kept = common_prefix(live, prompt);
    if (kept == live.size()) {
        return 0;  // the request extends what the context holds
    }
    // the best saved entry leaves the list: restored, it becomes the live state
    std::optional<Entry> best;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto best_it = entries_.end();
        size_t best_len = kept;
        for (auto it = entries_.begin(); it != entries_.end(); ++it) {
            const size_t n = common_prefix(it->tokens, prompt);
            if (n > best_len) {
                best_len = n;
                best_it = it;
            }
        }
        if (best_it != entries_.end()) {
            used_ -= best_it->bytes();
            best = std::move(*best_it);
            entries_.erase(best_it);
        }
    }
    // The live state is kept when most of it would go: a turn that re-renders the last few tokens of its
    // own conversation cuts a little and is not worth copying the whole context for.
    if (best || kept * 2 < live.size()) {
        save(ctx, ctx_dft, live, draft_valid);
    }
    if (!best) {
        return 0;
    }
    const bool target_ok = restore_sequence(ctx, best->target);
    const bool draft_ok = ctx_dft == nullptr || best->draft.empty() ? true : restore_sequence(ctx_dft, best->draft);
    if (!target_ok || !draft_ok) {
        // the context is cleared: the request decodes its whole prompt
        live.clear();
        draft_valid = 0;
        llama_memory_seq_rm(llama_get_memory(ctx), 0, -1, -1);
        if (ctx_dft != nullptr) {
            llama_memory_seq_rm(llama_get_memory(ctx_dft), 0, -1, -1);
        }
        return 0;
    }
    if (ctx_dft != nullptr && best->draft.empty()) {
        llama_memory_seq_rm(llama_get_memory(ctx_dft), 0, -1, -1);
    }
    live = std::move(best->tokens);
    draft_valid = std::min(best->draft_valid, live.size());
    return common_prefix(live, prompt);
}

PromptCacheInfo PromptCache::info() const {
    std::lock_guard<std::mutex> lock(mutex_);
    PromptCacheInfo out;
    out.live_tokens = live_tokens_;
    out.budget_bytes = budget_;
    out.used_bytes = used_;
    for (const auto & e : entries_) {
        out.entries.push_back({e.tokens.size(), e.draft_valid, e.bytes(), e.last_used_ms});
    }
    return out;
}

}  // namespace cts
