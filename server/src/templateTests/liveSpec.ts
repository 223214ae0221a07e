// A case's `live` block: a conversation sent to a model endpoint, what the model must do with it (call
// `expectToolCall` with arguments that validate against that tool's schema, over `turns` turns with the
// scripted `toolResults`), and how often (`samples`, at least `minWellFormed` of them well formed).
import { getNodeValue, type Node } from "jsonc-parser";
import Ajv, { type ValidateFunction } from "ajv";

export interface LiveTool {
  name: string;
  /** The tool's parameters schema, compiled; arguments of a call must pass it. */
  validate: ValidateFunction;
}

export interface LiveSpec {
  messages: Record<string, unknown>[];
  /** As sent, in the OpenAI shape. */
  tools: Record<string, unknown>[];
  toolsByName: Map<string, LiveTool>;
  expectToolCall?: string;
  turns: number;
  /** Tool name → what the tool answers (a string as is, anything else as JSON). */
  toolResults: Record<string, unknown>;
  samples: number;
  minWellFormed: number;
  maxTokens: number;
  temperature?: number;
}

/** Each sample may run `turns` requests; a run of thousands would hold a server for hours by mistake. */
export const MAX_SAMPLES = 1000;
export const MAX_TURNS = 50;
const DEFAULT_MAX_TOKENS = 512;

type At = (offset: number, detail: string) => Error;

const LIVE_KEYS = ["messages", "tools", "expectToolCall", "turns", "toolResults", "samples", "minWellFormed", "maxTokens", "temperature"];

export function parseLive(node: Node, at: At): LiveSpec {
  if (node.type !== "object") throw at(node.offset, `"live" must be an object with "messages"`);
  const props = new Map<string, Node>();
  for (const p of node.children ?? []) {
    const [key, value] = p.children as [Node, Node];
    if (!LIVE_KEYS.includes(key.value as string))
      throw at(key.offset, `unknown key "${key.value}" in "live" (expected one of ${LIVE_KEYS.join(", ")})`);
    props.set(key.value as string, value);
  }
  const messagesNode = props.get("messages");
  if (!messagesNode || messagesNode.type !== "array" || !messagesNode.children?.length)
    throw at(messagesNode?.offset ?? node.offset, `"live" needs "messages": a non-empty list of chat messages`);
  for (const m of messagesNode.children) {
    const v = getNodeValue(m);
    if (v === null || typeof v !== "object" || Array.isArray(v) || typeof v.role !== "string")
      throw at(m.offset, `a message is an object with a "role"`);
  }
  const tools: Record<string, unknown>[] = [];
  const toolsByName = new Map<string, LiveTool>();
  const toolsNode = props.get("tools");
  if (toolsNode) {
    if (toolsNode.type !== "array")
      throw at(toolsNode.offset, `"tools" must be a list of {"type": "function", "function": {"name", "parameters"}}`);
    const ajv = new Ajv({ strict: false, allErrors: true });
    for (const t of toolsNode.children ?? []) {
      const v = getNodeValue(t);
      const fn = v?.function;
      if (v?.type !== "function" || typeof fn?.name !== "string" || !fn.name)
        throw at(t.offset, `a tool is {"type": "function", "function": {"name": …, "parameters": {…}}}`);
      if (toolsByName.has(fn.name)) throw at(t.offset, `two tools are named "${fn.name}"`);
      let validate: ValidateFunction;
      try {
        validate = ajv.compile(fn.parameters ?? {});
      } catch (e) {
        throw at(t.offset, `the parameters schema of "${fn.name}" is not a valid JSON schema: ${(e as Error).message}`);
      }
      tools.push(v);
      toolsByName.set(fn.name, { name: fn.name, validate });
    }
  }
  const expectNode = props.get("expectToolCall");
  let expectToolCall: string | undefined;
  if (expectNode) {
    if (expectNode.type !== "string" || !toolsByName.has(expectNode.value)) {
      throw at(
        expectNode.offset,
        `"expectToolCall" must name one of the case's tools (${[...toolsByName.keys()].join(", ") || "none given"})`,
      );
    }
    expectToolCall = expectNode.value as string;
  }
  const integer = (key: string, min: number, max: number, fallback: number): number => {
    const n = props.get(key);
    if (!n) return fallback;
    if (n.type !== "number" || !Number.isInteger(n.value) || n.value < min || n.value > max)
      throw at(n.offset, `"${key}" must be a whole number from ${min} to ${max}`);
    return n.value as number;
  };
  const fraction = (key: string, max: number): number | undefined => {
    const n = props.get(key);
    if (!n) return undefined;
    if (n.type !== "number" || n.value < 0 || n.value > max) throw at(n.offset, `"${key}" must be a number from 0 to ${max}`);
    return n.value as number;
  };
  const turns = integer("turns", 1, MAX_TURNS, 1);
  const resultsNode = props.get("toolResults");
  if (resultsNode && resultsNode.type !== "object")
    throw at(resultsNode.offset, `"toolResults" must map tool names to what each tool returns`);
  const toolResults = (resultsNode ? getNodeValue(resultsNode) : {}) as Record<string, unknown>;
  for (const p of resultsNode?.children ?? []) {
    const key = p.children![0];
    if (!toolsByName.has(key.value)) throw at(key.offset, `"toolResults" names "${key.value}", which is not one of the case's tools`);
  }
  if (turns > 1 && expectToolCall && !(expectToolCall in toolResults)) {
    throw at(
      (props.get("turns") ?? node).offset,
      `"turns": ${turns} goes on after each call of "${expectToolCall}", so "toolResults" must say what it returns`,
    );
  }
  return {
    messages: getNodeValue(messagesNode),
    tools,
    toolsByName,
    expectToolCall,
    turns,
    toolResults,
    samples: integer("samples", 1, MAX_SAMPLES, 1),
    minWellFormed: fraction("minWellFormed", 1) ?? 1,
    maxTokens: integer("maxTokens", 1, 1 << 20, DEFAULT_MAX_TOKENS),
    temperature: fraction("temperature", 2),
  };
}
