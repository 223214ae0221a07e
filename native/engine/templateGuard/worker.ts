// The template guard's process (guardProcess.ts starts it): each message is one check, answered with nothing
// when it passes and with the refusal, as plain data, when it does not. Checked templates stay cached here
// for the process's life, which ends with its parent's (the IPC channel closes).
import { EngineError, TemplateLimitError, TemplateRefusedError } from "../errors";
import { checkRender, TemplateGuard } from "./guard";
import type { GuardAnswer, GuardCall } from "./protocol";

function run(call: GuardCall): void {
  if (call.op === "render") return checkRender(call.source, call.json);
  const guard = TemplateGuard.of(call.served, call.tokens);
  if (call.op === "request") guard.checkRequest(call.inputsJson);
}

function answer(call: GuardCall): GuardAnswer {
  try {
    run(call);
    return { ok: true };
  } catch (e) {
    if (e instanceof TemplateLimitError)
      return { ok: false, kind: "limit", limit: e.limit, line: e.line, column: e.column, message: e.message };
    if (e instanceof TemplateRefusedError) return { ok: false, kind: "refused", line: e.line, column: e.column, message: e.message };
    if (e instanceof EngineError) return { ok: false, kind: "engine", code: e.code, message: e.message };
    return { ok: false, kind: "failed", message: e instanceof Error ? e.message : String(e) };
  }
}

process.on("message", (call: GuardCall) => process.send!(answer(call)));
