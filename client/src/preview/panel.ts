// The preview in VS Code: one webview panel beside the editor, connected to a PreviewController. It
// feeds the controller the active chat template (following the active editor), its edits, the
// scenarios (built-in and the workspace folder's, reloaded when they change) and the bound GGUF.
import { readFileSync } from "node:fs";
import { basename, isAbsolute, join } from "node:path";
import * as vscode from "vscode";
import { unavailableColumnReason, type BundledEngine } from "../bundledEngine";
import { boundModel } from "../gguf/binding";
import { ggufOf, GGUF_TEMPLATE_SCHEME } from "../gguf/fileSystem";
import type { ModelBinding, TokenizerSource } from "../gguf/modelBinding";
import { PreviewController, type PreviewHost, type TemplateInput } from "./controller";
import { RENDER_MEMORY_MB } from "../helperProcess/limitedProcess";
import { dialectProcessEngines, type DialectProcessOptions } from "./engines/dialectProcess";
import { realJinja2Engine } from "./engines/realJinja2";
import { realLlamaCppEngine, unavailableLlamaCppEngine } from "./engines/realLlamaCpp";
import { builtinScenarios, workspaceScenario, type ScenarioEntry } from "./model/scenarios";
import { previewPage } from "./page";
import { showRenderDiff } from "./renderDiff";

const VIEW_TYPE = "chatTemplate.preview";

/** The running endpoint's tokenizer and when it may have come or gone (extension.ts passes the endpoint's). */
export interface EndpointTokens {
  source(): TokenizerSource | null;
  onDidChange: vscode.Event<void>;
}

export function isChatTemplate(doc: vscode.TextDocument): boolean {
  return doc.languageId === "chat-template";
}

function settings() {
  const c = vscode.workspace.getConfiguration("chatTemplate.preview");
  return {
    debounceMs: c.get<number>("debounceMs", 300),
    scenarioFolder: c.get<string>("scenarioFolder", ".chat-template/scenarios"),
    python: c.get<string>("pythonPath", "python3") || "python3",
    tokenizerModel: c.get<string>("tokenizerModel", ""),
    timeoutMs: c.get<number>("realEngineTimeoutMs", 5000),
  };
}

/** How the dialect columns' helpers start, with their limits; "Test Template Against Model" renders with the same. */
export function dialectProcessOptions(context: vscode.ExtensionContext): DialectProcessOptions {
  return {
    command: process.execPath,
    args: [context.asAbsolutePath(join("dist", "dialectWorker.js"))],
    timeoutMs: settings().timeoutMs,
    memoryMb: RENDER_MEMORY_MB,
  };
}

export class PreviewPanel {
  private static current: PreviewPanel | undefined;
  private readonly controller: PreviewController;
  private readonly disposables: vscode.Disposable[] = [];
  private watcher: vscode.Disposable | undefined;
  /** Model files already reported as unusable, so switching editors does not repeat the warning. */
  private readonly reported = new Set<string>();

  /** The open preview's controller (Test Template Against Model fills its model output pane). */
  static get controller(): PreviewController | undefined {
    return PreviewPanel.current?.controller;
  }

