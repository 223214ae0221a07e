// Reads a request body as JSON, with a size limit and an error that says where the JSON breaks.
import type { IncomingMessage } from "node:http";
import { JsonError, parseJson } from "../../server/src/interpreter/json";
import { ApiError, badRequest } from "./errors";

/** Far above any chat a context window holds, low enough that a runaway client cannot exhaust memory. */
export const MAX_BODY_BYTES = 32 << 20;

export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new ApiError(413, "too_large", `request body exceeds ${limit} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") throw badRequest("request body is empty: send a JSON object", null, "invalid_json");
  try {
    return JSON.parse(text);
  } catch (e) {
    throw badRequest(`request body is not valid JSON: ${jsonErrorAt(text) ?? (e as Error).message}`, null, "invalid_json");
  }
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
