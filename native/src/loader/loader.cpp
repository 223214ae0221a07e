// A tiny addon with no llama.cpp dependency, loaded before the engine addon. The engine addon links
// libllama-common.so by name only (no RUNPATH), so one binary runs on the CPU or the CUDA build of
// llama.cpp: this addon decides which folder's library is loaded first, process-wide, and reports why a
// CUDA folder cannot be used (no driver, no device, missing runtime libraries) before anything is loaded.
#include <napi.h>

#include <dlfcn.h>

#include <string>

namespace {

std::string last_dlerror() {
    const char * e = dlerror();
    return e ? e : "unknown dlopen error";
}

// loadGlobal(path): null, or the dlopen error. Symbols become visible to libraries loaded later.
Napi::Value load_global(const Napi::CallbackInfo & info) {
    if (!info[0].IsString())
        throw Napi::TypeError::New(info.Env(), "loadGlobal(path: string)");
    const std::string path = info[0].As<Napi::String>().Utf8Value();
    if (dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr)
        return Napi::String::New(info.Env(), last_dlerror());
    return info.Env().Null();
}

// tryLoad(path): null when the library and all its dependencies resolve, else the dlopen error. Nothing
// stays loaded: a failed dlopen unloads what it pulled in, a successful one is closed again.
Napi::Value try_load(const Napi::CallbackInfo & info) {
    if (!info[0].IsString())
        throw Napi::TypeError::New(info.Env(), "tryLoad(path: string)");
    const std::string path = info[0].As<Napi::String>().Utf8Value();
    void * h = dlopen(path.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (h == nullptr)
        return Napi::String::New(info.Env(), last_dlerror());
    dlclose(h);
    return info.Env().Null();
}

// The CUDA driver API, resolved at run time so the addon needs no CUDA headers or libraries.
using cu_init_t = int (*)(unsigned);
using cu_count_t = int (*)(int *);
using cu_get_t = int (*)(int *, int);
using cu_name_t = int (*)(char *, int, int);
using cu_mem_t = int (*)(size_t *, int);
using cu_attr_t = int (*)(int *, int, int);
using cu_version_t = int (*)(int *);
constexpr int CU_ATTR_CC_MAJOR = 75;
constexpr int CU_ATTR_CC_MINOR = 76;

// probeCuda(): {driver: false, error} or {driver: true, driverVersion, devices: [{name, computeCapability, memory}]}
Napi::Value probe_cuda(const Napi::CallbackInfo & info) {
    Napi::Env env = info.Env();
    auto out = Napi::Object::New(env);
    void * lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (lib == nullptr) {
        out.Set("driver", false);
        out.Set("error", "no NVIDIA driver: " + last_dlerror());
        return out;
    }
    auto init = (cu_init_t)dlsym(lib, "cuInit");
    auto count = (cu_count_t)dlsym(lib, "cuDeviceGetCount");
    auto get = (cu_get_t)dlsym(lib, "cuDeviceGet");
    auto name = (cu_name_t)dlsym(lib, "cuDeviceGetName");
    auto mem = (cu_mem_t)dlsym(lib, "cuDeviceTotalMem_v2");
    auto attr = (cu_attr_t)dlsym(lib, "cuDeviceGetAttribute");
    auto version = (cu_version_t)dlsym(lib, "cuDriverGetVersion");
    out.Set("driver", true);
    int n = 0, v = 0;
    if (!init || !count || !get || !name || !mem || !attr || !version) {
        out.Set("error", "the NVIDIA driver library lacks the CUDA driver API");
    } else if (int rc = init(0); rc != 0) {
        out.Set("error", "cuInit failed with CUDA error " + std::to_string(rc));
    } else {
        version(&v);
        count(&n);
    }
    out.Set("driverVersion", v);
    auto devices = Napi::Array::New(env);
    for (int i = 0; i < n; i++) {
        int dev = 0, major = 0, minor = 0;
        char buf[256] = {};
        size_t bytes = 0;
        get(&dev, i);
        name(buf, sizeof(buf), dev);
        mem(&bytes, dev);
        attr(&major, CU_ATTR_CC_MAJOR, dev);
        attr(&minor, CU_ATTR_CC_MINOR, dev);
        auto d = Napi::Object::New(env);
        d.Set("name", buf);
        d.Set("computeCapability", std::to_string(major) + "." + std::to_string(minor));
        d.Set("memory", (double)bytes);
        devices.Set((uint32_t)i, d);
    }
    out.Set("devices", devices);
    // the driver stays loaded: unloading it after cuInit is not supported, and CUDA will use it anyway
    return out;
}

Napi::Object init(Napi::Env env, Napi::Object exports) {
    exports.Set("loadGlobal", Napi::Function::New(env, load_global));
    exports.Set("tryLoad", Napi::Function::New(env, try_load));
    exports.Set("probeCuda", Napi::Function::New(env, probe_cuda));
    return exports;
}

}  // namespace

NODE_API_MODULE(cts_loader, init)
