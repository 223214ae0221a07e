// `dflash-bench compare-llama`: the engine against a plain llama.cpp context on the same GGUF, for the GPU check
// (where Node and node-llama-cpp are absent); `chat-template bench --compare-llama` is the Node version.
#pragma once

#include <string>
#include <vector>

namespace cts_bench {

struct CompareParams {
    std::string target;
    std::vector<int> prompts;
    int tokens = 64;
    int n_gpu_layers = -1;
    int n_threads = 0;  // 0: each side's default
    bool json = false;
};

// Prints a table (and a JSON line with --json); returns the process exit code.
int compare_llama(const CompareParams & p);

}  // namespace cts_bench
