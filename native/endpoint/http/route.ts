// What a route handler gets, and the one way it answers with JSON.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Services } from "../services";

export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  services: Services;
  /** Aborted when the client disconnects before the response is complete. */
  signal: AbortSignal;
  body(): Promise<unknown>;
}

export type Handler = (ctx: RouteContext) => Promise<void>;

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}
