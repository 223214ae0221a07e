// Cross-site requests: a web page open in the user's browser can POST to 127.0.0.1 without a preflight
// (a "simple" request), so the Host check alone does not stop it. Browsers always name the page's origin
// in `Origin`; clients that are not browsers send none. A request whose Origin is neither the endpoint's
// own nor one the user allowed is refused before anything runs.
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { ApiError } from "./errors";

/** The origin a value of --allowed-origins names, or undefined when it is not one (a path, a wildcard…). */
export function normalOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    return value.replace(/\/$/, "").toLowerCase() === url.origin.toLowerCase() ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Throws 403 for a foreign Origin; returns the origin to answer with CORS headers for, if it is an allowed one. */
export function checkOrigin(headers: IncomingHttpHeaders, allowed: readonly string[]): string | undefined {
  const origin = headers.origin;
  if (origin === undefined) return undefined;
  if (allowed.includes(origin)) return origin;
  let own = false;
  try {
    const url = new URL(origin);
    own = url.protocol === "http:" && url.host.toLowerCase() === (headers.host ?? "").toLowerCase();
  } catch {
    // "null" (sandboxed frames, file: pages) and other non-URLs are never the endpoint's own
  }
  if (!own) {
    throw new ApiError(
      403,
      "permission",
      `Origin '${origin}' may not use this endpoint: start it with --allowed-origins ${origin} (setting chatTemplate.endpoint.allowedOrigins) to allow that site`,
    );
  }
  return undefined;
}

/** Only an allowed origin gets CORS headers; everyone else's browser keeps the answer from the page. */
export function allowCors(res: ServerResponse, origin: string): void {
  res.setHeader("access-control-allow-origin", origin);
  res.setHeader("vary", "Origin");
}

/** The browser's preflight for an allowed origin: JSON bodies and the API key headers. */
export function answerPreflight(res: ServerResponse, origin: string, methods: readonly string[]): void {
  allowCors(res, origin);
  res.writeHead(204, {
    "access-control-allow-methods": methods.join(", "),
    "access-control-allow-headers": "content-type, authorization, x-api-key, anthropic-version",
    "access-control-max-age": "600",
  });
  res.end();
}
