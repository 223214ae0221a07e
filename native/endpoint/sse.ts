// A server-sent-events response that starts on its first event, so that anything failing before then
// (a full queue, a context overflow) is still answered with a status code and a JSON error. The DFlash
// statistics go out as trailers, declared up front, once the generation is over.
import type { ServerResponse } from "node:http";
import { DFLASH_HEADERS } from "./dflash";

export class SseStream {
  constructor(private readonly res: ServerResponse) {}

  get started(): boolean {
    return this.res.headersSent;
  }

  send(data: unknown, event?: string): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    if (!this.res.headersSent) {
      this.res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        connection: "keep-alive",
        trailer: DFLASH_HEADERS.join(", "),
      });
    }
    this.res.write((event ? `event: ${event}\n` : "") + `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
  }

  end(trailers?: Record<string, string>): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    if (trailers) this.res.addTrailers(trailers);
    this.res.end();
  }
}
