// GET / (and HEAD /, Claude Code's reachability check before its first request): 200 while the process is
// up, whatever the model's state, with where to go next.
import { sendJson, type RouteContext } from "./route";

export async function root(ctx: RouteContext): Promise<void> {
  sendJson(ctx.res, 200, {
    name: "chat-template serve",
    model: ctx.services.model.id,
    health: "/health",
    apis: ["/v1/chat/completions", "/v1/completions", "/v1/messages"],
  });
}
