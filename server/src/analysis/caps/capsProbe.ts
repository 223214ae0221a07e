// llama.cpp's capability probe (common/jinja/caps.cpp, caps_get, release v0.5.0) run on a dialect:
// the same dummy conversations, the same order, the same reading of value statistics (usage.ts).
// A render that throws is ignored, as llama.cpp ignores it — which is exactly what goes wrong for
// users, so every throw is also returned with its node (see probeFindings.ts).
//
// `nullTools` adds the older probe that rendered the template with `tools=[null]` (a null tool next
// to a plain user message): when that threw, the llama.cpp builds that ran it inferred nothing and
// every capability read false.
import { type CauseCode, type Dialect, type Limits, render } from "../../interpreter";
import type { TemplateDocument } from "../../document";
import { CHECK_LIMITS, CHECK_NOW } from "../scenarios";
import { recordingUsage, Usage, withUsageStats } from "./usage";

/** caps::to_map(), with llama.cpp's names and defaults (caps.h). */
export interface Caps {
  supports_tools: boolean;
  supports_tool_calls: boolean;
  supports_parallel_tool_calls: boolean;
  supports_system_role: boolean;
  supports_string_content: boolean;
  supports_typed_content: boolean;
  supports_object_arguments: boolean;
  supports_preserve_reasoning: boolean;
  supports_reasoning_effort: boolean;
}

export const CAPS_KEYS = [
  "supports_tools",
  "supports_tool_calls",
  "supports_parallel_tool_calls",
  "supports_system_role",
  "supports_string_content",
  "supports_typed_content",
  "supports_object_arguments",
  "supports_preserve_reasoning",
  "supports_reasoning_effort",
] as const satisfies readonly (keyof Caps)[];

export type ProbeName =
  | "typed_content"
  | "typed_content_array"
  | "system_role"
  | "tool_object_arguments"
  | "tool_string_arguments"
  | "parallel_tool_calls"
  | "preserve_reasoning"
  | "reasoning_effort"
  | "null_tools";

/** A probe render that threw, where and why. */
export interface ProbeError {
  probe: ProbeName;
  start: number;
  end: number;
  code: CauseCode;
  message: string;
}

export interface CapsReport {
  caps: Caps;
  /** The probes that ran, in order (some only run after others). */
  probes: ProbeName[];
  errors: ProbeError[];
  /**
   * The probe render that ran out of a limit (steps, output, memory, recursion), after which no other probe ran:
   * a template that exhausts the budget on a dummy conversation would exhaust it on each of the others, and
   * seven renders of a resource bomb cost seven times one. The caps are then not llama.cpp's.
   */
  exhausted: ProbeError | null;
}

/** Ends the probe at the first render that ran out of a limit. */
class Exhausted extends Error {}

const user = (content: unknown) => ({ role: "user", content });
const STRING_MARKER = "STRING_MARKER";
const REASONING_PLACEHOLDER = "<REASONING_CONTENT_PLACEHOLDER>";

const TOOL = {
  name: "tool",
  type: "function",
  function: {
    name: "tool1",
    description: "Tool description",
    parameters: {
      type: "object",
      properties: { arg: { type: "string", description: "Arg description" } },
      required: ["arg"],
    },
  },
};

const call = (id: string, args: unknown) => ({ id, type: "function", function: { name: "tool1", arguments: args } });

/** The conversation of the tool probes: a call, its result, an answer, a new question. */
function toolConversation(calls: unknown[]): unknown[] {
  return [
    user("User message"),
    { role: "assistant", content: "", tool_calls: calls },
    { role: "tool", content: "Tool response", tool_call_id: "call00001" },
    { role: "assistant", content: "The tool response was 'tool response'" },
    user("User message"),
  ];
}

interface Run {
  success: boolean;
  output: string;
  usage: Usage;
}

const reports = new WeakMap<TemplateDocument, Map<string, CapsReport>>();

/** probeCaps, computed once per (document, dialect, options). */
export function capsOf(doc: TemplateDocument, dialect: Dialect, options: { nullTools?: boolean } = {}): CapsReport {
  let byKey = reports.get(doc);
  if (!byKey) reports.set(doc, (byKey = new Map()));
  const key = `${dialect.engine}:${options.nullTools ? 1 : 0}`;
  let r = byKey.get(key);
  if (!r) byKey.set(key, (r = probeCaps(doc, dialect, options)));
  return r;
}

