// The preview's controller without VS Code: a fake webview transport that keeps what the controller posts and
// lets a test send the webview's messages, the dialect engines in this process and the built-in scenarios.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PreviewController, type ControllerOptions, type PreviewHost } from "../../client/src/preview/controller";
import { dialectEngines } from "../../client/src/preview/engines/engine";
import { builtinScenarios } from "../../client/src/preview/model/scenarios";
import type { HostMessage } from "../../client/src/preview/protocol";

export const BUILTIN_SCENARIOS = builtinScenarios(readFileSync(join(__dirname, "../../templates/scenarios.json"), "utf8"));

/** `options` replace the defaults (debounce 10 ms); `host` replaces the no-op host's methods it names. */
export function recordedPreview(options: Partial<Omit<ControllerOptions, "host" | "transport">> & { host?: Partial<PreviewHost> } = {}) {
  const posted: HostMessage[] = [];
  let listener: (raw: unknown) => void = () => {};
  const { host, ...rest } = options;
  const controller = new PreviewController({
    transport: { post: (m) => posted.push(m), onMessage: (l) => ((listener = l), { dispose() {} }) },
    engines: dialectEngines(),
    scenarios: BUILTIN_SCENARIOS,
    debounceMs: 10,
    ...rest,
    host: { reveal() {}, copy() {}, diff() {}, saveScenario() {}, log() {}, ...host },
  });
  return { controller, posted, send: (raw: unknown) => listener(raw) };
}
