// GET /props in llama-server's shape: the context, the generation defaults, the chat template in use and the
// capabilities llama.cpp infers from it, and the llama.cpp build, so tools written for llama-server can read
// them. A template file that has not loaded leaves chat_template and its caps null (GET /health says why).
import { sendJson, type RouteContext } from "../http/route";

/** The engine's sampling defaults (native/src/engine/engine.h), which are llama-server's. */
const DEFAULT_PARAMS = {
  n_predict: -1,
  seed: 4294967295,
  temperature: 0.8,
  top_k: 40,
  top_p: 0.95,
  min_p: 0.05,
  repeat_last_n: 64,
  repeat_penalty: 1,
  presence_penalty: 0,
  frequency_penalty: 0,
  stop: [],
  max_tokens: -1,
  ignore_eos: false,
  n_probs: 0,
  grammar: "",
};

export async function props(ctx: RouteContext): Promise<void> {
  const { model, queue } = ctx.services;
  const { info, template } = model.ready();
  let current;
  try {
    current = template.current();
  } catch {
    current = null;
  }
  sendJson(ctx.res, 200, {
    default_generation_settings: {
      id: 0,
      id_task: -1,
      n_ctx: info.contextSize,
      speculative: info.draft !== null,
      is_processing: queue.active > 0,
      params: { ...DEFAULT_PARAMS, "speculative.n_max": info.draft?.draftMax ?? 0 },
    },
    total_slots: 1,
    model_alias: model.id,
    model_path: model.files.target,
    chat_template: current?.source ?? null,
    chat_template_caps: current ? await current.caps() : null,
    bos_token: info.bosText,
    eos_token: info.eosText,
    modalities: { vision: false, audio: false },
    build_info: info.backend.llamaBuild,
    is_sleeping: false,
  });
}
