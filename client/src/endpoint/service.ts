// The endpoint in VS Code: the lifecycle manager behind the settings, workspace trust, the status bar, the
// output channel, the load progress, the served copy of the template being edited, and the external mode's
// connection (URL from the settings, API key from SecretStorage). The chat provider and the model test ask
// it for a connection; everything that works without VS Code lives in manager.ts, settings.ts and http.ts.
import { join } from "node:path";
import * as vscode from "vscode";
import { EXTERNAL_ENDPOINT_SETTING, USE_EXTERNAL_ENDPOINT, unavailableMessage, type BundledEngine } from "../bundledEngine";
import type { ModelTokens, TokenizerSource } from "../gguf/modelBinding";
import type { GenerationStats } from "./stats";
import type { CliSpec } from "./cudaInstall";
import { EndpointClient, type Connection } from "./http";
import { EndpointManager, type EndpointState, type LaunchSpec } from "./manager";
import { ownTemplate, servedModelInfo } from "./servedModel";
import { readEndpointSettings, serveArgs, settingsProblem, type EndpointSettings } from "./settings";
import { statusView, type EndpointStatus } from "./status";
import { TemplateMirror } from "./templateMirror";
import { endpointTokenizerSource } from "./tokenizer";

export const API_KEY_SECRET = "chatTemplate.endpoint.externalApiKey";
const SECTION = "chatTemplate.endpoint";

const isTemplate = (d: vscode.TextDocument) => d.languageId === "chat-template";
/** How the endpoint's messages name a document: its path, or its URI when it has none (untitled, a GGUF's template). */
const mirrorName = (d: vscode.TextDocument) => (d.uri.scheme === "file" ? d.uri.fsPath : d.uri.toString());

export class EndpointService implements vscode.Disposable {
  readonly log = vscode.window.createOutputChannel("Chat Template Endpoint", { log: true });
  private readonly manager = new EndpointManager({ log: (line) => this.log.info(line) });
  private readonly mirror: TemplateMirror;
  private readonly item = vscode.window.createStatusBarItem("chatTemplate.endpoint", vscode.StatusBarAlignment.Right, 100);
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the connection may have come or gone (the chat provider lists models again). */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private stats: GenerationStats | null = null;
  private external: { url: string; model: string | null; error: string | null } | null = null;
  /** External mode: Stop disconnects, Start connects again. */
  private externalOn = true;
  /** How the running bundled endpoint gets its template; "mirror": the copy of `mirrored`. */
  private served: { from: "mirror" | "file" | "gguf"; file: string | null } | null = null;
  private mirrored: vscode.TextDocument | undefined;
  private startWhenTrusted = false;
  private progressShown = false;
  /** The tokenizer of the endpoint that answers now, kept while the same model at the same URL answers. */
  private tokens: { key: string; source: TokenizerSource } | null = null;

