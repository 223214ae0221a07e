// The host side of the preview, without VS Code: it holds the template, scenario and options, renders
// with every visible engine, and talks to the webview through a transport. panel.ts connects it to a
// real webview and the editor; tests connect it to a fake one.
import { TemplateDocument } from "../../../server/src/document";
import { localNow, PyDict, type WallClock } from "../../../server/src/interpreter";
import { failed, REFERENCE_ENGINE, type EngineInput, type EngineOutcome, type PreviewEngine } from "./engines/engine";
import { buildContext, contextDefaults, contextJson, scenarioFromCurrent, type BuiltContext } from "./model/context";
import type { ModelBinding, ModelTokens, Tokenizer, TokenizerSource } from "../gguf/modelBinding";
import { diffChanges, toReferenceOffset } from "./model/diff";
import { engineView, type TokenCount } from "./model/engineView";
import { chunkAt } from "./model/provenance";
import { tokenView, type TokenViewModel } from "./model/tokenView";
import { scenarioInfo, type ScenarioEntry } from "./model/scenarios";
import { engineTitle } from "./model/verdict";
import type { SpecialTokenSet } from "./model/specialTokens";
import {
  parseWebviewMessage,
  type HostMessage,
  type ModelOutputView,
  type PreviewOptions,
  type PreviewState,
  type WebviewMessage,
} from "./protocol";

export interface PreviewTransport {
  post(message: HostMessage): void;
  onMessage(listener: (raw: unknown) => void): { dispose(): void };
}

/** What the controller asks of the editor around it. */
export interface PreviewHost {
  /** Select and show `[start, end)` of the template. */
  reveal(uri: string, start: number, end: number): void;
  copy(text: string): void;
  /** Show `output` in a diff editor against one of `others` (the host asks which; the reference is first). */
  diff(output: RenderedColumn, others: RenderedColumn[]): void;
  saveScenario(suggestedName: string, json: string): void;
  /** A message from the webview that was dropped, and why. */
  log(message: string): void;
  /** The model output pane's buttons (Test Template Against Model). */
  runModel?(mode: ModelOutputView["mode"]): void;
  stopModel?(): void;
}

/** A column's output as the diff editor shows it. */
export interface RenderedColumn {
  id: string;
  title: string;
  text: string;
}

/** What a model test renders and sends: the previewed template, and the context of the chosen scenario and options. */
export interface ModelInput {
  uri: string;
  name: string;
  text: string;
  doc: TemplateDocument;
  scenario: string;
  context: PyDict;
  /** Why the extra variables were left out, or null. */
  problem: string | null;
  /** What strftime_now sees, as in the preview's renders. */
  now: WallClock;
}

export interface TemplateInput {
  uri: string;
  name: string;
  text: string;
  model: ModelBinding | null;
}

export interface ControllerOptions {
  transport: PreviewTransport;
  host: PreviewHost;
  /** In display order; the reference (jinja2) should be among them. */
  engines: PreviewEngine[];
  scenarios: ScenarioEntry[];
  debounceMs: number;
  /** What strftime_now sees; one instant per render, shared by every engine that can be pinned. */
  clock?: () => WallClock;
  /** chatTemplate.llamaServer.args, read at each render: the flags the user's llama-server starts with. */
  serverArgs?: () => readonly string[];
  /** The running endpoint's tokenizer, for token counts when the template is bound to no GGUF; null while none runs. */
  endpointTokenizer?: () => TokenizerSource | null;
}

export const DEFAULT_OPTIONS: PreviewOptions = {
  bosToken: null,
  eosToken: null,
  addGenerationPrompt: null,
  enableThinking: null,
  extraVariables: "",
  showWhitespace: false,
};

const NO_TOKENIZER =
  "token count unavailable: no tokenizer (open the template from a GGUF, set chatTemplate.preview.tokenizerModel, or start the endpoint)";
const MAX_COUNTS = 64;

