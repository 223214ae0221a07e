// The ggml backends of this process. node-llama-cpp's prebuilt libraries are built with dynamically
// loaded backends (CPU variants per instruction set, CUDA), so they must be loaded from their folder
// before any model; the folder decides which backends exist.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cts {

struct DeviceInfo {
    std::string name;
    std::string description;
    std::string type;  // "cpu", "gpu", "igpu", "accel"
    std::string backend;
    size_t memory_total = 0;
    size_t memory_free = 0;
};

// Loads the backends in each folder (none for a static build) and initializes llama.cpp. Idempotent: the
// first call's folders are the process's backends for its whole life.
void backend_init(const std::vector<std::string> & lib_dirs, bool verbose);

std::vector<DeviceInfo> backend_devices();

// The llama.cpp build this process runs on ("b<number>-<commit>"), as llama-server's /props reports it.
std::string llama_build();

}  // namespace cts
