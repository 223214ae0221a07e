// GET /health: loading (with progress), ready or error. 200 only when ready, so a poller can go by the status.
import { sendJson, type RouteContext } from "../http/route";

export async function health(ctx: RouteContext): Promise<void> {
  const { model, queue, config } = ctx.services;
  const s = model.status;
  if (s.state === "loading") return sendJson(ctx.res, 503, { status: "loading", stage: s.stage, progress: s.progress, model: model.id });
  if (s.state === "error") return sendJson(ctx.res, 500, { status: "error", error: s.message, model: model.id });
  const { info, template } = model.ready();
  sendJson(ctx.res, 200, {
    status: "ready",
    model: model.id,
    demo: model.files.demo !== undefined,
    backend: { kind: info.backend.kind, reason: info.backend.reason },
    context_size: info.contextSize,
    draft: info.draft?.name ?? null,
    template: template.state(),
    queue: { active: queue.active, waiting: queue.waiting, max_waiting: config.maxQueue },
  });
}
