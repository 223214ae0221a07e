// The LSP adapter: keeps documents, debounces validation, and maps language-service results to LSP. The
// analyses that run the template (engine checks, quick fixes, fix all, the capability lens and hover, the security
// finding under the cursor) run in the document's analysis process (analysisSlots.ts) under time and memory limits;
// the rest answers here, from the parse, and never evaluates the template. A large document is not parsed here at
// all (largeDocument.ts): its outline and folding come from its analysis process too.
import { join } from "node:path";
import {
  CodeActionKind,
  LSPErrorCodes,
  ResponseError,
  TextDocumentSyncKind,
  TextDocuments,
  type Connection,
  type FormattingOptions,
  type Range,
  type TextDocumentPositionParams,
  type TextEdit,
} from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { DEFAULT_ENGINES, isEngineId } from "../dialects";
import type { Diagnostic, EngineId, Hover, TemplateDocument } from "../document";
import {
  type CapabilitySummary,
  type CodeAction,
  type FixAllAction,
  type FormatResult,
  getLanguageService,
  type RenameEdit,
  type RenameRefusal,
} from "../services";
import { analysisFailureDiagnostic } from "./analysisDiagnostic";
import type { AnalysisRequest, ParseFeature, Validation } from "./analysisProtocol";
import { AnalysisSlots } from "./analysisSlots";
import { type AnalysisFailure, type AnalysisLimits, AnalysisWorker } from "./analysisWorker";
import {
  SEMANTIC_LEGEND,
  toLspCompletion,
  toLspDefinition,
  toLspDiagnostic,
  toLspFolding,
  toLspSemanticTokens,
  toLspSymbol,
  toLspTextEdit,
  toRange,
} from "./convert";
import { toLspCapabilityLens, toLspCodeAction, toLspFixAll } from "./convertCaps";
import { toLspHighlight, toLspPrepareRename, toLspRenameEdit, toLspSignatureHelp } from "./convertEditing";
import { isLarge } from "./largeDocument";
import { folderPath, ModelFiles } from "./modelFiles";

interface Settings {
  engines: EngineId[];
  debounceMs: number;
  /** Also report where llama.cpp's older probe with tools=[null] throws. */
  nullToolsProbe: boolean;
  /** Also report the engines' findings in the scenarios the template does not support (where Jinja2 itself throws). */
  unsupportedScenarios: boolean;
  /** Per document and analysis: past it the analysis process is killed and the document says so. */
  timeLimitMs: number;
  /** The analysis process's heap. */
  memoryLimitMb: number;
  /** chatTemplate.preview.tokenizerModel: the GGUF whose tokenizer the `model/…` checks use for templates not opened from one. */
  tokenizerModel: string;
  /** chatTemplate.llamaServer.args: the flags the user's llama-server starts with, for its engine's checks. */
  llamaServerArgs: string[];
  /** chatTemplate.format.indentWidth: spaces per block level when formatting; null follows the editor's tab size. */
  formatIndentWidth: number | null;
}

