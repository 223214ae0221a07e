#include "backend.h"

#include "build-info.h"

#include "logging.h"

#include "ggml-backend.h"
#include "llama.h"

#include <mutex>

namespace cts {

void backend_init(const std::vector<std::string> & lib_dirs, bool verbose) {
    static std::once_flag once;
    std::call_once(once, [&] {
        log_install(verbose);
        for (const auto & dir : lib_dirs) {
            ggml_backend_load_all_from_path(dir.c_str());
        }
        llama_backend_init();
    });
}

std::vector<DeviceInfo> backend_devices() {
    std::vector<DeviceInfo> out;
    for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
        ggml_backend_dev_t dev = ggml_backend_dev_get(i);
        DeviceInfo d;
        d.name = ggml_backend_dev_name(dev);
        d.description = ggml_backend_dev_description(dev);
        d.backend = ggml_backend_reg_name(ggml_backend_dev_backend_reg(dev));
        switch (ggml_backend_dev_type(dev)) {
            case GGML_BACKEND_DEVICE_TYPE_CPU:
                d.type = "cpu";
                break;
            case GGML_BACKEND_DEVICE_TYPE_GPU:
                d.type = "gpu";
                break;
            case GGML_BACKEND_DEVICE_TYPE_IGPU:
                d.type = "igpu";
                break;
            default:
                d.type = "accel";
                break;
        }
        ggml_backend_dev_memory(dev, &d.memory_free, &d.memory_total);
        out.push_back(d);
    }
    return out;
}

std::string llama_build() {
    return "b" + std::to_string(llama_build_number()) + "-" + llama_commit();
}

}  // namespace cts