  /** Opens the preview for `doc`, or points the open one at it. */
  static show(
    context: vscode.ExtensionContext,
    log: vscode.LogOutputChannel,
    engine: BundledEngine,
    endpointTokens: EndpointTokens,
    doc: vscode.TextDocument,
  ): void {
    if (PreviewPanel.current) {
      PreviewPanel.current.panel.reveal(undefined, true);
      PreviewPanel.current.follow(doc);
      return;
    }
    const root = vscode.Uri.joinPath(context.extensionUri, "dist", "preview");
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      "Preview",
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        localResourceRoots: [root],
      },
    );
    PreviewPanel.current = new PreviewPanel(panel, context, log, engine, endpointTokens, root);
    PreviewPanel.current.follow(doc);
  }

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly engine: BundledEngine,
    endpointTokens: EndpointTokens,
    root: vscode.Uri,
  ) {
    const w = panel.webview;
    w.html = previewPage({
      cspSource: w.cspSource,
      scriptUri: w.asWebviewUri(vscode.Uri.joinPath(root, "main.js")).toString(),
      styleUri: w.asWebviewUri(vscode.Uri.joinPath(root, "preview.css")).toString(),
    });
    const s = settings();
    this.controller = new PreviewController({
      transport: { post: (m) => void w.postMessage(m), onMessage: (listener) => w.onDidReceiveMessage(listener) },
      host: this.host(),
      engines: [
        ...dialectProcessEngines(dialectProcessOptions(context)),
        engine.available
          ? realLlamaCppEngine({
              command: process.execPath,
              args: [context.asAbsolutePath(join("dist", "llamacppWorker.js"))],
              timeoutMs: s.timeoutMs,
            })
          : unavailableLlamaCppEngine(unavailableColumnReason(engine)),
        realJinja2Engine({ python: s.python, timeoutMs: s.timeoutMs }),
      ],
      scenarios: this.builtinScenarios(),
      debounceMs: s.debounceMs,
      serverArgs: () => vscode.workspace.getConfiguration("chatTemplate.llamaServer").get<string[]>("args", []),
      endpointTokenizer: () => endpointTokens.source(),
    });
    this.disposables.push(
      endpointTokens.onDidChange(() => this.controller.endpointChanged()),
      vscode.workspace.onDidChangeTextDocument((e) => this.controller.editTemplate(e.document.uri.toString(), e.document.getText())),
      vscode.window.onDidChangeActiveTextEditor((e) => e && isChatTemplate(e.document) && this.follow(e.document)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("chatTemplate.preview.scenarioFolder")) {
          this.watch();
          void this.loadScenarios();
        }
        if (e.affectsConfiguration("chatTemplate.preview.tokenizerModel")) this.refollow();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.watch();
        void this.loadScenarios();
      }),
    );
    panel.onDidDispose(() => this.dispose());
    this.watch();
    void this.loadScenarios();
  }

  private follow(doc: vscode.TextDocument): void {
    const input: TemplateInput = { uri: doc.uri.toString(), name: basename(doc.uri.path), text: doc.getText(), model: this.modelFor(doc) };
    if (doc.uri.scheme === GGUF_TEMPLATE_SCHEME) input.name = `${basename(ggufOf(doc.uri).file.path)} › ${input.name}`;
    this.panel.title = `Preview: ${input.name}`;
    this.controller.showTemplate(input);
  }

  private refollow(): void {
    const uri = this.controller.templateUri;
    const doc = uri && vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
    if (doc) this.follow(doc);
  }

  /** The GGUF a template came from, else the one chatTemplate.preview.tokenizerModel names. */
  private modelFor(doc: vscode.TextDocument): ModelBinding | null {
    let file = doc.uri.scheme === GGUF_TEMPLATE_SCHEME ? ggufOf(doc.uri).file.fsPath : settings().tokenizerModel;
    if (!file) return null;
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri) ?? vscode.workspace.workspaceFolders?.[0];
    if (!isAbsolute(file) && folder) file = join(folder.uri.fsPath, file);
    try {
      const engine = this.engine;
      // token counts use the bundled llama.cpp's tokenizer; the header's bos/eos and special tokens need none
      return engine.available
        ? boundModel(file).binding
        : boundModel(file, () => Promise.reject(new Error(unavailableColumnReason(engine)))).binding;
    } catch (e) {
      this.log.warn(`preview: no model for token counts: ${(e as Error).message}`);
      if (!this.reported.has(file))
        void vscode.window.showWarningMessage(`Chat template preview: cannot use ${file} for token counts: ${(e as Error).message}`);
      this.reported.add(file);
      return null;
    }
  }

  private builtinScenarios(): ScenarioEntry[] {
    return builtinScenarios(readFileSync(this.context.asAbsolutePath(join("templates", "scenarios.json")), "utf8"));
  }

  /** The scenario folder of each workspace folder (or the one absolute folder the setting names). */
  private scenarioDirs(): vscode.Uri[] {
    const setting = settings().scenarioFolder;
    if (isAbsolute(setting)) return [vscode.Uri.file(setting)];
    return (vscode.workspace.workspaceFolders ?? []).map((f) => vscode.Uri.joinPath(f.uri, setting));
  }

  private async loadScenarios(): Promise<void> {
    const dirs = this.scenarioDirs();
    const found: ScenarioEntry[] = [];
    for (const dir of dirs) {
      let entries: [string, vscode.FileType][];
      try {
        entries = await vscode.workspace.fs.readDirectory(dir);
      } catch {
        continue; // this workspace folder has no scenario folder
      }
      for (const [name, type] of entries.sort(([a], [b]) => a.localeCompare(b))) {
        if (type !== vscode.FileType.File || !name.endsWith(".json")) continue;
        const file = vscode.Uri.joinPath(dir, name);
        const text = Buffer.from(await vscode.workspace.fs.readFile(file)).toString("utf8");
        found.push(workspaceScenario(vscode.workspace.asRelativePath(file), text));
      }
    }
    this.controller.setScenarios([...found, ...this.builtinScenarios()]);
  }

  /** Watches through the workspace folder, so a scenario folder created later is noticed too. */
  private watch(): void {
    this.watcher?.dispose();
    const setting = settings().scenarioFolder.replace(/\\/g, "/").replace(/\/+$/, "");
    const patterns = isAbsolute(setting)
      ? [new vscode.RelativePattern(vscode.Uri.file(setting), "*.json")]
      : (vscode.workspace.workspaceFolders ?? []).map((f) => new vscode.RelativePattern(f, `${setting}/*.json`));
    const reload = () => void this.loadScenarios();
    this.watcher = vscode.Disposable.from(
      ...patterns.map((p) => {
        const w = vscode.workspace.createFileSystemWatcher(p);
        w.onDidCreate(reload);
        w.onDidChange(reload);
        w.onDidDelete(reload);
        return w;
      }),
    );
  }

  private host(): PreviewHost {
    return {
      reveal: (uri, start, end) => void this.reveal(vscode.Uri.parse(uri), start, end),
      copy: (text) => {
        void vscode.env.clipboard.writeText(text);
        vscode.window.setStatusBarMessage("Copied the rendered prompt", 2000);
      },
      diff: (mine, others) => void showRenderDiff(mine, others),
      saveScenario: (suggested, json) => void this.saveScenario(suggested, json),
      log: (message) => this.log.warn(message),
      // the model output pane's buttons run the commands of client/src/testAgainstModel
      runModel: (mode) =>
        void vscode.commands.executeCommand(
          mode === "chat" ? "chatTemplate.testTemplateAgainstModelAsChat" : "chatTemplate.testTemplateAgainstModel",
        ),
      stopModel: () => void vscode.commands.executeCommand("chatTemplate.stopModelTest"),
    };
  }

  private async reveal(uri: vscode.Uri, start: number, end: number): Promise<void> {
    const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
    const doc = visible?.document ?? (await vscode.workspace.openTextDocument(uri));
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One });
    const range = new vscode.Range(editor.document.positionAt(start), editor.document.positionAt(end));
    editor.selection = new vscode.Selection(range.start, range.end);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  /** Writes the scenario into the (first) scenario folder and selects it; without a workspace, opens it unsaved. */
  private async saveScenario(suggested: string, json: string): Promise<void> {
    const name = await vscode.window.showInputBox({
      prompt: "Name of the new scenario",
      value: suggested,
      validateInput: (v) => (/^[\w.-]+$/.test(v) ? null : "Use letters, digits, '.', '-' and '_'"),
    });
    if (!name) return;
    const dir = this.scenarioDirs()[0];
    if (!dir) {
      const doc = await vscode.workspace.openTextDocument({ language: "json", content: json });
      await vscode.window.showTextDocument(doc, vscode.ViewColumn.One);
      return;
    }
    const target = vscode.Uri.joinPath(dir, `${name}.json`);
    const exists = await vscode.workspace.fs.stat(target).then(
      () => true,
      () => false,
    );
    if (exists && (await vscode.window.showWarningMessage(`${name}.json exists. Replace it?`, { modal: true }, "Replace")) !== "Replace")
      return;
    await vscode.workspace.fs.createDirectory(dir);
    await vscode.workspace.fs.writeFile(target, Buffer.from(json, "utf8"));
    await this.loadScenarios();
    this.controller.selectScenario(`workspace:${vscode.workspace.asRelativePath(target)}`);
    await vscode.window.showTextDocument(target, { viewColumn: vscode.ViewColumn.One, preview: false, preserveFocus: true });
  }

  private dispose(): void {
    PreviewPanel.current = undefined;
    this.watcher?.dispose();
    this.controller.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