  constructor(
    private readonly context: vscode.ExtensionContext,
    /** Whether this copy can run the bundled endpoint at all (bundledEngine.ts). */
    readonly engine: BundledEngine,
  ) {
    this.mirror = new TemplateMirror(join(context.globalStorageUri.fsPath, "served-template", "chat_template.jinja"));
    this.item.name = "Chat Template Endpoint";
    this.item.command = "chatTemplate.endpoint.showActions";
    this.mirrored =
      vscode.window.activeTextEditor && isTemplate(vscode.window.activeTextEditor.document)
        ? vscode.window.activeTextEditor.document
        : undefined;
    this.disposables.push(
      this.log,
      this.item,
      this.changed,
      this.manager.onState((s) => this.stateChanged(s)),
      this.manager.onTemplate((e) => {
        this.mirror.loaded(e);
        if (e.status === "error") this.log.warn(`the served template ${e.mirrorOf ?? e.path} was refused: ${e.message}`);
      }),
      vscode.window.onDidChangeActiveTextEditor((e) => {
        if (!e || !isTemplate(e.document)) return;
        this.follow(e.document);
        this.mirrorEdit(e.document);
      }),
      vscode.workspace.onDidChangeTextDocument((e) => e.document === this.mirrored && this.mirrorEdit(e.document)),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SECTION) && this.settingsChanged()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.trustGranted()),
      context.secrets.onDidChange((e) => e.key === API_KEY_SECRET && void this.checkExternal()),
    );
    this.update();
    if (this.settings().mode === "external") void this.checkExternal();
  }

  settings(): EndpointSettings {
    const c = vscode.workspace.getConfiguration(SECTION);
    return readEndpointSettings((key, fallback) => c.get(key, fallback), vscode.workspace.workspaceFolders?.[0]?.uri.fsPath);
  }

  get state(): EndpointState {
    return this.manager.state;
  }

  /** The endpoint to send requests to now, or null: none is running, or the workspace is not trusted. */
  async connection(): Promise<Connection | null> {
    if (!vscode.workspace.isTrusted) return null;
    const s = this.settings();
    if (s.mode === "external")
      return this.externalOn && s.externalUrl
        ? { url: s.externalUrl, apiKey: (await this.context.secrets.get(API_KEY_SECRET)) || undefined }
        : null;
    return this.manager.state.kind === "ready" ? { url: this.manager.state.url } : null;
  }

  /** The running endpoint's tokenizer (its POST /tokenize), for the preview's token view; null while none answers. */
  tokenizerSource(): TokenizerSource | null {
    const running = this.answering();
    if (!running) return (this.tokens = null);
    const key = `${running.model} at ${running.url}`;
    if (this.tokens?.key !== key) this.tokens = { key, source: endpointTokenizerSource(`endpoint: ${key}`, () => this.connection()) };
    return this.tokens.source;
  }

  /** The endpoint that answers now (bundled and ready, or external and reached) and its model; null when none does. */
  private answering(): { url: string; model: string } | null {
    if (!vscode.workspace.isTrusted) return null;
    if (this.settings().mode === "external") {
      const e = this.external;
      return this.externalOn && e && !e.error ? { url: e.url, model: e.model ?? "the served model" } : null;
    }
    const state = this.manager.state;
    return state.kind === "ready" ? { url: state.url, model: state.model } : null;
  }

  /** The figures of the last generation through the editor, for the status bar. */
  reportStats(stats: GenerationStats): void {
    this.stats = stats;
    this.update();
  }

  async start(): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      this.startWhenTrusted = true;
      const manage = "Manage Workspace Trust";
      const pick = await vscode.window.showWarningMessage(
        "The chat template endpoint starts only in a trusted workspace: it runs a process and loads model files.",
        manage,
      );
      if (pick === manage) void vscode.commands.executeCommand("workbench.trust.manage");
      return;
    }
    const s = this.settings();
    const problem = settingsProblem(s);
    if (problem) {
      const open = "Open Settings";
      if ((await vscode.window.showErrorMessage(`Cannot start the endpoint: ${problem}.`, open)) === open)
        void vscode.commands.executeCommand("workbench.action.openSettings", SECTION);
      return;
    }
    if (s.mode === "external") {
      this.externalOn = true;
      return this.checkExternal();
    }
    if (!this.engine.available) return this.offerExternal(this.engine);
    await this.manager.start(this.launch(s));
  }

  async stop(): Promise<void> {
    this.startWhenTrusted = false;
    if (this.settings().mode === "external") {
      this.externalOn = false;
      this.update();
      this.changed.fire();
    }
    await this.manager.stop();
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Where the bundled engine cannot run: says why, and opens the external endpoint's settings on request. */
  async offerExternal(engine: { reason: string }): Promise<void> {
    if ((await vscode.window.showWarningMessage(unavailableMessage(engine), USE_EXTERNAL_ENDPOINT)) !== USE_EXTERNAL_ENDPOINT) return;
    await vscode.workspace.getConfiguration(SECTION).update("mode", "external", vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("workbench.action.openSettings", EXTERNAL_ENDPOINT_SETTING);
  }

  /** Where the served template comes from, in words, for the model output pane. */
  servedTemplateNote(): string {
    if (this.settings().mode === "external") return "served template: the external server's own";
    if (this.served?.from === "mirror")
      return `served template: the editor's text (${this.mirrored ? vscode.workspace.asRelativePath(this.mirrored.uri) : "last chat template"})`;
    if (this.served?.from === "file") return `served template: ${this.served.file}`;
    return "served template: the GGUF's own (set chatTemplate.endpoint.templateSource to activeEditor to chat with the template you edit)";
  }

  /**
   * Before a chat request that should use `doc`'s text: when the served template follows the editor, serve
   * this text and wait for the endpoint to load it. Returns why it was refused, or null.
   */
  async serveTemplateOf(doc: vscode.TextDocument): Promise<string | null> {
    if (this.settings().mode === "external" || this.served?.from !== "mirror") return null;
    this.follow(doc);
    this.mirror.write(doc.getText());
    const e = await this.mirror.settled(5000);
    return e?.status === "error" ? `the endpoint refused the template: ${e.message}` : null;
  }

  /** The served model's bos/eos texts (bundled: from its GGUF header), for prompts rendered for it. */
  modelTokens(): ModelTokens | null {
    const s = this.settings();
    if (s.mode === "external") return null;
    try {
      return servedModelInfo(s);
    } catch {
      return null; // the endpoint reports what is wrong with the file
    }
  }

  async dispose(): Promise<void> {
    await this.manager.stop();
    for (const d of this.disposables) d.dispose();
  }

  private launch(s: EndpointSettings): LaunchSpec {
    this.served = {
      from: s.templateSource === "activeEditor" ? "mirror" : s.templateSource,
      file: s.templateSource === "file" ? s.templateFile : null,
    };
    if (this.served.from === "mirror") {
      const text = this.seedText(s);
      if (text === null) this.served = { from: "gguf", file: null };
      else {
        this.mirror.write(text);
        this.mirror.reset();
        this.served.file = this.mirror.file;
      }
    }
    this.log.info(this.servedTemplateNote());
    return {
      command: process.execPath,
      args: [
        this.context.asAbsolutePath(join("dist", "endpoint.js")),
        ...serveArgs(s, this.served.file, this.served.from === "mirror" && this.mirrored ? mirrorName(this.mirrored) : null),
      ],
      env: this.processEnv(),
    };
  }

  /** The `chat-template` command line, run as the endpoint is (for Install CUDA Build). */
  cli(): CliSpec {
    return { command: process.execPath, args: [this.context.asAbsolutePath(join("dist", "cli.js"))], env: this.processEnv() };
  }

  /** The extension's own data (demo models, the CUDA build) lives in its global storage. */
  get storageDir(): string {
    return this.context.globalStorageUri.fsPath;
  }

  private processEnv(): NodeJS.ProcessEnv {
    // in desktop VS Code the extension host's executable is Electron, which then runs as plain Node
    return { ...process.env, ELECTRON_RUN_AS_NODE: "1", CTS_STORAGE_DIR: this.storageDir };
  }

  /** The chat template editor's text; without one open, the model's own template (what it would serve anyway). */
  private seedText(s: EndpointSettings): string | null {
    const doc =
      this.mirrored ??
      vscode.window.visibleTextEditors.find((e) => isTemplate(e.document))?.document ??
      vscode.workspace.textDocuments.find(isTemplate);
    if (doc) {
      this.mirrored = doc;
      return doc.getText();
    }
    try {
      return ownTemplate(servedModelInfo(s));
    } catch {
      return null;
    }
  }

  /** The served copy follows `doc` from now on; the endpoint names it in its messages. */
  private follow(doc: vscode.TextDocument): void {
    if (doc === this.mirrored) return;
    this.mirrored = doc;
    if (this.served?.from === "mirror") this.manager.setMirrorOf(mirrorName(doc));
  }

  private mirrorEdit(doc: vscode.TextDocument): void {
    if (this.served?.from !== "mirror" || this.manager.state.kind === "stopped" || this.manager.state.kind === "failed") return;
    try {
      this.mirror.write(doc.getText());
    } catch (e) {
      this.log.warn(`cannot write the served template ${this.mirror.file}: ${(e as Error).message}`);
    }
  }

  private stateChanged(s: EndpointState): void {
    this.update();
    if (s.kind === "ready" || s.kind === "stopped" || s.kind === "failed" || s.kind === "restarting") this.changed.fire();
    if (s.kind === "starting" && !this.progressShown) this.showProgress();
    if (s.kind === "failed") {
      void vscode.window.showErrorMessage(`Chat template endpoint: ${s.message}`, "Show Log").then((pick) => pick && this.log.show());
    }
  }

  /** A notification from the start until the model is ready (or the start failed); cancelling stops it. */
  private showProgress(): void {
    this.progressShown = true;
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: "Chat template endpoint", cancellable: true },
      (progress, token) => {
        token.onCancellationRequested(() => void this.manager.stop());
        let shown = 0;
        const report = (s: EndpointState) => {
          if (s.kind === "starting") progress.report({ message: "starting…" });
          if (s.kind !== "loading") return;
          const pct = Math.round(s.progress * 100);
          progress.report({ message: `loading ${s.model}… ${pct}%`, increment: pct - shown });
          shown = pct;
        };
        report(this.manager.state);
        const sub = this.manager.onState(report);
        return this.manager.settled().finally(() => {
          sub.dispose();
          this.progressShown = false;
        });
      },
    );
  }

  private status(): EndpointStatus {
    if (!vscode.workspace.isTrusted) return { kind: "untrusted" };
    const s = this.settings();
    if (s.mode === "external") {
      if (!this.externalOn || !this.external) return { kind: "stopped" };
      return { kind: "external", ...this.external };
    }
    if (!this.engine.available) return { kind: "unavailable", reason: this.engine.reason };
    return this.manager.state;
  }

  private update(): void {
    const v = statusView(this.status(), this.stats);
    this.item.text = v.text;
    this.item.tooltip = v.tooltip;
    this.item.show();
  }

  /** External mode: /health and the model list; the result shows in the status bar. */
  private async checkExternal(): Promise<void> {
    const c = await this.connection();
    if (!c || this.settings().mode !== "external") return this.update();
    const client = new EndpointClient(c);
    try {
      await client.get("/health");
      const models = (await client.get("/v1/models")) as { data?: { id: string }[] };
      this.external = { url: c.url, model: models.data?.[0]?.id ?? null, error: null };
    } catch (e) {
      this.external = { url: c.url, model: null, error: (e as Error).message };
      this.log.warn(`external endpoint ${c.url}: ${(e as Error).message}`);
    }
    this.update();
    this.changed.fire();
  }

  private settingsChanged(): void {
    this.update();
    this.changed.fire();
    const s = this.settings();
    if (s.mode === "external") {
      void this.manager.stop();
      return void this.checkExternal();
    }
    const k = this.manager.state.kind;
    if (k === "stopped" || k === "failed") return;
    void vscode.window
      .showInformationMessage("Chat template endpoint settings changed: restart the endpoint to use them.", "Restart")
      .then((pick) => pick && this.restart());
  }

  private trustGranted(): void {
    this.update();
    this.changed.fire();
    if (this.settings().mode === "external") void this.checkExternal();
    if (this.startWhenTrusted) {
      this.startWhenTrusted = false;
      void this.start();
    }
  }
}
