// The crashers of the hostile-template catalog (test/helpers/hostileTemplates.ts) do crash llama.cpp's own Jinja
// engine (node-llama-cpp's prebuilt addon, in a helper process of its own: the crash ends that process), and the
// template guard refuses each at its node before the engine is given it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, it } from "node:test";
import { renderTemplate } from "../../../native/engine/chat";
import { TemplateLimitError, TemplateRefusedError } from "../../../native/engine/errors";
import { HOSTILE_TEMPLATES } from "../../helpers/hostileTemplates";
import "../../helpers/templateGuard";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";

const WORKER = ["--import", "tsx", join(__dirname, "../../../client/src/preview/engines/llamacppWorker.ts")];
const CRASHERS = HOSTILE_TEMPLATES.filter((h) => h.category === "crasher" && !h.name.startsWith("range"));

const context = (trigger?: string) => ({ messages: [{ role: "user", content: trigger ?? "hi" }], add_generation_prompt: true });

describe("llama.cpp's crashers", () => {
  it("end the real engine's process with SIGFPE or SIGSEGV", { timeout: HANG_GUARD_MS }, () => {
    for (const h of CRASHERS) {
      const line = JSON.stringify({ template: h.template, context: JSON.stringify(context(h.trigger)) }) + "\n";
      const r = spawnSync(process.execPath, WORKER, { input: line, encoding: "utf8" });
      assert.ok(r.signal === "SIGFPE" || r.signal === "SIGSEGV", `${h.name}: ${r.signal ?? `exit ${r.status}`} ${r.stdout}`);
    }
  });

  it("are refused by the template guard at their node", { timeout: HANG_GUARD_MS }, async () => {
    for (const h of CRASHERS) {
      const e = await renderTemplate(h.template, context(h.trigger)).then(
        () => null,
        (x: unknown) => x,
      );
      assert.ok(e instanceof TemplateRefusedError || e instanceof TemplateLimitError, `${h.name}: ${String(e)}`);
      assert.ok(e.column > 1, `${h.name}: located at its node: ${e.message}`);
    }
  });
});
