// The messages between the preview's host side (controller.ts) and its webview (webview/main.ts).
// Both sides check what they receive: the webview is a separate page, and a message that does not
// have the expected shape is dropped with a reason instead of reaching the renderer.
import type { TokenViewModel } from "./model/tokenView";

export interface Span {
  start: number;
  end: number;
}

/** Render context options; null means "as the scenario (or the bound model) says". */
export interface ContextOptions {
  bosToken: string | null;
  eosToken: string | null;
  addGenerationPrompt: boolean | null;
  enableThinking: boolean | null;
  /** A JSON object merged over the context last; "" for none. */
  extraVariables: string;
}

export interface PreviewOptions extends ContextOptions {
  showWhitespace: boolean;
}

export type OptionKey = keyof PreviewOptions;

export interface ScenarioInfo {
  id: string;
  name: string;
  source: "built-in" | "workspace";
  /** The file a workspace scenario came from (for the tooltip and problems). */
  file: string | null;
  /** Why it cannot be used (bad JSON, not an object); null when it can. */
  problem: string | null;
}

export interface EngineInfo {
  id: string;
  label: string;
  /** A real engine (run as a separate process) rather than one of our dialects. */
  real: boolean;
  reference: boolean;
  visible: boolean;
}

export interface PreviewState {
  template: { name: string; uri: string } | null;
  scenarios: ScenarioInfo[];
  scenario: string;
  options: PreviewOptions;
  /** What the context gets where an option is null, shown as placeholders. */
  defaults: { bosToken: string; eosToken: string; addGenerationPrompt: boolean; enableThinking: boolean | null };
  engines: EngineInfo[];
  /** Where token counts come from ("model.gguf"), or null without a tokenizer. */
  tokenizer: string | null;
}

/** What `diffs` marks in an engine's output: its `[start, end)` stands where the reference has `reference`. */
export interface DiffMark extends Span {
  reference: string;
}

export interface ErrorView {
  message: string;
  code: string | null;
  /** 1-based; null when the engine did not say where. */
  line: number | null;
  column: number | null;
}

export type EngineStatus = "ok" | "error" | "pending" | "unavailable";

export interface EngineView {
  id: string;
  status: EngineStatus;
  output: string;
  error: ErrorView | null;
  /** Why an engine is unavailable, or what it is (the real engine's version). */
  note: string | null;
  /** Differences against the reference; null when there is nothing to compare (the reference itself, an error). */
  diffs: DiffMark[] | null;
  specials: Span[];
  tokens: number | null;
  tokenNote: string | null;
  /** The output split by the model's tokenizer; null without one (tokenNote says why). */
  tokenView: TokenViewModel | null;
}

export interface PreviewUpdate {
  version: number;
  /** A problem with the context (extra variables that are not a JSON object, a broken scenario). */
  contextProblem: string | null;
  engines: EngineView[];
}

/** What llama.cpp's parser lifted out of the model's output. */
export interface ParsedOutput {
  content: string;
  reasoning: string;
  toolCalls: { name: string; arguments: string }[];
}

/** "Test Template Against Model": the model's answer to the rendered prompt (completion) or to the scenario (chat). */
export interface ModelOutputView {
  mode: "completion" | "chat";
  status: "running" | "done" | "error" | "cancelled";
  model: string;
  /** The generated text as it is (completion); null for chat, whose API returns only the parsed message. */
  raw: string | null;
  parsed: ParsedOutput | null;
  /** Why the run failed, or why there is no parse. */
  error: string | null;
  finishReason: string | null;
  tokensPerSecond: number | null;
  acceptance: number | null;
  /** Where the prompt came from (which template, which scenario). */
  note: string;
}

export type HostMessage =
  | { type: "state"; state: PreviewState }
  | { type: "update"; update: PreviewUpdate }
  | { type: "modelOutput"; output: ModelOutputView }
  | { type: "error"; message: string };

