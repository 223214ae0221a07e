// `chat-template serve`: binds, prints where (one JSON line on stdout, for the process that started it),
// then loads the model while /health reports progress. Runs until SIGINT or SIGTERM.
//
// stdout carries only JSON lines, one per event:
//   {"event":"listening","url","host","port","pid","model","demo"}   once bound (`--port 0`: the real port)
//   {"event":"ready","url","model","demo","backend","contextSize","draft"}   the model is loaded
//   {"event":"error","message"}                                       loading failed (the process keeps serving /health)
//   {"event":"template","status":"loaded"|"error","path","mirrorOf"?,"message"?}  --chat-template-file (re)loaded or refused
//   {"event":"warning","kind":"dflash_below_break_even","context","breakEven","acceptance","message"}  once per run
// People read stderr. With --exit-on-stdin-close, stdin takes JSON lines: {"chatTemplateMirrorOf": NAME}.
import type { AddressInfo } from "node:net";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import type { CommandIO } from "../../server/src/commandLine";
import { processGuard } from "../../server/src/guard";
import { setTemplateGuard } from "../engine";
import { ensureDemoModels } from "../testModels";
import { parseServeArgs, type ServeConfig } from "./config";
import { Metrics } from "./llama/metrics";
import { ModelHost, type ModelFiles } from "./llama/model";
import { PromptHistory } from "./chat/promptHistory";
import { GenerationQueue } from "./llama/queue";
import { createEndpointServer } from "./http/server";
import type { Services } from "./services";
import { reloadAdvice, templateName } from "./llama/templateSource";

export { help } from "./config";

function banner(lines: string[]): string {
  const width = Math.max(...lines.map((l) => l.length));
  const rule = "*".repeat(width + 4);
  return [rule, ...lines.map((l) => `* ${l.padEnd(width)} *`), rule].join("\n") + "\n";
}

function modelFiles(config: ServeConfig, io: CommandIO): ModelFiles | string {
  if (config.target !== undefined) {
    for (const f of [config.target, config.draft]) if (f !== undefined && !existsSync(f)) return `model file not found: ${f}`;
    return { target: config.target, draft: config.draft };
  }
  const demo = ensureDemoModels();
  io.stderr(
    banner([
      "No --target given: serving the DEMO models.",
      demo.description + ".",
      "Serve a real model with --target MODEL.gguf [--draft DFLASH-DRAFT.gguf].",
    ]),
  );
  return { target: demo.target, draft: demo.draft, demo: demo.description };
}

/** A stdin line `{"chatTemplateMirrorOf": NAME}`; anything else is reported and ignored. */
function renameMirror(config: ServeConfig, line: string, log: (line: string) => void): void {
  let name: unknown;
  try {
    name = (JSON.parse(line) as { chatTemplateMirrorOf?: unknown }).chatTemplateMirrorOf;
  } catch {
    // reported below
  }
  if (typeof name === "string" && name !== "" && config.chatTemplateFile !== undefined) config.chatTemplateMirrorOf = name;
  else log(`stdin: ignored ${JSON.stringify(line.slice(0, 200))} (expected {"chatTemplateMirrorOf": NAME}, with --chat-template-file)`);
}

const urlOf = (host: string, port: number) => `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

export async function serveCommand(argv: string[], io: CommandIO): Promise<number> {
  const config = parseServeArgs(argv);
  // the engine runs no template the guard has not vouched for; this process's guard checks in a process of its own
  setTemplateGuard(processGuard);
  if (config.chatTemplateFile !== undefined && !existsSync(config.chatTemplateFile)) {
    io.stderr(`chat-template serve: template file not found: ${config.chatTemplateFile}\n`);
    return 1;
  }
  const files = modelFiles(config, io);
  if (typeof files === "string") {
    io.stderr(`chat-template serve: ${files}\n`);
    return 1;
  }
  const event = (e: object) => io.stdout(JSON.stringify(e) + "\n");
  const log = (line: string) => io.stderr(`chat-template serve: ${line}\n`);
  const model = new ModelHost(files, config);
  // once per run: a draft that loses to plain decoding is worth knowing about (the controller already copes)
  const metrics = new Metrics((w) => {
    event({
      event: "warning",
      kind: "dflash_below_break_even",
      context: w.context,
      breakEven: w.breakEven,
      acceptance: w.acceptance,
      message: w.message,
    });
    log(w.message);
  });
  const services: Services = {
    config,
    model,
    queue: new GenerationQueue(config.maxQueue),
    metrics,
    promptHistory: new PromptHistory(),
    log,
  };
  const server = createEndpointServer(services);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(config.port, config.host, resolve);
    });
  } catch (e) {
    log(`cannot listen on ${urlOf(config.host, config.port)}: ${(e as Error).message}`);
    return 1;
  }
  const url = urlOf(config.host, (server.address() as AddressInfo).port);
  const demo = files.demo !== undefined;
  event({
    event: "listening",
    url,
    host: config.host,
    port: (server.address() as AddressInfo).port,
    pid: process.pid,
    model: model.id,
    demo,
  });
  log(`listening on ${url}${config.apiKey ? " (API key required)" : ""}; loading ${model.id}…`);

  const stopped = new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
    if (config.exitOnStdinClose) process.stdin.once("end", resolve).resume();
  });
  // the parent's pipe also names the file the template mirrors when its editor switches to another one
  if (config.exitOnStdinClose) createInterface({ input: process.stdin }).on("line", (line) => renameMirror(config, line, log));
  const loading = model.load((t) => {
    event({ event: "template", ...t });
    log(
      t.status === "loaded"
        ? `chat template loaded from ${templateName(t)}`
        : `chat template ${templateName(t)} not used: ${t.message}${t.mirrorOf === undefined ? "" : `; ${reloadAdvice(t)}`}`,
    );
  });
  void loading.then(() => {
    const s = model.status;
    if (s.state === "error") {
      event({ event: "error", message: s.message });
      log(`the model failed to load: ${s.message}`);
    } else if (s.state === "ready") {
      const { info } = model.ready();
      event({
        event: "ready",
        url,
        model: model.id,
        demo,
        backend: info.backend.kind,
        contextSize: info.contextSize,
        draft: info.draft?.name ?? null,
      });
      log(
        `ready: ${info.backend.kind} backend (${info.backend.reason}), context ${info.contextSize}${info.draft ? `, DFlash draft ${info.draft.name}` : ", no draft"}`,
      );
    }
  });

  await stopped;
  log("shutting down");
  // an open stdin would keep the process alive after a signal
  if (config.exitOnStdinClose) process.stdin.destroy();
  server.close();
  server.closeAllConnections();
  services.queue.drain(new Error("the endpoint is shutting down"));
  await loading;
  await model.close();
  return 0;
}
