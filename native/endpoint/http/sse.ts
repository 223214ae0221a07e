// A server-sent-events response that starts on its first event, so that anything failing before then
// (a full queue, a context overflow) is still answered with a status code and a JSON error. The DFlash
// statistics go out as trailers, declared up front, once the generation is over.
//
// A stream that stays silent (a long prefill, a wait in the queue) gets a keep-alive every `pingSeconds`
// (llama-server's --sse-ping-interval), so clients and proxies with an idle timeout keep the connection. By
// default it is a comment, which SSE parsers skip; an API's writer may give an event of its own instead, because
// clients' idle guards count only what their parser yields (qwen-code aborts after 240 s of comments alone).
// The first one starts the response: an error after it is told in the stream.
import type { ServerResponse } from "node:http";
import { DFLASH_HEADERS } from "../llama/dflash";

export const PING = ": ping\n\n";

export class SseStream {
  private readonly ping?: NodeJS.Timeout;
  /** An event went out since the last tick of the ping timer. */
  private spoke = false;
  /** Sends the API's keep-alive event (set by its writer); absent: a comment. */
  keepAlive?: () => void;

  constructor(
    private readonly res: ServerResponse,
    /** <= 0: no keep-alives. */
    pingSeconds = -1,
  ) {
    if (pingSeconds > 0) {
      this.ping = setInterval(() => {
        if (!this.spoke) {
          if (this.keepAlive) this.keepAlive();
          else this.write(PING);
        }
        this.spoke = false;
      }, pingSeconds * 1000);
      res.once("close", () => clearInterval(this.ping));
    }
  }

  get started(): boolean {
    return this.res.headersSent;
  }

  send(data: unknown, event?: string): void {
    this.spoke = true;
    this.write((event ? `event: ${event}\n` : "") + `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
  }

  end(trailers?: Record<string, string>): void {
    clearInterval(this.ping);
    if (this.res.writableEnded || this.res.destroyed) return;
    if (trailers) this.res.addTrailers(trailers);
    this.res.end();
  }

  private write(text: string): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    if (!this.res.headersSent) {
      this.res.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        connection: "keep-alive",
        trailer: DFLASH_HEADERS.join(", "),
      });
    }
    this.res.write(text);
  }
}