export type WebviewMessage =
  | { type: "ready" }
  | { type: "selectScenario"; id: string }
  | { type: "setOption"; key: "bosToken" | "eosToken"; value: string | null }
  | { type: "setOption"; key: "addGenerationPrompt" | "enableThinking"; value: boolean | null }
  | { type: "setOption"; key: "extraVariables"; value: string }
  | { type: "setOption"; key: "showWhitespace"; value: boolean }
  | { type: "showEngine"; engine: string; visible: boolean }
  | { type: "reveal"; engine: string; offset: number }
  | { type: "revealError"; engine: string }
  | { type: "copy"; engine: string }
  /** Open this column's output in VS Code's diff editor against another column's. */
  | { type: "diff"; engine: string }
  | { type: "newScenario" }
  | { type: "runModel"; mode: ModelOutputView["mode"] }
  | { type: "stopModel" };

export type Parsed<T> = { ok: true; message: T } | { ok: false; reason: string };

/** Longest text a setOption may carry: extra variables are typed by hand. */
export const MAX_OPTION_TEXT = 1 << 20;

type Check = (v: unknown) => boolean;
const isString: Check = (v) => typeof v === "string" && v.length <= MAX_OPTION_TEXT;
const isBool: Check = (v) => typeof v === "boolean";
const orNull =
  (c: Check): Check =>
  (v) =>
    v === null || c(v);
const isOffset: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0;

const OPTION_VALUE: Record<OptionKey, Check> = {
  bosToken: orNull(isString),
  eosToken: orNull(isString),
  addGenerationPrompt: orNull(isBool),
  enableThinking: orNull(isBool),
  extraVariables: isString,
  showWhitespace: isBool,
};

const WEBVIEW_FIELDS: Record<WebviewMessage["type"], Record<string, Check>> = {
  ready: {},
  selectScenario: { id: isString },
  setOption: { key: (v) => typeof v === "string" && Object.hasOwn(OPTION_VALUE, v) },
  showEngine: { engine: isString, visible: isBool },
  reveal: { engine: isString, offset: isOffset },
  revealError: { engine: isString },
  copy: { engine: isString },
  diff: { engine: isString },
  newScenario: {},
  runModel: { mode: (v) => v === "completion" || v === "chat" },
  stopModel: {},
};

const HOST_FIELDS: Record<HostMessage["type"], Record<string, Check>> = {
  state: { state: (v) => isObject(v) && Array.isArray(v.scenarios) && Array.isArray(v.engines) && isObject(v.options) },
  update: { update: (v) => isObject(v) && Number.isSafeInteger(v.version) && Array.isArray(v.engines) },
  modelOutput: { output: (v) => isObject(v) && typeof v.mode === "string" && typeof v.status === "string" && typeof v.note === "string" },
  error: { message: isString },
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function parseWith<T>(raw: unknown, table: Record<string, Record<string, Check>>): Parsed<T> {
  if (!isObject(raw) || typeof raw.type !== "string") return { ok: false, reason: "not a message object with a type" };
  const fields = Object.hasOwn(table, raw.type) ? table[raw.type] : undefined;
  if (!fields) return { ok: false, reason: `unknown message type '${raw.type}'` };
  for (const [name, check] of Object.entries(fields)) {
    if (!check(raw[name])) return { ok: false, reason: `${raw.type}: bad or missing '${name}'` };
  }
  return { ok: true, message: raw as T };
}

/** Checks a message from the webview, including that a setOption value fits its key. */
export function parseWebviewMessage(raw: unknown): Parsed<WebviewMessage> {
  const r = parseWith<WebviewMessage>(raw, WEBVIEW_FIELDS);
  if (r.ok && r.message.type === "setOption" && !OPTION_VALUE[r.message.key](r.message.value)) {
    return { ok: false, reason: `setOption: bad value for '${r.message.key}'` };
  }
  return r;
}

export function parseHostMessage(raw: unknown): Parsed<HostMessage> {
  return parseWith<HostMessage>(raw, HOST_FIELDS);
}
