// A Debug Adapter Protocol client for tests: requests answered by their response, events waited for by name (each
// event is kept, so one that came before the wait is found). Over an in-process session or a child's stdio.
import type { ChildProcess } from "node:child_process";
import type { DebugProtocol } from "@vscode/debugprotocol";
import type { ChatTemplateDebugSession } from "../../server/src/debugger";

type Message = DebugProtocol.ProtocolMessage & { command?: string; event?: string; request_seq?: number; body?: unknown };

export class DapClient {
  private seq = 1;
  private readonly pending = new Map<number, (r: DebugProtocol.Response) => void>();
  readonly events: DebugProtocol.Event[] = [];
  private readonly eventWaiters: { name: string; from: number; resolve: (e: DebugProtocol.Event) => void }[] = [];
  /** Where the next waitFor looks from: each event is consumed by one wait. */
  private consumed = 0;

  constructor(private readonly write: (m: DebugProtocol.ProtocolMessage) => void) {}

  static inProcess(session: ChatTemplateDebugSession): DapClient {
    const client = new DapClient((m) => session.handleMessage(m));
    session.onDidSendMessage((m) => client.receive(m as Message));
    return client;
  }

  static overStdio(child: ChildProcess): DapClient {
    const client = new DapClient((m) => {
      const json = JSON.stringify(m);
      child.stdin!.write(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
    });
    let buf = Buffer.alloc(0);
    child.stdout!.on("data", (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const head = buf.indexOf("\r\n\r\n");
        if (head < 0) return;
        const length = Number(/Content-Length: (\d+)/.exec(buf.subarray(0, head).toString())![1]);
        if (buf.length < head + 4 + length) return;
        client.receive(JSON.parse(buf.subarray(head + 4, head + 4 + length).toString()) as Message);
        buf = buf.subarray(head + 4 + length);
      }
    });
    return client;
  }

  private receive(m: Message): void {
    if (m.type === "response") {
      const r = m as DebugProtocol.Response;
      this.pending.get(r.request_seq)?.(r);
      this.pending.delete(r.request_seq);
    } else if (m.type === "event") {
      this.events.push(m as DebugProtocol.Event);
      this.settle();
    }
  }

  private settle(): void {
    for (const w of [...this.eventWaiters]) {
      const i = this.events.findIndex((e, k) => k >= w.from && e.event === w.name);
      if (i < 0) continue;
      this.eventWaiters.splice(this.eventWaiters.indexOf(w), 1);
      w.resolve(this.events[i]);
    }
  }

  /** Sends a request; resolves with the response (success or not). */
  request<T extends DebugProtocol.Response = DebugProtocol.Response>(command: string, args?: unknown): Promise<T> {
    const seq = this.seq++;
    return new Promise((resolve) => {
      this.pending.set(seq, resolve as (r: DebugProtocol.Response) => void);
      this.write({ seq, type: "request", command, arguments: args } as DebugProtocol.Request);
    });
  }

  /** The next event of that name not yet waited for. */
  waitFor<T extends DebugProtocol.Event = DebugProtocol.Event>(name: string): Promise<T> {
    return new Promise((resolve) => {
      const from = this.consumed;
      this.eventWaiters.push({
        name,
        from,
        resolve: (e) => {
          this.consumed = Math.max(this.consumed, this.events.indexOf(e) + 1);
          resolve(e as T);
        },
      });
      this.settle();
    });
  }

  /** Everything the adapter wrote to the debug console in a category (the rendered output is "stdout"). */
  output(category: string): string {
    return this.events
      .filter((e) => e.event === "output" && (e as DebugProtocol.OutputEvent).body.category === category)
      .map((e) => (e as DebugProtocol.OutputEvent).body.output)
      .join("");
  }
}
