#include "thread_pool.h"

#include "ggml-backend.h"

namespace cts {

SharedThreadPool::~SharedThreadPool() {
    if (pool_ && free_) {
        free_(pool_);
    }
}

void SharedThreadPool::attach(const common_cpu_params & cpu, llama_context * target, llama_context * draft) {
    ggml_backend_dev_t dev = ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU);
    if (dev == nullptr) {
        return;
    }
    // the CPU backend is a library loaded at run time: its functions are reached through its registry
    ggml_backend_reg_t reg = ggml_backend_dev_backend_reg(dev);
    using new_fn = ggml_threadpool * (*)(ggml_threadpool_params *);
    auto * make = (new_fn)ggml_backend_reg_get_proc_address(reg, "ggml_threadpool_new");
    free_ = (void (*)(ggml_threadpool *))ggml_backend_reg_get_proc_address(reg, "ggml_threadpool_free");
    if (make == nullptr || free_ == nullptr) {
        return;
    }
    ggml_threadpool_params tpp = ggml_threadpool_params_from_cpu_params(cpu);
    pool_ = make(&tpp);
    if (pool_ == nullptr) {
        return;
    }
    llama_attach_threadpool(target, pool_, nullptr);
    if (draft) {
        llama_attach_threadpool(draft, pool_, nullptr);
    }
}

}  // namespace cts
