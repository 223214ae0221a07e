// The analysis process (bundled as dist/analysisWorker.js): runs the language service's rendering analyses
// for the language server, one request at a time, under the heap limit the server starts it with. Whatever a
// template does here, the server survives: a limit or crash ends this process, and the server starts another,
// knowing where the template's render was (server/src/progressPipe).
import { join } from "node:path";
import type { TemplateDocument } from "../document";
import { reportRenderProgress, reportRendersOf } from "../progressPipe";
import { getLanguageService } from "../services";
import { PROGRESS_FD, type AnalysisReply, type AnalysisRequest, type Validation } from "./analysisProtocol";
import { ModelFiles } from "./modelFiles";

const service = getLanguageService();
/** Only its cache of vocabularies is used here: the server names the file. */
const models = new ModelFiles("", null);
/** The last text parsed: a validation and the quick fixes or lens that follow it share one parse. */
let last: { text: string; doc: TemplateDocument } | null = null;
// Bundled next to this file (dist/analysisWorker.js) by esbuild.mjs.
reportRenderProgress(join(__dirname, "renderProgress.js"), PROGRESS_FD);

function parse(text: string): TemplateDocument {
  if (last?.text !== text) last = { text, doc: service.parseTemplate(text) };
  return last.doc;
}

function analyse(r: AnalysisRequest): unknown {
  const doc = parse(r.text);
  switch (r.kind) {
    case "validate": {
      const m = r.model ? models.read(r.model) : null;
      const tokenizer = m && "vocabulary" in m ? m.vocabulary : undefined;
      const diagnostics = service.doValidation(doc, { ...r.settings, ...(tokenizer ? { tokenizer } : {}) });
      return { diagnostics, modelError: m && "error" in m ? m.error : null } satisfies Validation;
    }
    case "codeActions":
      return service.getCodeActions(doc, r.range, r.settings);
    case "fixAll":
      return service.getFixAll(doc, r.settings);
    case "format":
      return service.format(doc, r.options);
    case "capabilities":
      return service.getCapabilitySummary(doc);
    case "securityHover":
      return service.doSecurityHover(doc, r.offset);
    case "parseFeature":
      return r.feature === "symbols" ? service.findDocumentSymbols(doc) : service.getFoldingRanges(doc);
    case "rename":
      return service.rename(doc, r.offset, r.newName, { llamaServerArgs: r.settings.llamaServerArgs });
  }
}

process.on("message", (message: { id: number; request: AnalysisRequest }) => {
  let reply: AnalysisReply;
  reportRendersOf(message.request.text, message.id);
  try {
    reply = { id: message.id, ok: true, value: analyse(message.request) };
  } catch (e) {
    reply = { id: message.id, ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  process.send!(reply);
});
// The server is gone (it closed the channel): nothing is left to answer.
process.on("disconnect", () => process.exit(0));
