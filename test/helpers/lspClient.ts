// A real LSP client over stdio for tests: spawns the built language server (dist/server.js, what
// the extension runs) and talks JSON-RPC to it through vscode-languageserver-protocol.
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import {
  createProtocolConnection,
  InitializedNotification,
  type InitializeParams,
  InitializeRequest,
  type InitializeResult,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type TextEdit,
} from "vscode-languageserver-protocol/node";

export const SERVER = resolve(__dirname, "../../dist/server.js");

export interface TestClient {
  connection: ProtocolConnection;
  /** Every publishDiagnostics notification received so far, with its arrival time. */
  published: { at: number; params: PublishDiagnosticsParams }[];
  /** Resolves with the next publishDiagnostics for `uri`. */
  nextDiagnostics(uri: string): Promise<PublishDiagnosticsParams>;
  /** Resolves with the match of the next window/logMessage whose text matches `pattern`. */
  nextLog(pattern: RegExp): Promise<RegExpExecArray>;
  close(): Promise<void>;
}

export function startServer(): TestClient {
  const child: ChildProcess = spawn(process.execPath, [SERVER, "--stdio"], { stdio: ["pipe", "pipe", "inherit"] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const published: TestClient["published"] = [];
  const waiting: { uri: string; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    published.push({ at: Date.now(), params });
    const i = waiting.findIndex((w) => w.uri === params.uri);
    if (i >= 0) waiting.splice(i, 1)[0].resolve(params);
  });
  const logWaiting: { pattern: RegExp; resolve: (m: RegExpExecArray) => void }[] = [];
  connection.onNotification(LogMessageNotification.type, ({ message }) => {
    for (const w of logWaiting) {
      const m = w.pattern.exec(message);
      if (m) {
        logWaiting.splice(logWaiting.indexOf(w), 1);
        w.resolve(m);
        return;
      }
    }
  });
  connection.listen();
  return {
    connection,
    published,
    nextDiagnostics: (uri) => new Promise((resolve) => waiting.push({ uri, resolve })),
    nextLog: (pattern) => new Promise((resolve) => logWaiting.push({ pattern, resolve })),
    async close() {
      await connection.sendRequest("shutdown");
      await connection.sendNotification("exit");
      await new Promise<void>((done) => (child.exitCode !== null ? done() : child.once("exit", () => done())));
      connection.dispose();
    },
  };
}

/** The initialize handshake (initialize, then initialized): no client capabilities and no root unless `params` give them. */
export async function initialize(client: TestClient, params: Partial<InitializeParams> = {}): Promise<InitializeResult> {
  const result = await client.connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
    ...params,
  });
  await client.connection.sendNotification(InitializedNotification.type, {});
  return result;
}

/** `text` with non-overlapping LSP edits applied, as an editor applies them (lines split on \n). */
export function applyLspEdits(text: string, edits: readonly TextEdit[]): string {
  const lines = text.split("\n");
  const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return [...edits]
    .sort((a, b) => offset(b.range.start) - offset(a.range.start))
    .reduce((t, e) => t.slice(0, offset(e.range.start)) + e.newText + t.slice(offset(e.range.end)), text);
}
