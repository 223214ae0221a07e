// The LSP adapter: keeps documents, debounces validation, and maps language-service results to LSP.
import { TextDocumentSyncKind, TextDocuments, type Connection } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { TemplateDocument } from "../document";
import { validate } from "../services/diagnostics";
import { DEFAULT_ENGINES, isEngineId, type EngineId } from "../types";
import { toLspDiagnostic } from "./convert";

interface Settings {
  engines: EngineId[];
  debounceMs: number;
}

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  const parsed = new Map<string, { version: number; doc: TemplateDocument }>();
  const timers = new Map<string, NodeJS.Timeout>();
  let settings: Settings = { engines: [...DEFAULT_ENGINES], debounceMs: 250 };

  function templateOf(uri: string): TemplateDocument | undefined {
    const td = documents.get(uri);
    if (!td) return undefined;
    const cached = parsed.get(uri);
    if (cached && cached.version === td.version) return cached.doc;
    const doc = new TemplateDocument(td.getText());
    parsed.set(uri, { version: td.version, doc });
    return doc;
  }

  function publish(uri: string): void {
    const doc = templateOf(uri);
    if (!doc) return;
    const diagnostics = validate(doc, { engines: settings.engines }).map((d) => toLspDiagnostic(doc, uri, d));
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

  connection.onInitialize((params) => {
    const opts = params.initializationOptions as Partial<Settings> | undefined;
    settings = readSettings(opts, settings);
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
      },
      serverInfo: { name: "chat-template-language-server" },
    };
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
  const r = (raw ?? {}) as { engines?: unknown; debounceMs?: unknown; diagnostics?: { engines?: unknown; debounceMs?: unknown } };
  const engines = r.diagnostics?.engines ?? r.engines;
  const debounce = r.diagnostics?.debounceMs ?? r.debounceMs;
  return {
    engines: Array.isArray(engines) ? engines.filter((e): e is EngineId => typeof e === "string" && isEngineId(e)) : current.engines,
    debounceMs: typeof debounce === "number" && debounce >= 0 ? debounce : current.debounceMs,
  };
}
