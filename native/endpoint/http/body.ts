// Reads a request body as JSON, with a size limit and an error that says where the JSON breaks.
// Only `Content-Type: application/json` is read: text/plain and form bodies are what a web page can send
// cross-site without a preflight.
import type { IncomingMessage } from "node:http";
import { JsonError, parseJson } from "../../../server/src/interpreter";
import { ApiError, badRequest } from "./errors";
import { checkJsonDepth } from "./jsonDepth";

/**
 * A context's worth of bytes: a token is rarely more than a few bytes of text, and JSON escaping, tool
 * schemas and base64 at most multiply that; 64 bytes a token plus 1 MiB of envelope is far above any chat
 * the context can hold, and low enough that a client cannot make the endpoint hold gigabytes while parsing.
 */
export function maxBodyBytes(contextSize: number): number {
  return (1 << 20) + 64 * contextSize;
}

export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") {
    throw new ApiError(
      415,
      "invalid_request",
      `request body must be sent with 'Content-Type: application/json' (got ${type === "" ? "none" : `'${type}'`})`,
    );
  }
  const tooLarge = () =>
    new ApiError(413, "too_large", `request body exceeds the limit of ${limit} bytes (1 MiB + 64 bytes per token of context)`);
  // refused before reading when the client says so up front; counted as it streams when it does not
  if (Number(req.headers["content-length"] ?? 0) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") throw badRequest("request body is empty: send a JSON object", null, "invalid_json");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw badRequest(`request body is not valid JSON: ${jsonErrorAt(text) ?? (e as Error).message}`, null, "invalid_json");
  }
  checkJsonDepth(body);
  return body;
}

/** V8's messages give no line and column for most errors; our Python-compatible reader does. */
function jsonErrorAt(text: string): string | undefined {
  try {
    parseJson(text);
  } catch (e) {
    if (e instanceof JsonError) return e.message;
  }
  // it accepts NaN and Infinity, which JSON.parse refuses: keep V8's message then
  return undefined;
}
