// The template guard's process (guardProcess.ts starts it): each message is one check, answered with its
// verdict as plain data. Checked templates stay cached here for the process's life, which ends with its
// parent's (the IPC channel closes).
import { checkRender, CheckedTemplates } from "./guard";
import type { GuardAnswer, GuardCall } from "./protocol";
import { Refused } from "./refusals";

function run(call: GuardCall): void {
  if (call.op === "render") return checkRender(call.source, call.json);
  const checked = CheckedTemplates.of(call.served, call.tokens);
  if (call.op === "request") checked.checkRequest(call.inputsJson);
}

function answer(call: GuardCall): GuardAnswer {
  try {
    run(call);
    return { refusal: null };
  } catch (e) {
    if (e instanceof Refused) return { refusal: e.refusal };
    return { failed: e instanceof Error ? e.message : String(e) };
  }
}

process.on("message", (call: GuardCall) => process.send!(answer(call)));
