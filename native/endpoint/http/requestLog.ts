// One line per request for people, on the endpoint's stderr (which the editor's output channel shows): method,
// route, status, time, and for a generation its prompt tokens (cached), generated tokens, speed and DFlash
// acceptance; for an error, the message the client got. GET /health and /metrics are left out: pollers call them
// every second. The generation is noted where every route's generation passes (generation.ts), in the request's
// async context, so no handler has to hand its statistics back.
import { AsyncLocalStorage } from "node:async_hooks";
import type { GenerateStats } from "../../engine";

export interface RequestRecord {
  method: string;
  path: string;
  startedMs: number;
  stats?: GenerateStats;
  /** What the request changed to be served (an image left out of a tool result), for its line. */
  notes: string[];
  /** The message of the error the client got (in the body, or inside a stream that had started). */
  error?: string;
}

const current = new AsyncLocalStorage<RequestRecord>();

export function inRequest<T>(record: RequestRecord, handle: () => T): T {
  return current.run(record, handle);
}

/** Something the line should say about the request being handled. */
export function noteRequest(note: string): void {
  current.getStore()?.notes.push(note);
}

/** The generation of the request being handled, whichever route it came by. */
export function noteGeneration(stats: GenerateStats): void {
  const record = current.getStore();
  if (record) record.stats = stats;
}

const QUIET = new Set(["/health", "/metrics"]);

const duration = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

function generation(s: GenerateStats): string {
  const speed = s.generatedTokens > 0 ? ` at ${s.tokensPerSecond.toFixed(1)} tok/s` : "";
  const dflash =
    s.speculative && s.drafted > 0 ? `, DFlash acceptance ${Math.round(s.acceptance * 100)} % (${s.accepted}/${s.drafted})` : "";
  return `prompt ${s.promptTokens} tokens (${s.cachedTokens} cached), ${s.generatedTokens} generated${speed}${dflash}`;
}

/** The line for a finished request (499: the client left before the answer), or null for the pollers' routes. */
export function requestLine(r: RequestRecord, status: number, nowMs: number): string | null {
  if (QUIET.has(r.path)) return null;
  const details = [r.stats && generation(r.stats), ...r.notes, r.error].filter((d) => d);
  return `${r.method} ${r.path} ${status} in ${duration(nowMs - r.startedMs)}${details.length ? `: ${details.join("; ")}` : ""}`;
}
