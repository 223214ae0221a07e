// llama-server (llama.cpp's HTTP server, node-llama-cpp release v0.5.0): the same Jinja engine as the
// llamacpp dialect, fed JSON as the chat layer passes it (no node-llama-cpp input conversion; a client's JSON
// sends 1.0 as 1, so it arrives an int), and rendered from the context llama.cpp's chat layer builds for a
// request, which depends on the template's caps and the server's startup flags (`serverArgs`): the analysis
// layer builds it (analysis/chatLayer) for every dialect that sets `chatLayer`.
import type { Dialect } from "../interpreter/kit";
import { llamacpp_0_5_0 } from "./llamacpp-v0.5.0";

export const llamaServer_0_5_0: Dialect = {
  ...llamacpp_0_5_0,
  engine: "llama-server",
  version: "llama.cpp v0.5.0 common/jinja behind common/chat.cpp's chat layer",
  evidence: "llama.cpp common/chat.cpp (common_chat_templates_apply_jinja), tools/server oaicompat_chat_params_parse",
  context: undefined,
  chatLayer: true,
};
