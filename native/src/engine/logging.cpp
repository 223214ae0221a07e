#include "logging.h"

#include "ggml.h"
#include "llama.h"
#include "log.h"  // common's logger

#include <atomic>
#include <cstdio>
#include <string>

namespace cts {

namespace {

std::atomic<bool> g_verbose{false};
thread_local LogCapture * t_capture = nullptr;

std::string trimmed(const char * text) {
    std::string s = text ? text : "";
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) {
        s.pop_back();
    }
    return s;
}

void on_log(ggml_log_level level, const char * text, void *) {
    if (g_verbose.load()) {
        fputs(text, stderr);
    }
    if (t_capture == nullptr || (level != GGML_LOG_LEVEL_ERROR && level != GGML_LOG_LEVEL_WARN)) {
        return;
    }
    std::string line = trimmed(text);
    if (line.empty()) {
        return;
    }
    auto & list = level == GGML_LOG_LEVEL_ERROR ? t_capture->errors : t_capture->warnings;
    // llama.cpp repeats context for some errors; the last few lines carry the cause
    if (list.size() >= 16) {
        list.erase(list.begin());
    }
    list.push_back(line);
}

}  // namespace

void log_install(bool verbose) {
    g_verbose = verbose;
    llama_log_set(on_log, nullptr);
    // common's logger (speculative, chat, sampling) prints to stderr from its own thread; its errors are
    // reported to callers as exceptions, so it is only needed when debugging
    if (verbose) {
        common_log_resume(common_log_main());
    } else {
        common_log_pause(common_log_main());
    }
}

LogCapture::LogCapture() : outer(t_capture) {
    t_capture = this;
}

LogCapture::~LogCapture() {
    t_capture = outer;
}

std::string LogCapture::summary() const {
    const auto & list = errors.empty() ? warnings : errors;
    std::string out;
    const size_t from = list.size() > 3 ? list.size() - 3 : 0;
    for (size_t i = from; i < list.size(); i++) {
        if (!out.empty()) {
            out += "; ";
        }
        out += list[i];
    }
    return out;
}

}  // namespace cts