export class PreviewController {
  private template: TemplateInput | null = null;
  private doc: TemplateDocument | null = null;
  private scenarios: ScenarioEntry[];
  private scenarioId = "";
  private options: PreviewOptions = { ...DEFAULT_OPTIONS };
  private readonly hidden = new Set<string>();
  private version = 0;
  private readonly outcomes = new Map<string, EngineOutcome | "pending">();
  private built: BuiltContext | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private tokenizer: { source: TokenizerSource; loading: Promise<Tokenizer>; failure: string | null } | null = null;
  /** Each output's token view, by output text. */
  private readonly counts = new Map<string, TokenViewModel | "counting">();
  private readonly subscription: { dispose(): void };
  private modelOutput: ModelOutputView | null = null;

  constructor(private readonly o: ControllerOptions) {
    this.scenarios = o.scenarios;
    this.pickScenario();
    this.subscription = o.transport.onMessage((raw) => this.receive(raw));
  }

  /** Shows a template (the preview opened, or the active editor changed): renders at once. */
  showTemplate(t: TemplateInput): void {
    if (t.model !== this.template?.model) this.counts.clear();
    this.template = { ...t };
    this.postState();
    this.renderNow();
  }

  /** The template was edited: renders after the debounce delay. */
  editTemplate(uri: string, text: string): void {
    if (!this.template || this.template.uri !== uri) return;
    this.template.text = text;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.renderNow(), this.o.debounceMs);
  }

  get templateUri(): string | null {
    return this.template?.uri ?? null;
  }

  /**
   * The template and context the preview renders now; null before a template is shown. `model`: whose
   * bos/eos texts fill in what the options and scenario leave open (the served model's, for a model test).
   */
  modelInput(model?: ModelTokens): ModelInput | null {
    const t = this.template;
    if (!t) return null;
    if (this.doc?.text !== t.text) this.doc = new TemplateDocument(t.text);
    const { context, problem } = buildContext(this.scenarioContext, this.options, model ?? t.model);
    const scenario = this.scenarios.find((s) => s.id === this.scenarioId)?.name ?? "";
    const now = (this.o.clock ?? localNow)();
    return { uri: t.uri, name: t.name, text: t.text, doc: this.doc, scenario, context, problem, now };
  }

  /** Shows (or updates) the model output pane. */
  showModelOutput(view: ModelOutputView): void {
    this.modelOutput = view;
    this.o.transport.post({ type: "modelOutput", output: view });
  }

  setScenarios(list: ScenarioEntry[]): void {
    this.scenarios = list;
    this.pickScenario();
    this.postState();
    this.renderNow();
  }

  selectScenario(id: string): void {
    const s = this.scenarios.find((x) => x.id === id);
    if (!s) return this.o.host.log(`preview: no scenario '${id}'`);
    if (!s.context) return this.o.transport.post({ type: "error", message: s.problem ?? `scenario '${s.name}' cannot be used` });
    this.scenarioId = s.id;
    this.postState();
    this.renderNow();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscription.dispose();
    for (const e of this.o.engines) e.dispose();
  }

  /** Keeps the chosen scenario while it exists and works; else built-in "basic", else the first that works. */
  private pickScenario(): void {
    const usable = this.scenarios.filter((s) => s.context);
    if (usable.some((s) => s.id === this.scenarioId)) return;
    this.scenarioId = (usable.find((s) => s.id === "built-in:basic") ?? usable[0])?.id ?? "";
  }

  private get scenarioContext(): PyDict {
    return this.scenarios.find((s) => s.id === this.scenarioId)?.context ?? new PyDict();
  }

  private get visibleEngines(): PreviewEngine[] {
    return this.o.engines.filter((e) => !this.hidden.has(e.id));
  }

  private state(): PreviewState {
    const t = this.template;
    return {
      template: t && { name: t.name, uri: t.uri },
      scenarios: this.scenarios.map(scenarioInfo),
      scenario: this.scenarioId,
      options: this.options,
      defaults: contextDefaults(this.scenarioContext, t?.model ?? null),
      engines: this.o.engines.map((e) => ({
        id: e.id,
        label: e.label,
        real: e.real,
        reference: e.id === REFERENCE_ENGINE,
        visible: !this.hidden.has(e.id),
      })),
      tokenizer: this.tokenizerSource()?.label ?? null,
    };
  }

  private postState(): void {
    this.o.transport.post({ type: "state", state: this.state() });
  }

  private renderNow(): void {
    clearTimeout(this.timer);
    const t = this.template;
    if (!t) return;
    if (this.doc?.text !== t.text) this.doc = new TemplateDocument(t.text);
    const version = ++this.version;
    this.built = buildContext(this.scenarioContext, this.options, t.model);
    const now = (this.o.clock ?? localNow)();
    const input = {
      doc: this.doc,
      context: this.built.context,
      json: contextJson(this.built.context),
      now,
      serverArgs: this.o.serverArgs?.(),
    };
    this.outcomes.clear();
    for (const engine of this.visibleEngines) {
      const r = renderSafely(engine, input);
      if (!(r instanceof Promise)) {
        this.outcomes.set(engine.id, r);
        continue;
      }
      this.outcomes.set(engine.id, "pending");
      r.then(
        (outcome) => {
          if (outcome === null || version !== this.version) return;
          this.outcomes.set(engine.id, outcome);
          this.publish();
        },
        (e: Error) => this.o.host.log(`${engine.label}: ${e.message}`),
      );
    }
    this.publish();
  }

  private publish(): void {
    const built = this.built;
    if (!built) return;
    const ref = this.outcomes.get(REFERENCE_ENGINE);
    const model = this.template?.model ?? null;
    const bos = built.context.get("bos_token");
    const eos = built.context.get("eos_token");
    // a vocabulary says exactly what is special; without one, common spellings and the bos/eos in use
    const specials: SpecialTokenSet = model
      ? { tokens: model.specialTokens, common: false }
      : { tokens: [bos, eos].filter((x): x is string => typeof x === "string"), common: true };
    const engines = this.visibleEngines.flatMap((e) => {
      const outcome = this.outcomes.get(e.id);
      if (!outcome) return [];
      const reference = e.id === REFERENCE_ENGINE || ref === undefined || ref === "pending" ? null : ref;
      const count = outcome !== "pending" && outcome.status === "ok" ? this.count(outcome.output) : { tokens: null, note: null };
      return [engineView(e.id, outcome, reference, e.note(), specials, count)];
    });
    this.o.transport.post({ type: "update", update: { version: this.version, contextProblem: built.problem, engines } });
  }

  /** The endpoint started or stopped: token counts come from it, or no longer do. */
  endpointChanged(): void {
    if (this.template?.model) return;
    this.counts.clear();
    this.postState();
    this.publish();
  }

  /** The bound GGUF's tokenizer, else the running endpoint's. */
  private tokenizerSource(): TokenizerSource | null {
    return this.template?.model ?? this.o.endpointTokenizer?.() ?? null;
  }

  /** The cached count, or starts counting and publishes again when it is known. */
  private count(text: string): TokenCount {
    const source = this.tokenizerSource();
    if (!source) return { tokens: null, note: NO_TOKENIZER };
    if (this.tokenizer?.source !== source) {
      this.counts.clear();
      const loading = source.tokenizer();
      const entry = { source, loading, failure: null as string | null };
      loading.catch((e: Error) => {
        entry.failure = `token count unavailable: ${e.message}`;
        if (this.tokenizer === entry) this.publish();
      });
      this.tokenizer = entry;
    }
    if (this.tokenizer.failure) return { tokens: null, note: this.tokenizer.failure };
    const known = this.counts.get(text);
    if (known !== undefined && known !== "counting") return { tokens: known.count, note: null, view: known };
    if (known === undefined) {
      if (this.counts.size >= MAX_COUNTS) this.counts.clear();
      this.counts.set(text, "counting");
      const entry = this.tokenizer;
      entry.loading
        .then(async (tk) => tokenView(text, await tk.tokenize(text), tk.bos))
        .then(
          (view) => {
            if (this.tokenizer !== entry) return;
            this.counts.set(text, view);
            this.publish();
          },
          (e: Error) => {
            if (this.tokenizer !== entry) return;
            entry.failure ??= `token count unavailable: ${e.message}`;
            this.publish();
          },
        );
    }
    return { tokens: null, note: "counting tokens…" };
  }

  /** The visible columns that have an output (an error's partial output included), the reference first. */
  private renderedColumns(): RenderedColumn[] {
    return this.visibleEngines
      .flatMap((e) => {
        const o = this.outcomes.get(e.id);
        if (!o || o === "pending" || o.status === "unavailable") return [];
        return [{ id: e.id, title: engineTitle({ label: e.label, real: e.real, reference: e.id === REFERENCE_ENGINE }), text: o.output }];
      })
      .sort((a, b) => Number(b.id === REFERENCE_ENGINE) - Number(a.id === REFERENCE_ENGINE));
  }

  private receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) return this.o.host.log(`preview: dropped a message from the webview: ${parsed.reason}`);
    this.handle(parsed.message);
  }

  private handle(m: WebviewMessage): void {
    switch (m.type) {
      case "ready":
        this.postState();
        if (this.modelOutput) this.o.transport.post({ type: "modelOutput", output: this.modelOutput });
        return this.publish();
      case "selectScenario":
        return this.selectScenario(m.id);
      case "setOption":
        this.options = { ...this.options, [m.key]: m.value };
        // whitespace display is the webview's own business; every other option changes the context
        if (m.key !== "showWhitespace") this.renderNow();
        return;
      case "showEngine":
        if (m.visible) this.hidden.delete(m.engine);
        else this.hidden.add(m.engine);
        this.postState();
        return this.renderNow();
      case "reveal":
        return this.reveal(m.engine, m.offset);
      case "revealError":
        return this.revealError(m.engine);
      case "copy": {
        const o = this.outcomes.get(m.engine);
        if (o && o !== "pending" && o.status !== "unavailable") this.o.host.copy(o.output);
        return;
      }
      case "diff": {
        const columns = this.renderedColumns();
        const mine = columns.find((c) => c.id === m.engine);
        if (mine)
          this.o.host.diff(
            mine,
            columns.filter((c) => c !== mine),
          );
        return;
      }
      case "newScenario": {
        const s = this.scenarios.find((x) => x.id === this.scenarioId);
        return this.o.host.saveScenario(`${s?.name ?? "scenario"}-copy`, scenarioFromCurrent(this.scenarioContext, this.options));
      }
      case "runModel":
        return this.o.host.runModel?.(m.mode);
      case "stopModel":
        return this.o.host.stopModel?.();
    }
  }

  /** Engines without provenance (the real ones) borrow the reference's, through the diff alignment. */
  private reveal(engine: string, offset: number): void {
    const o = this.outcomes.get(engine);
    const ref = this.outcomes.get(REFERENCE_ENGINE);
    if (!this.template || !o || o === "pending" || o.status === "unavailable") return;
    let chunk = o.chunks && chunkAt(o.chunks, offset);
    if (!o.chunks && ref && ref !== "pending" && ref.status !== "unavailable" && ref.chunks) {
      chunk = chunkAt(ref.chunks, toReferenceOffset(diffChanges(ref.output, o.output), offset));
    }
    if (chunk) this.o.host.reveal(this.template.uri, chunk.sourceStart, chunk.sourceEnd);
  }

  private revealError(engine: string): void {
    const o = this.outcomes.get(engine);
    if (!this.template || !this.doc || !o || o === "pending" || o.status !== "error") return;
    const e = o.error;
    if (e.start !== null) return this.o.host.reveal(this.template.uri, e.start, e.end ?? e.start);
    if (e.line === null) return;
    // the engine named a line (and perhaps a column): select from there to the end of that line
    const lines = this.doc.lines;
    const start = lines.offsetAt({ line: e.line - 1, character: (e.column ?? 1) - 1 });
    const lineEnd = lines.offsetAt({ line: e.line - 1, character: Number.MAX_SAFE_INTEGER });
    const end = start + this.doc.text.slice(start, lineEnd).replace(/\r?\n$|\r$/, "").length;
    this.o.host.reveal(this.template.uri, start, end);
  }
}

/** A bug in one engine shows in its column instead of stopping the preview. */
function renderSafely(engine: PreviewEngine, input: EngineInput): ReturnType<PreviewEngine["render"]> {
  try {
    return engine.render(input);
  } catch (e) {
    return failed(`internal error in ${engine.label}: ${(e as Error).message}`);
  }
}