const DEFAULT_SETTINGS: Readonly<Settings> = {
  engines: [...DEFAULT_ENGINES],
  debounceMs: 250,
  nullToolsProbe: true,
  unsupportedScenarios: false,
  timeLimitMs: 10_000,
  memoryLimitMb: 1024,
  tokenizerModel: "",
  llamaServerArgs: [],
  formatIndentWidth: null,
};

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const parsed = new Map<string, { version: number; doc: TemplateDocument }>();
  const timers = new Map<string, NodeJS.Timeout>();
  const service = getLanguageService();
  let settings: Settings = { ...DEFAULT_SETTINGS };
  let definitionLinks = false;
  const limits = (): AnalysisLimits => ({ timeMs: settings.timeLimitMs, memoryMb: settings.memoryLimitMb });
  // Bundled next to this file (dist/server.js) by esbuild.mjs.
  const workers = new AnalysisSlots(
    () => new AnalysisWorker(join(__dirname, "analysisWorker.js"), limits, (line) => connection.console.log(line)),
  );
  /** Documents whose last analysis failed, at that version: their other analyses are not tried again. */
  const failed = new Map<string, { version: number; failure: AnalysisFailure }>();
  const models = new ModelFiles("", null);
  /** Model files that could not be read, each reported once. */
  const unreadable = new Set<string>();

  function templateOf(uri: string): TemplateDocument | undefined {
    const td = documents.get(uri);
    if (!td) return undefined;
    const cached = parsed.get(uri);
    if (cached && cached.version === td.version) return cached.doc;
    const doc = service.parseTemplate(td.getText());
    parsed.set(uri, { version: td.version, doc });
    return doc;
  }

  const analysisSettings = () => ({
    engines: settings.engines,
    nullToolsProbe: settings.nullToolsProbe,
    llamaServerArgs: settings.llamaServerArgs,
    unsupportedScenarios: settings.unsupportedScenarios,
  });

  /** An analysis of the document as it is now, or null: the document changed or closed, or its analysis failed. */
  async function analyse<T>(
    uri: string,
    request: (doc: TemplateDocument) => AnalysisRequest,
  ): Promise<{ doc: TemplateDocument; value: T } | null> {
    const doc = templateOf(uri);
    const version = documents.get(uri)?.version;
    if (!doc || failed.get(uri)?.version === version) return null;
    const r = request(doc);
    // A newer request with the same key replaces a waiting one: a newer check of the document, or code actions for
    // the same range. Code actions for another range are another question (the cursor's and a Problems view row's).
    const key = r.kind === "codeActions" ? `${r.kind} ${uri} ${r.range.start}-${r.range.end}` : `${r.kind} ${uri}`;
    const outcome = await workers.run(uri, key, r);
    if (!outcome || documents.get(uri)?.version !== version) return null;
    if (!outcome.ok) {
      failed.set(uri, { version: version!, failure: outcome.failure });
      return null;
    }
    return { doc, value: outcome.value as T };
  }

  async function publish(uri: string): Promise<void> {
    const version = documents.get(uri)?.version;
    // the model a document serves is read in the analysis process, from the GGUF named here
    const model = models.fileOf(uri);
    const found = await analyse<Validation>(uri, (doc) => ({ kind: "validate", text: doc.text, settings: analysisSettings(), model }));
    const doc = templateOf(uri);
    if (!doc || documents.get(uri)?.version !== version) return;
    const modelError = found?.value.modelError;
    if (modelError && !unreadable.has(`${model}\u0000${modelError}`)) {
      connection.console.warn(`model checks skipped: cannot read ${model}: ${modelError}`);
      unreadable.add(`${model}\u0000${modelError}`);
    }
    const failure = failed.get(uri);
    let diagnostics: Diagnostic[];
    if (found) diagnostics = found.value.diagnostics;
    else if (failure && failure.version === version)
      // a large document's syntax diagnostics come only with a validation that ends: it is not parsed here
      diagnostics = [...(isLarge(doc.text) ? [] : service.getSyntaxDiagnostics(doc)), analysisFailureDiagnostic(doc, failure.failure)];
    else return; // a newer check of this document replaced this one
    void connection.sendDiagnostics({ uri, diagnostics: diagnostics.map((d) => toLspDiagnostic(doc, uri, d)) });
  }

  const capabilities = (uri: string) => analyse<CapabilitySummary | null>(uri, (doc) => ({ kind: "capabilities", text: doc.text }));

  function schedule(uri: string, delay: number): void {
    clearTimeout(timers.get(uri));
    timers.set(
      uri,
      setTimeout(() => {
        timers.delete(uri);
        void publish(uri);
      }, delay),
    );
  }

  /** The parsed document and the cursor offset of a position request; none for a large document (largeDocument.ts). */
  function at(p: TextDocumentPositionParams): { doc: TemplateDocument; offset: number } | undefined {
    const doc = templateOf(p.textDocument.uri);
    return doc && !isLarge(doc.text) ? { doc, offset: doc.lines.offsetAt(p.position) } : undefined;
  }

  /** A feature of the parse: computed here, or for a large document in its analysis process. */
  async function fromParse<T, L>(
    uri: string,
    feature: ParseFeature,
    compute: (doc: TemplateDocument) => T[],
    toLsp: (doc: TemplateDocument, items: T[]) => L,
  ): Promise<L | null> {
    const doc = templateOf(uri);
    if (!doc) return null;
    if (!isLarge(doc.text)) return toLsp(doc, compute(doc));
    const found = await analyse<T[]>(uri, (d) => ({ kind: "parseFeature", text: d.text, feature }));
    return found && toLsp(found.doc, found.value);
  }

  connection.onInitialize((params) => {
    const opts = params.initializationOptions as Partial<Settings> | undefined;
    settings = readSettings(opts, settings);
    models.tokenizerModel = settings.tokenizerModel;
    models.root = folderPath(params.workspaceFolders?.[0]?.uri ?? params.rootUri);
    definitionLinks = params.capabilities.textDocument?.definition?.linkSupport === true;
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        completionProvider: { triggerCharacters: [".", "|"] },
        definitionProvider: true,
        referencesProvider: true,
        documentHighlightProvider: true,
        renameProvider: { prepareProvider: true },
        signatureHelpProvider: { triggerCharacters: ["(", ","], retriggerCharacters: ["="] },
        documentSymbolProvider: true,
        foldingRangeProvider: true,
        semanticTokensProvider: { legend: SEMANTIC_LEGEND, full: true },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.SourceFixAll] },
        codeLensProvider: {},
        documentFormattingProvider: true,
        documentRangeFormattingProvider: true,
      },
      serverInfo: { name: "chat-template-language-server" },
    };
  });

  connection.onHover(async (p) => {
    const a = at(p);
    if (!a) return null;
    // The word's hover comes from the parse; a security finding's needs the template run, in its analysis process.
    const word = service.doWordHover(a.doc, a.offset);
    const risk = await analyse<Hover | null>(p.textDocument.uri, (doc) => ({ kind: "securityHover", text: doc.text, offset: a.offset }));
    const joined = service.joinHovers(word, risk?.doc === a.doc ? risk.value : null);
    // After a format, the lines it left as they are say why.
    const formatted = lastFormats.get(p.textDocument.uri);
    const left = formatted?.text === a.doc.text ? service.doLeftAloneHover(a.doc, formatted.leftAlone, a.offset) : null;
    const h = left && joined ? { contents: `${joined.contents}\n\n---\n\n${left.contents}`, span: joined.span } : (joined ?? left);
    // The first line also shows what llama.cpp infers about the template (the lens's details).
    const caps = p.position.line === 0 ? (await capabilities(p.textDocument.uri))?.value : null;
    if (caps) {
      const value = h ? `${h.contents}\n\n---\n\n${caps.markdown}` : caps.markdown;
      return { contents: { kind: "markdown", value }, ...(h ? { range: toRange(a.doc, h.span) } : {}) };
    }
    return h ? { contents: { kind: "markdown", value: h.contents }, range: toRange(a.doc, h.span) } : null;
  });
  connection.onCodeAction(async (p) => {
    const uri = p.textDocument.uri;
    // Fix all renders every fix round; it answers only when asked by kind (on save, or the Fix All command),
    // never at each cursor move, where the editor asks with no kinds.
    const only = p.context.only;
    const asked = (kind: string) => !only || only.some((k) => kind === k || kind.startsWith(`${k}.`));
    if (only && asked(CodeActionKind.SourceFixAll)) {
      const found = await analyse<FixAllAction | null>(uri, (doc) => ({ kind: "fixAll", text: doc.text, settings: analysisSettings() }));
      return found?.value ? [toLspFixAll(found.doc, uri, found.value)] : [];
    }
    if (!asked(CodeActionKind.QuickFix)) return [];
    const found = await analyse<CodeAction[]>(uri, (doc) => {
      const range = { start: doc.lines.offsetAt(p.range.start), end: doc.lines.offsetAt(p.range.end) };
      return { kind: "codeActions", text: doc.text, settings: analysisSettings(), range };
    });
    return found ? found.value.map((c) => toLspCodeAction(found.doc, uri, c)) : [];
  });
  /** Per document, the text its last format produced and what that left as it is (for hover, while the text is that). */
  const lastFormats = new Map<string, Pick<FormatResult, "text" | "leftAlone">>();
  /** Format Document, or Format Selection with a range: in the analysis process, whose renders prove each change. */
  async function format(uri: string, options: FormattingOptions, range?: Range): Promise<TextEdit[] | null> {
    const found = await analyse<FormatResult>(uri, (doc) => ({
      kind: "format",
      text: doc.text,
      options: {
        indentWidth: settings.formatIndentWidth ?? options.tabSize,
        useTabs: settings.formatIndentWidth === null && !options.insertSpaces,
        ...(range ? { range: { start: doc.lines.offsetAt(range.start), end: doc.lines.offsetAt(range.end) } } : {}),
      },
    }));
    if (!found) return null;
    lastFormats.set(uri, { text: found.value.text, leftAlone: found.value.leftAlone });
    return found.value.edits.map((e) => toLspTextEdit(found.doc, e));
  }
  connection.onDocumentFormatting((p) => format(p.textDocument.uri, p.options));
  connection.onDocumentRangeFormatting((p) => format(p.textDocument.uri, p.options, p.range));
  connection.onCodeLens(async (p) => {
    const found = await capabilities(p.textDocument.uri);
    return found?.value ? [toLspCapabilityLens(found.doc, found.value)] : [];
  });
  connection.onCompletion((p) => {
    const a = at(p);
    return a ? service.doComplete(a.doc, a.offset).map((item) => toLspCompletion(a.doc, item)) : [];
  });
  connection.onSignatureHelp((p) => {
    const a = at(p);
    const h = a && service.getSignatureHelp(a.doc, a.offset);
    return h && toLspSignatureHelp(h);
  });
  connection.onReferences((p) => {
    const a = at(p);
    const refs = a && service.findReferences(a.doc, a.offset);
    if (!refs) return null;
    return refs
      .filter((r) => p.context.includeDeclaration || r.kind === "read")
      .map((r) => ({ uri: p.textDocument.uri, range: toRange(a.doc, r) }));
  });
  connection.onDocumentHighlight((p) => {
    const a = at(p);
    const refs = a && service.findReferences(a.doc, a.offset);
    return refs ? refs.map((r) => toLspHighlight(a.doc, r)) : null;
  });
  // A refusal is an error whose message the editor shows (VS Code: the rename box's reason).
  const refusal = (why: string) => new ResponseError(LSPErrorCodes.RequestFailed, why);
  connection.onPrepareRename((p) => {
    const a = at(p);
    if (!a) return null;
    const t = service.prepareRename(a.doc, a.offset);
    return "refused" in t ? refusal(t.refused) : toLspPrepareRename(a.doc, t);
  });
  connection.onRenameRequest(async (p) => {
    const uri = p.textDocument.uri;
    const found = await analyse<RenameEdit | RenameRefusal>(uri, (doc) => {
      const offset = doc.lines.offsetAt(p.position);
      return { kind: "rename", text: doc.text, offset, newName: p.newName, settings: analysisSettings() };
    });
    if (!found) {
      const failure = failed.get(uri)?.failure;
      return refusal(
        failure ? `The rename could not be proven harmless: this template ${failure.message}` : "The document changed: rename again.",
      );
    }
    return "refused" in found.value ? refusal(found.value.refused) : toLspRenameEdit(found.doc, uri, found.value);
  });
  connection.onDefinition((p) => {
    const a = at(p);
    const d = a && service.findDefinition(a.doc, a.offset);
    return d ? toLspDefinition(a.doc, p.textDocument.uri, d, definitionLinks) : null;
  });
  connection.onDocumentSymbol(
    async (p) =>
      (await fromParse(p.textDocument.uri, "symbols", service.findDocumentSymbols, (doc, symbols) =>
        symbols.map((s) => toLspSymbol(doc, s)),
      )) ?? [],
  );
  connection.onFoldingRanges(
    async (p) => (await fromParse(p.textDocument.uri, "folding", service.getFoldingRanges, (_, ranges) => ranges.map(toLspFolding))) ?? [],
  );
  // A large document's millions of tokens would cost the thread seconds to convert: the TextMate grammar colours it alone.
  connection.languages.semanticTokens.on((p) => {
    const doc = templateOf(p.textDocument.uri);
    return doc && !isLarge(doc.text) ? toLspSemanticTokens(doc, service.getSemanticTokens(doc)) : { data: [] };
  });

  connection.onDidChangeConfiguration((change) => {
    settings = readSettings((change.settings as { chatTemplate?: Partial<Settings> })?.chatTemplate, settings);
    // New limits or engines may let a failed analysis through.
    failed.clear();
    models.tokenizerModel = settings.tokenizerModel;
    for (const d of documents.all()) schedule(d.uri, 0);
  });

  documents.onDidOpen((e) => schedule(e.document.uri, 0));
  documents.onDidChangeContent((e) => schedule(e.document.uri, settings.debounceMs));
  documents.onDidClose((e) => {
    clearTimeout(timers.get(e.document.uri));
    timers.delete(e.document.uri);
    parsed.delete(e.document.uri);
    lastFormats.delete(e.document.uri);
    failed.delete(e.document.uri);
    workers.close(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onShutdown(() => workers.dispose());

  documents.listen(connection);
  connection.listen();
}

function readSettings(raw: unknown, current: Settings): Settings {
  const r = (raw ?? {}) as {
    engines?: unknown;
    debounceMs?: unknown;
    diagnostics?: {
      engines?: unknown;
      debounceMs?: unknown;
      nullToolsProbe?: unknown;
      unsupportedScenarios?: unknown;
      timeLimitMs?: unknown;
      memoryLimitMb?: unknown;
    };
    preview?: { tokenizerModel?: unknown };
    llamaServer?: { args?: unknown };
    format?: { indentWidth?: unknown };
  };
  const serverArgs = r.llamaServer?.args;
  const d = r.diagnostics ?? {};
  const engines = r.diagnostics?.engines ?? r.engines;
  const debounce = r.diagnostics?.debounceMs ?? r.debounceMs;
  const indentWidth = r.format?.indentWidth;
  return {
    engines: Array.isArray(engines) ? engines.filter((e): e is EngineId => typeof e === "string" && isEngineId(e)) : current.engines,
    debounceMs: typeof debounce === "number" && debounce >= 0 ? debounce : current.debounceMs,
    nullToolsProbe: typeof d.nullToolsProbe === "boolean" ? d.nullToolsProbe : current.nullToolsProbe,
    unsupportedScenarios: typeof d.unsupportedScenarios === "boolean" ? d.unsupportedScenarios : current.unsupportedScenarios,
    timeLimitMs: atLeast(d.timeLimitMs, 100) ?? current.timeLimitMs,
    memoryLimitMb: atLeast(d.memoryLimitMb, 64) ?? current.memoryLimitMb,
    tokenizerModel: typeof r.preview?.tokenizerModel === "string" ? r.preview.tokenizerModel : current.tokenizerModel,
    llamaServerArgs:
      Array.isArray(serverArgs) && serverArgs.every((a) => typeof a === "string") ? (serverArgs as string[]) : current.llamaServerArgs,
    formatIndentWidth: indentWidth === null ? null : (atLeast(indentWidth, 1) ?? current.formatIndentWidth),
  };
}

/** A number setting, raised to its least sensible value; undefined when it is not a number. */
function atLeast(v: unknown, least: number): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? Math.max(least, Math.round(v)) : undefined;
}
