// The language server on the hostile template catalogue (issue 17): each template opened in the built server
// (dist/server.js, default limits, all four engines), the time until its diagnostics, which limit spoke, and the
// time a hover on another document took meanwhile. Targets (by eye): every template answered within the
// analysis time limit plus its parse, every hover answered, the server up at the end.
import {
  DidOpenTextDocumentNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
} from "vscode-languageserver-protocol/node";
import { HOSTILE_TEMPLATES } from "../helpers/hostileTemplates";
import { startServer } from "../helpers/lspClient";
import type { BenchSuite } from "./bench";

const GOOD = "file:///bench/good.jinja";
const LIMIT_CODES = /^(limit\/|analysis\/|syntax\/nesting|compat\/check-limit)/;

const suite: BenchSuite = {
  name: "language server on the hostile catalogue",
  async run() {
    const client = startServer();
    const { connection } = client;
    await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      capabilities: {},
      initializationOptions: { diagnostics: { debounceMs: 0, engines: ["jinja2", "llamacpp", "minja", "hfjinja"] } },
    });
    await connection.sendNotification(InitializedNotification.type, {});
    const open = (uri: string, text: string) => {
      const next = client.nextDiagnostics(uri);
      void connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: "chat-template", version: 1, text },
      });
      return next;
    };
    await open(GOOD, "{% for m in messages %}\n{{ m.content }}{% endfor %}");
    const started = Date.now();
    let answered = 0;
    let slowest = 0;
    const limits: Record<string, number> = {};
    for (const [i, h] of HOSTILE_TEMPLATES.entries()) {
      const t0 = Date.now();
      const published = open(`file:///bench/hostile-${i}.jinja`, h.template);
      const h0 = Date.now();
      if (await connection.sendRequest(HoverRequest.type, { textDocument: { uri: GOOD }, position: { line: 1, character: 5 } })) answered++;
      const hoverMs = Date.now() - h0;
      const codes = [...new Set((await published).diagnostics.map((d) => String(d.code)).filter((c) => LIMIT_CODES.test(c)))];
      const ms = Date.now() - t0;
      slowest = Math.max(slowest, ms);
      for (const c of codes) limits[c] = (limits[c] ?? 0) + 1;
      console.log(`${String(ms).padStart(6)} ms  hover ${String(hoverMs).padStart(4)} ms  ${h.category}: ${h.name}  ${codes.join(", ")}`);
    }
    const n = HOSTILE_TEMPLATES.length;
    console.log(
      `${n} templates in ${((Date.now() - started) / 1000).toFixed(1)} s, slowest ${slowest} ms; hover answered ${answered}/${n}`,
    );
    console.log(`templates per limit: ${JSON.stringify(limits)}`);
    await client.close();
  },
};

export default suite;
