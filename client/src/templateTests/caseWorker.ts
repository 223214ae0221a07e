// The helper process behind the Test Explorer and Compare Templates (caseProcess.ts): per stdin line, runs one
// case of a `*.chat-template-test.json` with the runner of `chat-template test`, or reads a template's markers,
// and answers on stdout. Both render the user's template many times (caps probes, renders, diagnostics); here a
// template that exhausts the heap or runs long ends only this process, and the caller says which limit it met and
// at which line (this process reports where its render is, helperProgress.ts).
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { TemplateDocument } from "../../../server/src/document";
import { markersOf, readTestFile, runCase } from "../../../server/src/templateTests";
import { rendering, reportProgressToParent, type ProgressTagged } from "../helperProcess/helperProgress";
import type { CaseReply, CaseRequest, WorkerRequest } from "./caseProcess";

const say = (obj: object) => process.stdout.write(JSON.stringify(obj) + "\n");

reportProgressToParent();
say({ ready: true, version: null });

let last: TemplateDocument | null = null;

async function run(req: CaseRequest & ProgressTagged): Promise<CaseReply> {
  const file = readTestFile(req.testFile);
  const tc = file.cases.find((c) => c.name === req.name);
  if (!tc) return { ok: false, message: "the case is no longer in the file" };
  let text: string;
  try {
    text = readFileSync(file.templatePath, "utf8");
  } catch (e) {
    return { ok: false, message: `cannot read the template: ${(e as Error).message}` };
  }
  if (last?.text !== text) last = new TemplateDocument(text);
  rendering(req, text);
  const live = tc.live && req.endpoint ? { endpoint: req.endpoint, template: text, markers: markersOf(last) } : undefined;
  return { ok: true, result: await runCase(last, tc, { updateSnapshots: req.updateSnapshots, live }) };
}

async function answer(req: WorkerRequest & ProgressTagged): Promise<object> {
  if (req.kind === "case") return run(req);
  rendering(req, req.template);
  return { ok: true, markers: markersOf(new TemplateDocument(req.template)) };
}

createInterface({ input: process.stdin }).on("line", (line) => {
  answer(JSON.parse(line) as WorkerRequest & ProgressTagged).then(say, (e: Error) =>
    say({ ok: false, message: e.message } satisfies CaseReply),
  );
});
