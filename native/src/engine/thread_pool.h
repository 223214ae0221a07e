// One CPU thread pool shared by the target's and the draft's contexts.
//
// common_init_from_params gives the target a persistent ggml thread pool whose workers busy-wait (poll level
// 50) after every graph, while common_speculative_init_from_params gives the draft none, so ggml makes a
// throwaway pool (new threads) for each draft decode. During a DFlash step the target's spinning workers and
// the draft's fresh ones then share the cores with the calling thread: on a machine with as many cores as
// threads every barrier of the draft's graph waits for a descheduled thread (docs/design.md has the figures).
// Both contexts run on one thread, one after the other, so one pool serves both.
#pragma once

#include "common.h"
#include "llama.h"

namespace cts {

class SharedThreadPool {
public:
    SharedThreadPool() = default;
    ~SharedThreadPool();
    SharedThreadPool(const SharedThreadPool &) = delete;
    SharedThreadPool & operator=(const SharedThreadPool &) = delete;

    // Makes the pool (nothing when no CPU backend is loaded) and attaches it to each context. The contexts
    // must be freed before this object.
    void attach(const common_cpu_params & cpu, llama_context * target, llama_context * draft);

private:
    ggml_threadpool * pool_ = nullptr;
    void (*free_)(ggml_threadpool *) = nullptr;
};

}  // namespace cts
