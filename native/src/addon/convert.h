// Conversions between JavaScript values and the engine's structs. Reading is strict: a field of the wrong
// type is a TypeError naming it, so bad input from JS never reaches llama.cpp.
#pragma once

#include "chat_layer.h"
#include "chat_output.h"
#include "engine.h"
#include "errors.h"

#include <napi.h>

namespace cts_addon {

cts::LoadParams load_params(const Napi::Object & o);
cts::GenerateParams generate_params(const Napi::Object & o);
std::vector<int32_t> token_array(const Napi::Value & v, const char * what);

Napi::Object to_js(Napi::Env env, const cts::ModelInfo & info);
Napi::Object to_js(Napi::Env env, const cts::GenerateResult & r);
Napi::Object to_js(Napi::Env env, const cts::PromptCacheInfo & c);
Napi::Object to_js(Napi::Env env, const cts::TokenLogprobs & l);
Napi::Object to_js(Napi::Env env, const cts::ChatPrompt & p);
Napi::Object to_js(Napi::Env env, const cts::ParsedMessage & m);
Napi::Array to_js(Napi::Env env, const std::vector<cts::MessageDelta> & deltas);
Napi::Object to_js(Napi::Env env, const std::map<std::string, bool> & caps);
Napi::Int32Array to_js(Napi::Env env, const std::vector<int32_t> & tokens);

// An Error with `code` and the EngineError's numeric fields as properties.
Napi::Error engine_error(Napi::Env env, const cts::EngineError & e);

}  // namespace cts_addon
