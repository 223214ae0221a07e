// Runs the endpoint process (dist/endpoint.js, what the extension host spawns) on the demo models and
// reads its stdout events. Each test file gets its own demo-model folder.
import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";

export const ENDPOINT = resolve(__dirname, "../../dist/endpoint.js");
export const CLI = resolve(__dirname, "../../dist/cli.js");

export interface EndpointEvent {
  event: string;
  [key: string]: unknown;
}

export class EndpointProcess {
  readonly events: EndpointEvent[] = [];
  stderr = "";
  url = "";
  private readonly waiters: { match: (e: EndpointEvent) => boolean; resolve: (e: EndpointEvent) => void }[] = [];
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const e = JSON.parse(line) as EndpointEvent;
      this.events.push(e);
      for (const w of [...this.waiters]) {
        if (w.match(e)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(e);
        }
      }
    });
    child.stderr!.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((r) => child.on("exit", (code) => r(code)));
  }

  /** The first event (past or future) that matches. */
  waitFor(match: (e: EndpointEvent) => boolean): Promise<EndpointEvent> {
    const past = this.events.find(match);
    if (past) return Promise.resolve(past);
    return new Promise((resolve, reject) => {
      this.waiters.push({ match, resolve });
      void this.exited.then((code) => reject(new Error(`endpoint exited (${code}) before the event; stderr:\n${this.stderr}`)));
    });
  }

  /**
   * Until stderr from offset `from` on matches: stderr is a pipe of its own, so a line logged with an event may come
   * after it. Waits on the pipe's data, however slow the machine; fails when the process exits without the line.
   */
  waitForStderr(re: RegExp, from = 0): Promise<RegExpExecArray> {
    const stderr = this.child.stderr!;
    return new Promise((resolve, reject) => {
      const check = () => {
        const m = re.exec(this.stderr.slice(from));
        if (!m) return false;
        stderr.off("data", onData);
        resolve(m);
        return true;
      };
      // after the constructor's listener has appended the chunk
      const onData = () => void check();
      const fail = () => reject(new Error(`the endpoint's stderr ended without matching ${re}:\n${this.stderr}`));
      if (check()) return;
      if (stderr.readableEnded) return fail();
      stderr.on("data", onData);
      stderr.once("end", () => {
        stderr.off("data", onData);
        if (!check()) fail();
      });
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  async stop(): Promise<number | null> {
    if (this.child.exitCode === null) this.child.kill("SIGTERM");
    return this.exited;
  }
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Wait for the ready event (default) or only for listening. */
  until?: "ready" | "listening";
  /** The CLI (`chat-template serve`) instead of dist/endpoint.js. */
  viaCli?: boolean;
  /** A pipe to the process's stdin instead of none. */
  stdin?: boolean;
}

/** A demo-model folder for this test file, removed at exit. */
const storage = mkdtempSync(join(tmpdir(), "cts-endpoint-"));
process.on("exit", () => rmSync(storage, { recursive: true, force: true }));
export const storageDir = storage;

export function spawnEndpoint(args: string[], options: StartOptions = {}): EndpointProcess {
  const entry = options.viaCli ? [CLI, "serve"] : [ENDPOINT];
  return new EndpointProcess(
    spawn(process.execPath, [...entry, ...args], {
      env: { ...process.env, CTS_STORAGE_DIR: storage, ...options.env },
      stdio: [options.stdin ? "pipe" : "ignore", "pipe", "pipe"],
    }),
  );
}

/** Starts on a free port with one thread (the tiny models gain nothing from more) and waits until it is up. */
export async function startEndpoint(args: string[] = [], options: StartOptions = {}): Promise<EndpointProcess> {
  const p = spawnEndpoint(["--port", "0", "--threads", "1", ...args], options);
  const listening = await p.waitFor((e) => e.event === "listening");
  p.url = listening.url as string;
  if ((options.until ?? "ready") === "ready") await p.waitFor((e) => e.event === "ready" || e.event === "error");
  return p;
}

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; json: any }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as any };
}

/** One sample of a Prometheus text metric (the first line that starts with the name and labels). */
export async function metric(url: string, sample: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(sample + " "));
  return line === undefined ? 0 : Number(line.slice(sample.length + 1));
}

/** Polls until the condition holds; the test's own timeout bounds it. */
export async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((r) => setTimeout(r, 20));
}

export const WEATHER_TOOL = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Current weather in a city",
    // a bounded string: the random model's arguments end before max_tokens
    parameters: { type: "object", properties: { city: { type: "string", maxLength: 12 } }, required: ["city"] },
  },
};

export interface RawStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The stream's events: `event:` (or "message") and parsed `data:` ("[DONE]" kept as a string). */
  events: { event: string; data: any }[];
  trailers: Record<string, string | undefined>;
}

/** A POST read with node:http, which, unlike fetch, gives the trailers. */
export function rawStream(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { "content-type": "application/json", ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => {
        const events = text
          .split("\n\n")
          // comment-only blocks (keep-alive pings) are no events
          .filter((block) => block.split("\n").some((l) => l.trim() && !l.startsWith(":")))
          .map((block) => {
            const lines = block.split("\n");
            const event = lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "message";
            const data = lines.find((l) => l.startsWith("data: "))?.slice(6) ?? "";
            return { event, data: data === "[DONE]" ? data : JSON.parse(data) };
          });
        resolve({ status: res.statusCode!, headers: res.headers, events, trailers: res.trailers });
      });
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}
