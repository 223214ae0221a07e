// The HTTP server: routes, access control, and the one place errors become responses, in the envelope of
// the API the route belongs to (Anthropic for /v1/messages*, OpenAI otherwise), so no request can take
// the process down.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { anthropicError } from "./anthropic/errors";
import { countTokens } from "./anthropic/countTokens";
import { messages } from "./anthropic/messages";
import { checkAccess } from "./auth";
import { readJsonBody } from "./body";
import { chatParse } from "./chatParse";
import { ApiError, toApiError } from "./errors";
import { health } from "./health";
import { metrics } from "./metricsRoute";
import { chatCompletions } from "./openai/chat";
import { completions } from "./openai/completions";
import { openaiError } from "./openai/errors";
import { models } from "./openai/models";
import { sendJson, type Handler } from "./route";
import type { Services } from "./services";
import { slots } from "./slots";

const ROUTES: Record<string, Partial<Record<"GET" | "POST", Handler>>> = {
  "/health": { GET: health },
  "/metrics": { GET: metrics },
  "/slots": { GET: slots },
  "/v1/models": { GET: models },
  "/v1/chat/completions": { POST: chatCompletions },
  "/v1/completions": { POST: completions },
  "/v1/messages": { POST: messages },
  "/v1/messages/count_tokens": { POST: countTokens },
  "/chat/parse": { POST: chatParse },
};

const isAnthropic = (path: string) => path.startsWith("/v1/messages");

/** After the response has started, an error can only be told inside the stream, then the stream ends. */
function failStream(res: ServerResponse, path: string, e: ApiError): void {
  if (res.getHeader("content-type")?.toString().startsWith("text/event-stream")) {
    if (isAnthropic(path)) res.write(`event: error\ndata: ${JSON.stringify(anthropicError(e))}\n\n`);
    else res.write(`data: ${JSON.stringify(openaiError(e))}\n\n`);
    res.end();
  } else {
    res.destroy();
  }
}

export function createEndpointServer(services: Services): Server {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    const route = ROUTES[path];
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort(new Error("the client disconnected"));
      // 499 (nginx's "client closed request"): the client left before any answer
      services.metrics.countRequest(route ? path : "other", res.headersSent ? res.statusCode : 499);
    });
    try {
      if (!route) throw new ApiError(404, "not_found", `no route ${req.method} ${path}; see GET /v1/models, POST /v1/chat/completions, POST /v1/messages`);
      const handler = route[req.method as "GET" | "POST"];
      if (!handler) {
        res.setHeader("allow", Object.keys(route).join(", "));
        throw new ApiError(405, "invalid_request", `${path} takes ${Object.keys(route).join(" or ")}, not ${req.method}`);
      }
      checkAccess(req.headers, services.config.apiKey);
      await handler({ req, res, services, signal: controller.signal, body: () => readJsonBody(req) });
    } catch (e) {
      if (controller.signal.aborted) return;
      const error = toApiError(e, path === "/v1/completions" ? "prompt" : "messages");
      if (error.status >= 500) services.log(`${req.method} ${path}: ${error.message}`);
      if (res.headersSent) return failStream(res, path, error);
      sendJson(res, error.status, isAnthropic(path) ? anthropicError(error) : openaiError(error));
    }
  };
  return createServer((req, res) => void handle(req, res));
}
