// Target features held back from the DFlash draft during plain steps.
//
// The draft attends to features of the target's layers at every past position, which the engine injects into
// the draft's cache after each target decode (common_speculative_process: one draft decode). When the
// draft-length controller chooses plain steps, that decode would cost a draft pass per token for nothing, so
// the features are copied here instead and injected in one batch before the next draft (or when `capacity`
// positions are held). Every position must reach the draft in order: llama.cpp refuses a batch that leaves a
// gap after the positions in a sequence's cache.
#pragma once

#include "llama.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cts {

class DraftFeed {
public:
    void init(llama_context * target, llama_context * draft, const std::vector<int32_t> & target_layers, size_t capacity);

    // After a target decode of `batch` (extraction on): keeps each token's features and position. The caller
    // flushes first when they would not fit.
    void hold(const llama_batch & batch);
    // Injects what is held into the draft's cache, in ubatch-sized decodes; false if one fails.
    bool flush();
    size_t pending() const { return count_; }
    void clear() { start_ = count_ = 0; }

private:
    llama_context * target_ = nullptr;
    llama_context * draft_ = nullptr;
    std::vector<int32_t> layers_;
    int32_t n_embd_ = 0;  // target hidden size
    int32_t row_ = 0;  // features per position: layers × n_embd, in the draft's layer order
    bool mrope_ = false;  // the draft's positions have 4 rows (as common_speculative_process writes them)
    size_t capacity_ = 0, start_ = 0, count_ = 0;
    std::vector<float> rows_;  // ring of capacity_ rows
    std::vector<llama_pos> pos_;
};

}  // namespace cts
