// The helper process behind one dialect column of the preview (dialectProcess.ts): renders one JSON request
// per stdin line with our dialect of the engine named by its argument, one JSON outcome per stdout line. The
// dialects bound every value they build, but a render here can still exhaust the heap it is started with or
// run long; then only this process ends, the column says why and where (it reports where its render is to the
// extension host, helperProgress.ts), and the extension host goes on.
import { createInterface } from "node:readline";
import { TemplateDocument } from "../../../../server/src/document";
import { parseJson, PyDict, type WallClock } from "../../../../server/src/interpreter";
import { rendering, reportProgressToParent, type ProgressTagged } from "../../helperProcess/helperProgress";
import { dialectEngines, failed } from "./engine";

const say = (obj: object) => process.stdout.write(JSON.stringify(obj) + "\n");

const engine = dialectEngines().find((e) => e.id === process.argv[2]);
if (!engine) {
  say({ ready: false, reason: `no dialect of the engine '${process.argv[2]}'` });
  process.exit(0);
}
reportProgressToParent();
say({ ready: true, version: engine.note() });

let last: TemplateDocument | null = null;
createInterface({ input: process.stdin }).on("line", (line) => {
  const req = JSON.parse(line) as { template: string; context: string; now: WallClock; serverArgs?: string[] } & ProgressTagged;
  rendering(req, req.template);
  try {
    if (last?.text !== req.template) last = new TemplateDocument(req.template);
    const context = parseJson(req.context);
    if (!(context instanceof PyDict)) throw new Error("the context is not a JSON object");
    say(engine.render({ doc: last, context, json: req.context, now: req.now, serverArgs: req.serverArgs }) as object);
  } catch (e) {
    say(failed(`internal error in ${engine.label}: ${(e as Error).message}`));
  }
});