/** `limits`: of each probe render (default: the engine checks' budget, CHECK_LIMITS). */
export function probeCaps(
  doc: TemplateDocument,
  dialect: Dialect,
  options: { nullTools?: boolean; limits?: Partial<Limits> } = {},
): CapsReport {
  const instrumented = withUsageStats(dialect);
  const limits = options.limits ?? CHECK_LIMITS;
  const errors: ProbeError[] = [];
  const probes: ProbeName[] = [];
  let exhausted: ProbeError | null = null;

  /** caps_try_execute: the context llama.cpp builds, then `extra` (its ctx_fn). */
  const run = (probe: ProbeName, messages: unknown[], tools: unknown[] | null, extra: Record<string, unknown> = {}): Run => {
    const usage = new Usage();
    probes.push(probe);
    const context = { messages, tools: tools ?? [], bos_token: "", eos_token: "", add_generation_prompt: true, ...extra };
    const r = recordingUsage(usage, () => render(doc, context, { dialect: instrumented, now: CHECK_NOW, limits }));
    if (r.error) {
      const e: ProbeError = { probe, start: r.error.start, end: r.error.end, code: r.error.code, message: r.error.message };
      errors.push(e);
      if (e.code.startsWith("limit/")) {
        exhausted = e;
        throw new Exhausted();
      }
    }
    return { success: r.error === null, output: r.output, usage };
  };

  const caps: Caps = {
    supports_tools: true,
    supports_tool_calls: true,
    supports_parallel_tool_calls: true,
    supports_system_role: true,
    supports_string_content: true,
    supports_typed_content: false,
    supports_object_arguments: false,
    supports_preserve_reasoning: false,
    supports_reasoning_effort: false,
  };

  try {
    inferCaps(caps, run, options);
  } catch (e) {
    if (!(e instanceof Exhausted)) throw e;
  }
  return { caps, probes, errors, exhausted };
}

type RunProbe = (probe: ProbeName, messages: unknown[], tools: unknown[] | null, extra?: Record<string, unknown>) => Run;

/** caps_get's probes in its order, each reading what the render used (usage.ts); fills in `caps`. */
function inferCaps(caps: Caps, run: RunProbe, options: { nullTools?: boolean }): void {
  if (options.nullTools) {
    const r = run("null_tools", [user("User message")], [null]);
    if (!r.success) {
      for (const k of CAPS_KEYS) caps[k] = false;
      return;
    }
  }

  const content = ["messages", 0, "content"] as const;
  const usedAsArray = (u: Usage) => u.hasOp(content, "selectattr") || u.hasOp(content, "array_access");

  // typed content
  const typed = run("typed_content", [user(STRING_MARKER)], null);
  const checksForString = typed.usage.hasOp(content, "test_is_string");
  if (usedAsArray(typed.usage)) caps.supports_typed_content = true;
  if (!typed.success) caps.supports_string_content = false;
  else if (usedAsArray(typed.usage) && !typed.output.includes(STRING_MARKER)) caps.supports_string_content = false;
  if (checksForString) {
    const array = run("typed_content_array", [user([])], null);
    if (usedAsArray(array.usage) && array.success) caps.supports_typed_content = true;
  }

  // system prompt
  const system = run("system_role", [{ role: "system", content: "System message" }, user("User message")], null);
  if (!system.usage.isUsed(content, true)) caps.supports_system_role = false;

  // a single tool call with object arguments
  const toolName = ["tools", 0, "function", "name"] as const;
  const toolCalls = ["messages", 1, "tool_calls"] as const;
  const objectArgs = run("tool_object_arguments", toolConversation([call("call00001", { arg: "value" })]), [TOOL]);
  if (objectArgs.success) {
    if (!objectArgs.usage.isUsed(toolName)) caps.supports_tools = false;
    if (!objectArgs.usage.isUsed(toolCalls)) caps.supports_tool_calls = false;
    else if (objectArgs.usage.isUsed(["messages", 1, "tool_calls", 0, "function", "arguments", "arg"], true))
      caps.supports_object_arguments = true;
  }

  // a single tool call with string arguments
  if (!caps.supports_object_arguments) {
    const stringArgs = run("tool_string_arguments", toolConversation([call("call00001", '{"arg": "value"}')]), [TOOL]);
    if (!stringArgs.success) {
      caps.supports_tool_calls = false;
      caps.supports_tools = false;
    } else {
      if (!stringArgs.usage.isUsed(toolName)) caps.supports_tools = false;
      if (!stringArgs.usage.isUsed(toolCalls)) caps.supports_tool_calls = false;
    }
  }

  // parallel calls
  const args = caps.supports_object_arguments ? { arg: "value" } : '{"arg": "value"}';
  const parallel = run("parallel_tool_calls", toolConversation([call("call00001", args), call("call00002", args)]), [TOOL]);
  if (!parallel.success || !parallel.usage.isUsed(["messages", 1, "tool_calls", 1, "function"])) caps.supports_parallel_tool_calls = false;

  // reasoning kept in the history (read from the output: a test of it is not a use)
  const reasoning = run(
    "preserve_reasoning",
    [
      user("User message"),
      { role: "assistant", content: "Assistant message", reasoning_content: REASONING_PLACEHOLDER },
      user("User message"),
      { role: "assistant", content: "Assistant message", reasoning_content: "Reasoning content" },
      user("User message"),
    ],
    null,
    { enable_thinking: true, preserve_thinking: true, clear_thinking: false, truncate_history_thinking: false, drop_thinking: false },
  );
  if (reasoning.output.includes(REASONING_PLACEHOLDER)) caps.supports_preserve_reasoning = true;

  // reasoning effort: reasoning_effort and reasoning_strength are one value in llama.cpp
  const effort = run("reasoning_effort", [user("User message")], null, {
    enable_thinking: true,
    reasoning_effort: "low",
    reasoning_strength: "low",
  });
  caps.supports_reasoning_effort = effort.usage.isUsed(["reasoning_effort"], true) || effort.usage.isUsed(["reasoning_strength"]);
}
