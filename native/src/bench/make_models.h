#pragma once

#include <cstdint>
#include <string>

namespace cts_bench {

struct ModelPair {
    std::string target, draft;
};

// shape: "tiny" or "qwen3-8b"; kind: "random", "constructed" or "falling"; type: matrix type "f32", "f16" or "q8_0".
ModelPair make_models(const std::string & dir, const std::string & shape, const std::string & kind, const std::string & type,
                      uint64_t seed);

}  // namespace cts_bench
