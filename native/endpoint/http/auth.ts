// Who may use the endpoint: the API key (OpenAI's `Authorization: Bearer`, Anthropic's `x-api-key`), and,
// without a key, only clients that name a loopback host, so that a web page cannot reach the model
// through DNS rebinding (its requests carry the attacker's host name).
import { timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { ApiError } from "./errors";

function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const auth = headers.authorization;
  if (auth?.toLowerCase().startsWith("bearer ")) return auth.slice(7).trim();
  const key = headers["x-api-key"];
  return typeof key === "string" ? key : undefined;
}

function sameKey(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const LOOPBACK_NAMES = /^(localhost|[^.]+\.localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/i;

/** Throws the 401/403 a request gets, or returns when it may proceed. */
export function checkAccess(headers: IncomingHttpHeaders, apiKey: string | undefined): void {
  if (apiKey === undefined) {
    const host = headers.host ?? "";
    if (!LOOPBACK_NAMES.test(host)) {
      throw new ApiError(
        403,
        "permission",
        `Host '${host}' is not a loopback name; start the endpoint with an API key to accept other hosts`,
      );
    }
    return;
  }
  const key = presentedKey(headers);
  if (key === undefined)
    throw new ApiError(
      401,
      "authentication",
      "missing API key: send 'Authorization: Bearer KEY' or 'x-api-key: KEY'",
      null,
      "invalid_api_key",
    );
  if (!sameKey(key, apiKey)) throw new ApiError(401, "authentication", "invalid API key", null, "invalid_api_key");
}
