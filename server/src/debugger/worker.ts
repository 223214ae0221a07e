// The render's worker thread (dist/debugWorker.js): one render of the template under the debugger's hook. The
// adapter's thread stays free to speak the Debug Adapter Protocol while this one is stopped inside the render.
import { parentPort, workerData } from "node:worker_threads";
import { renderRequest } from "../analysis";
import { dialectFor } from "../dialects";
import { TemplateDocument } from "../document";
import { parseJson, type PyDict } from "../interpreter";
import { PausedRender, type Reference } from "./pausedRender";
import type { RenderFailure, Report, WorkerStart } from "./protocol";

const start = workerData as WorkerStart;
const report = (r: Report): void => parentPort!.postMessage(r);
const doc = new TemplateDocument(start.source);
const context = (): PyDict => parseJson(start.contextJson) as PyDict;
const jinja2Render = (): Reference => {
  const r = renderRequest(doc, context(), { dialect: dialectFor("jinja2")! });
  return { output: r.output, complete: r.error === null };
};
const hook = new PausedRender({
  doc,
  stopOnEntry: start.stopOnEntry,
  exceptions: start.exceptions,
  reference: start.engine === "jinja2" ? null : jinja2Render,
  breakpoints: start.breakpoints,
  signal: new Int32Array(start.signal),
  port: start.port,
  report,
});
const r = renderRequest(doc, context(), { dialect: dialectFor(start.engine)!, debug: hook });
let error: RenderFailure | null = null;
if (r.error) {
  hook.stopAtError(r.error, r.error.message);
  const p = doc.lines.positionAt(r.error.start);
  error = { message: r.error.message, code: r.error.code, line: p.line + 1, column: p.character + 1 };
}
hook.finished(r.output);
hook.showOutput(r.output);
report({ type: "done", output: r.output, error });
start.port.close();
