// GET /metrics.
import type { RouteContext } from "../http/route";

export async function metrics(ctx: RouteContext): Promise<void> {
  const { metrics, queue, model } = ctx.services;
  const text = metrics.render({
    queueActive: queue.active,
    queueWaiting: queue.waiting,
    queueRejected: queue.rejectedTotal,
    modelReady: model.status.state === "ready" ? 1 : model.status.state === "error" ? -1 : 0,
  });
  ctx.res.writeHead(200, { "content-type": "text/plain; version=0.0.4; charset=utf-8" });
  ctx.res.end(text);
}
