// Checks a GGUF before llama.cpp loads it. llama.cpp aborts the process (GGML_ASSERT) on some malformed
// hyperparameters and on a draft that does not fit its target, so those are caught here and reported as
// errors that name the file and the field.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cts {

struct GgufSummary {
    std::string path;
    std::string arch;
    uint32_t n_embd = 0;
    uint32_t n_layer = 0;
    std::vector<std::string> tokens;
    // dflash drafts only
    std::vector<int32_t> target_layers;
    uint32_t block_size = 0;
    int64_t mask_id = -1;
    uint32_t sliding_window = 0;  // 0: the draft attends to every position
    bool window_pattern = false;  // it has dflash.attention.sliding_window_pattern (which layers are windowed)
};

// role is "target" or "draft", used in messages. Throws EngineError (file_not_found, invalid_model).
GgufSummary inspect_model(const std::string & path, const char * role);

// Throws EngineError(model_mismatch) when the draft cannot drive this target.
void check_draft_pair(const GgufSummary & target, const GgufSummary & draft);

}  // namespace cts
