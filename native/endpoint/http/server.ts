// The HTTP server: routes, access control, and the one place errors become responses, in the envelope of
// the API the route belongs to (Anthropic for /v1/messages*, OpenAI otherwise), so no request can take
// the process down.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { anthropicError } from "../anthropic/errors";
import { applyMessagesTemplate, applyTemplate } from "../chat/applyTemplate";
import { countTokens } from "../anthropic/countTokens";
import { messages } from "../anthropic/messages";
import { checkAccess } from "./auth";
import { maxBodyBytes, readJsonBody } from "./body";
import { chatParse } from "../chat/chatParse";
import { ApiError, toApiError } from "./errors";
import { health } from "../llama/health";
import { metrics } from "../llama/metricsRoute";
import { chatCompletions } from "../openai/chat";
import { completions } from "../openai/completions";
import { openaiError } from "../openai/errors";
import { allowCors, answerPreflight, checkOrigin } from "./origin";
import { inRequest, requestLine, type RequestRecord } from "./requestLog";
import { models } from "../openai/models";
import { root } from "./root";
import { sendJson, type Handler } from "./route";
import type { Services } from "../services";
import { props } from "../llama/props";
import { responses } from "../responses";
import { slots } from "../llama/slots";
import { detokenize, tokenize } from "../llama/tokenize";

const ROUTES: Record<string, Partial<Record<"GET" | "POST", Handler>>> = {
  "/": { GET: root },
  "/health": { GET: health },
  "/metrics": { GET: metrics },
  "/slots": { GET: slots },
  "/props": { GET: props },
  "/tokenize": { POST: tokenize },
  "/detokenize": { POST: detokenize },
  "/apply-template": { POST: applyTemplate },
  "/v1/models": { GET: models },
  "/v1/chat/completions": { POST: chatCompletions },
  "/v1/completions": { POST: completions },
  "/v1/responses": { POST: responses },
  "/v1/messages": { POST: messages },
  "/v1/messages/count_tokens": { POST: countTokens },
  "/v1/messages/apply-template": { POST: applyMessagesTemplate },
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
    const record: RequestRecord = { method: req.method ?? "GET", path, startedMs: performance.now(), notes: [] };
    res.on("close", () => {
      if (!res.writableFinished) controller.abort(new Error("the client disconnected"));
      // 499 (nginx's "client closed request"): the client left before any answer
      const status = res.headersSent ? res.statusCode : 499;
      // a stream the client gave up on: its generation is still being aborted, so the line has no figures
      if (res.headersSent && !res.writableFinished) record.notes.push("the client left before the end");
      services.metrics.countRequest(route ? path : "other", status);
      const line = requestLine(record, status, performance.now());
      if (line) services.log(line);
    });
    try {
      if (!route)
        throw new ApiError(
          404,
          "not_found",
          `no route ${req.method} ${path}; see GET /v1/models, POST /v1/chat/completions, POST /v1/messages`,
        );
      const corsOrigin = checkOrigin(req.headers, services.config.allowedOrigins);
      if (corsOrigin !== undefined) {
        if (req.method === "OPTIONS") return answerPreflight(res, corsOrigin, Object.keys(route));
        allowCors(res, corsOrigin);
      }
      // HEAD is GET without the body (node leaves the body out)
      const handler = route[(req.method === "HEAD" ? "GET" : req.method) as "GET" | "POST"];
      if (!handler) {
        const methods = Object.keys(route).flatMap((m) => (m === "GET" ? ["GET", "HEAD"] : [m]));
        res.setHeader("allow", methods.join(", "));
        throw new ApiError(405, "invalid_request", `${path} takes ${methods.join(" or ")}, not ${req.method}`);
      }
      checkAccess(req.headers, services.config.apiKey);
      const ctx = {
        req,
        res,
        services,
        signal: controller.signal,
        body: () => readJsonBody(req, maxBodyBytes(services.config.contextSize)),
      };
      await inRequest(record, () => handler(ctx));
    } catch (e) {
      if (controller.signal.aborted) return;
      const error = toApiError(e, path === "/v1/completions" ? "prompt" : path === "/v1/responses" ? "input" : "messages");
      const body = isAnthropic(path) ? anthropicError(error) : openaiError(error);
      record.error = body.error.message;
      if (res.headersSent) return failStream(res, path, error);
      sendJson(res, error.status, body);
    }
  };
  return createServer((req, res) => void handle(req, res));
}
