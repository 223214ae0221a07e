// Errors the engine reports to its callers: a stable code, a message meant for users, and numeric fields
// (the context-overflow sizes) that callers format themselves.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

namespace cts {

enum class ErrorCode {
    InvalidArgument,  // a request the caller can fix
    FileNotFound,
    InvalidModel,  // unreadable, corrupt or unsupported GGUF
    ModelMismatch,  // a draft that cannot serve this target
    ContextOverflow,  // prompt + max_tokens > context size; checked before any decoding
    Template,  // the chat template failed to parse or render
    Decode,  // llama.cpp failed while decoding
};

const char * error_code_name(ErrorCode code);

struct EngineError : std::runtime_error {
    ErrorCode code;
    std::map<std::string, int64_t> fields;

    EngineError(ErrorCode code, const std::string & message, std::map<std::string, int64_t> fields = {})
        : std::runtime_error(message), code(code), fields(std::move(fields)) {}
};

}  // namespace cts
