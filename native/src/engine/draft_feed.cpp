#include "draft_feed.h"

#include "ggml.h"
#include "llama-ext.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace cts {

void DraftFeed::init(llama_context * target, llama_context * draft, const std::vector<int32_t> & target_layers, size_t capacity) {
    target_ = target;
    draft_ = draft;
    layers_ = target_layers;
    n_embd_ = llama_model_n_embd(llama_get_model(target));
    row_ = (int32_t)layers_.size() * n_embd_;
    mrope_ = llama_model_rope_type(llama_get_model(draft)) == LLAMA_ROPE_TYPE_MROPE;
    capacity_ = std::max<size_t>(1, capacity);
    rows_.assign(capacity_ * (size_t)row_, 0.0f);
    pos_.assign(capacity_, 0);
    clear();
}

void DraftFeed::hold(const llama_batch & batch) {
    GGML_ASSERT(count_ + (size_t)batch.n_tokens <= capacity_ && "DraftFeed: flush before holding more");
    for (int32_t i = 0; i < batch.n_tokens; i++) {
        const size_t slot = (start_ + count_++) % capacity_;
        float * dst = rows_.data() + slot * (size_t)row_;
        for (size_t k = 0; k < layers_.size(); k++) {
            const float * layer = llama_get_embeddings_layer_inp(target_, (uint32_t)layers_[k]);
            std::memcpy(dst + k * (size_t)n_embd_, layer + (size_t)i * n_embd_, (size_t)n_embd_ * sizeof(float));
        }
        pos_[slot] = batch.pos[i];
    }
}

bool DraftFeed::flush() {
    const int32_t n_ubatch = (int32_t)llama_n_ubatch(draft_);
    while (count_ > 0) {
        const int32_t n = (int32_t)std::min<size_t>(count_, (size_t)n_ubatch);
        llama_batch b = llama_batch_init(n, row_, 1);
        if (mrope_) {
            free(b.pos);
            b.pos = (llama_pos *)malloc(sizeof(llama_pos) * 4 * n);
        }
        b.n_tokens = n;
        for (int32_t i = 0; i < n; i++) {
            const size_t slot = (start_ + i) % capacity_;
            std::memcpy(b.embd + (size_t)i * row_, rows_.data() + slot * (size_t)row_, (size_t)row_ * sizeof(float));
            b.pos[i] = pos_[slot];
            if (mrope_) {
                b.pos[n + i] = b.pos[2 * n + i] = pos_[slot];
                b.pos[3 * n + i] = 0;
            }
            b.n_seq_id[i] = 1;
            b.seq_id[i][0] = 0;
            b.logits[i] = false;
        }
        const int rc = llama_decode(draft_, b);
        llama_batch_free(b);
        if (rc != 0) {
            clear();
            return false;
        }
        start_ = (start_ + n) % capacity_;
        count_ -= n;
    }
    return true;
}

}  // namespace cts
