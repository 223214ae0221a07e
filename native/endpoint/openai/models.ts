// GET /v1/models: the one served model, in a list both SDKs read (OpenAI's `object`/`owned_by`,
// Anthropic's `type`/`display_name`/`has_more`).
import { sendJson, type RouteContext } from "../http/route";

export async function models(ctx: RouteContext): Promise<void> {
  const host = ctx.services.model;
  const { info } = host.ready();
  const created = Math.floor(host.loadedAt / 1000);
  const model = {
    id: host.id,
    object: "model",
    type: "model",
    display_name: host.files.demo ? `${host.id} (demo, random weights)` : host.id,
    created,
    created_at: new Date(host.loadedAt).toISOString(),
    owned_by: "chat-template-studio",
    meta: {
      demo: host.files.demo !== undefined,
      context_size: info.contextSize,
      train_context_size: info.trainContextSize,
      parameters: info.parameters,
      size_bytes: info.sizeBytes,
      draft: info.draft && { name: info.draft.name, block_size: info.draft.blockSize, draft_max: info.draft.draftMax },
      backend: info.backend.kind,
    },
  };
  sendJson(ctx.res, 200, { object: "list", data: [model], has_more: false, first_id: host.id, last_id: host.id });
}
