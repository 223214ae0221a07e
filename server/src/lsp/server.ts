// The LSP adapter: keeps documents, debounces validation, and maps language-service results to LSP.
import { TextDocumentSyncKind, TextDocuments, type Connection, type TextDocumentPositionParams } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { TemplateDocument } from "../document";
import { getLanguageService } from "../languageService";
import { DEFAULT_ENGINES, isEngineId, type EngineId } from "../types";
import {
  SEMANTIC_LEGEND,
  toLspCompletion,
  toLspDefinition,
  toLspDiagnostic,
  toLspFolding,
  toLspSemanticTokens,
  toLspSymbol,
  toRange,
} from "./convert";
import { toLspCapabilityLens, toLspCodeAction } from "./convertCaps";

interface Settings {
  engines: EngineId[];
  debounceMs: number;
  /** Also report where llama.cpp's older probe with tools=[null] throws. */
  nullToolsProbe: boolean;
}

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const parsed = new Map<string, { version: number; doc: TemplateDocument }>();
  const timers = new Map<string, NodeJS.Timeout>();
  const service = getLanguageService();
  let settings: Settings = { engines: [...DEFAULT_ENGINES], debounceMs: 250, nullToolsProbe: true };
  let definitionLinks = false;

  function templateOf(uri: string): TemplateDocument | undefined {
    const td = documents.get(uri);
    if (!td) return undefined;
    const cached = parsed.get(uri);
    if (cached && cached.version === td.version) return cached.doc;
    const doc = service.parseTemplate(td.getText());
    parsed.set(uri, { version: td.version, doc });
    return doc;
  }

  function publish(uri: string): void {
    const doc = templateOf(uri);
    if (!doc) return;
    const diagnostics = service.doValidation(doc, { engines: settings.engines, nullToolsProbe: settings.nullToolsProbe }).map((d) => toLspDiagnostic(doc, uri, d));
    void connection.sendDiagnostics({ uri, diagnostics });
  }

  function schedule(uri: string, delay: number): void {
    clearTimeout(timers.get(uri));
    timers.set(
      uri,
      setTimeout(() => {
        timers.delete(uri);
        publish(uri);
      }, delay),
    );
  }

  /** The parsed document and the cursor offset of a position request. */
  function at(p: TextDocumentPositionParams): { doc: TemplateDocument; offset: number } | undefined {
    const doc = templateOf(p.textDocument.uri);
    return doc && { doc, offset: doc.lines.offsetAt(p.position) };
  }

  connection.onInitialize((params) => {
    const opts = params.initializationOptions as Partial<Settings> | undefined;
    settings = readSettings(opts, settings);
    definitionLinks = params.capabilities.textDocument?.definition?.linkSupport === true;
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        completionProvider: { triggerCharacters: [".", "|"] },
        definitionProvider: true,
        documentSymbolProvider: true,
        foldingRangeProvider: true,
        semanticTokensProvider: { legend: SEMANTIC_LEGEND, full: true },
        codeActionProvider: { codeActionKinds: ["quickfix"] },
        codeLensProvider: {},
      },
      serverInfo: { name: "chat-template-language-server" },
    };
  });

  connection.onHover((p) => {
    const a = at(p);
    const h = a && service.doHover(a.doc, a.offset);
    // The first line also shows what llama.cpp infers about the template (the lens's details).
    const caps = a && p.position.line === 0 ? service.getCapabilitySummary(a.doc) : null;
    if (caps) {
      const value = h ? `${h.contents}\n\n---\n\n${caps.markdown}` : caps.markdown;
      return { contents: { kind: "markdown", value }, ...(h ? { range: toRange(a.doc, h.span) } : {}) };
    }
    return h ? { contents: { kind: "markdown", value: h.contents }, range: toRange(a.doc, h.span) } : null;
  });
  connection.onCodeAction((p) => {
    const doc = templateOf(p.textDocument.uri);
    if (!doc) return [];
    const range = { start: doc.lines.offsetAt(p.range.start), end: doc.lines.offsetAt(p.range.end) };
    return service.getCodeActions(doc, range, { engines: settings.engines, nullToolsProbe: settings.nullToolsProbe }).map((c) => toLspCodeAction(doc, p.textDocument.uri, c));
  });
  connection.onCodeLens((p) => {
    const doc = templateOf(p.textDocument.uri);
    const caps = doc && service.getCapabilitySummary(doc);
    return caps ? [toLspCapabilityLens(doc, caps)] : [];
  });
  connection.onCompletion((p) => {
    const a = at(p);
    return a ? service.doComplete(a.doc, a.offset).map((item) => toLspCompletion(a.doc, item)) : [];
  });
  connection.onDefinition((p) => {
    const a = at(p);
    const d = a && service.findDefinition(a.doc, a.offset);
    return d ? toLspDefinition(a.doc, p.textDocument.uri, d, definitionLinks) : null;
  });
  connection.onDocumentSymbol((p) => {
    const doc = templateOf(p.textDocument.uri);
    return doc ? service.findDocumentSymbols(doc).map((s) => toLspSymbol(doc, s)) : [];
  });
  connection.onFoldingRanges((p) => {
    const doc = templateOf(p.textDocument.uri);
    return doc ? service.getFoldingRanges(doc).map(toLspFolding) : [];
  });
  connection.languages.semanticTokens.on((p) => {
    const doc = templateOf(p.textDocument.uri);
    return doc ? toLspSemanticTokens(doc, service.getSemanticTokens(doc)) : { data: [] };
  });

  connection.onDidChangeConfiguration((change) => {
    settings = readSettings((change.settings as { chatTemplate?: Partial<Settings> })?.chatTemplate, settings);
    for (const d of documents.all()) schedule(d.uri, 0);
  });

  documents.onDidOpen((e) => schedule(e.document.uri, 0));
  documents.onDidChangeContent((e) => schedule(e.document.uri, settings.debounceMs));
  documents.onDidClose((e) => {
    clearTimeout(timers.get(e.document.uri));
    timers.delete(e.document.uri);
    parsed.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  documents.listen(connection);
  connection.listen();
}

function readSettings(raw: unknown, current: Settings): Settings {
  const r = (raw ?? {}) as { engines?: unknown; debounceMs?: unknown; diagnostics?: { engines?: unknown; debounceMs?: unknown; nullToolsProbe?: unknown } };
  const engines = r.diagnostics?.engines ?? r.engines;
  const debounce = r.diagnostics?.debounceMs ?? r.debounceMs;
  return {
    engines: Array.isArray(engines) ? engines.filter((e): e is EngineId => typeof e === "string" && isEngineId(e)) : current.engines,
    debounceMs: typeof debounce === "number" && debounce >= 0 ? debounce : current.debounceMs,
    nullToolsProbe: typeof r.diagnostics?.nullToolsProbe === "boolean" ? r.diagnostics.nullToolsProbe : current.nullToolsProbe,
  };
}
