#include "errors.h"

namespace cts {

const char * error_code_name(ErrorCode code) {
    switch (code) {
        case ErrorCode::InvalidArgument:
            return "invalid_argument";
        case ErrorCode::FileNotFound:
            return "file_not_found";
        case ErrorCode::InvalidModel:
            return "invalid_model";
        case ErrorCode::ModelMismatch:
            return "model_mismatch";
        case ErrorCode::ContextOverflow:
            return "context_overflow";
        case ErrorCode::Template:
            return "template_error";
        case ErrorCode::Decode:
            return "decode_error";
    }
    return "unknown";
}

}  // namespace cts
