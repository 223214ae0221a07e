// The agent demo's tool turns. The demo model's weights are random: under tool_choice auto it writes a
// `<tool_call>` fragment and gibberish, so no agent loop could ever be tried on it. When the served target's own
// metadata marks it as the agent demo (native/testModels/agentDemo.ts), a request that offers tools under auto
// is constrained the way forced tool calls already are, by the chat layer's grammar:
//   - a turn that starts from the user: a call to one of its tools (a shell or listing tool when there is one,
//     running `ls`), whose arguments the grammar holds to a schema-valid value for each required field;
//   - a turn that answers tool results: a short text that quotes the last result.
// A forced call (`required`, or a tool named) is one call too, with the same arguments (to the named tool): left to
// the random weights it comes as several calls (parallel calls are allowed) of random strings, the last one cut by
// max_tokens, which no client can run.
// The output is still the model's own tokens, sampled under the grammar; the server adds no text. The prompt is
// the request's own, token for token; only the constraints (grammar, triggers, parser) come from the narrowed
// request, built with thinking off so that nothing (no reasoning the random model would ramble in) comes first.
import type { ChatPrompt, ChatRequest } from "../../engine";

type Apply = (request: ChatRequest) => Promise<ChatPrompt>;
type Schema = Record<string, unknown>;
interface Tool {
  type?: string;
  function?: { name?: string; description?: string; parameters?: Schema };
}
interface Message {
  role?: string;
  content?: unknown;
  tool_calls?: unknown[];
}

/** The tools agents run commands or list files with, preferred in this order. */
const SHELL = /^(bash|shell|run_shell_command|exec_command|shell_command|execute_command|run_command|terminal)$/i;
const LISTING = /^(ls|list|list_directory|list_dir|list_files|glob)$/i;
const COMMAND_KEYS = /^(command|cmd)$/i;
const PATH_KEYS = /^(path|dir|directory|dir_path|cwd|workdir|file_path|pattern|absolute_path)$/i;

/** The longest quote of a tool result in the answer. */
export const QUOTE_CHARS = 160;

export function preferredTool(tools: Tool[]): Tool {
  return tools.find((t) => SHELL.test(t.function?.name ?? "")) ?? tools.find((t) => LISTING.test(t.function?.name ?? "")) ?? tools[0];
}

/** A value the schema accepts, for a field of this name: `ls` for a command, `.` for a path. */
export function demoValue(key: string, schema: Schema): unknown {
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "string" || (type === undefined && COMMAND_KEYS.test(key))) {
    const text = COMMAND_KEYS.test(key) ? "ls" : PATH_KEYS.test(key) ? "." : "demo";
    const min = typeof schema.minLength === "number" ? schema.minLength : 0;
    const max = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
    return text.padEnd(min, ".").slice(0, max);
  }
  if (type === "array") {
    const items = (schema.items ?? {}) as Schema;
    return COMMAND_KEYS.test(key) && items.type === "string" ? ["ls"] : [];
  }
  if (type === "integer" || type === "number") return typeof schema.minimum === "number" ? schema.minimum : 1;
  if (type === "boolean") return false;
  if (type === "null") return null;
  return demoArguments((schema as Schema) ?? {});
}

/** Arguments that fill each required field (and `command` wherever the schema has one). */
export function demoArguments(schema: Schema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const key of Object.keys(properties)) if (COMMAND_KEYS.test(key)) required.add(key);
  return Object.fromEntries([...required].filter((k) => k in properties).map((k) => [k, demoValue(k, properties[k])]));
}

/** The tool with a schema that admits only its demo arguments: the grammar then allows nothing else. */
function narrowed(tool: Tool): Tool {
  const args = demoArguments(tool.function?.parameters ?? {});
  const properties = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, { const: v }]));
  return {
    ...tool,
    function: { ...tool.function, parameters: { type: "object", properties, required: Object.keys(args), additionalProperties: false } },
  };
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((p: { text?: unknown }) => (typeof p?.text === "string" ? p.text : "")).join(" ");
}

/** The answer to a tool result: its start, on one line. */
export function answerQuoting(result: string): string {
  const line = result.replace(/\s+/g, " ").trim();
  const quote = line.length > QUOTE_CHARS ? `${line.slice(0, QUOTE_CHARS)}…` : line;
  return quote ? `The tool returned: "${quote}"` : "The tool returned nothing.";
}

/** A GBNF rule that matches exactly this text. */
export function literalGrammar(text: string): string {
  const escaped = [...text]
    .map((c) => {
      if (c === "\\" || c === '"') return `\\${c}`;
      if (c === "\n") return "\\n";
      const code = c.codePointAt(0)!;
      return code < 0x20 ? `\\x${code.toString(16).padStart(2, "0")}` : c;
    })
    .join("");
  return `root ::= "${escaped}"\n`;
}

/** The tool results of the turn being answered: those after the last assistant message. */
function pendingResults(messages: Message[]): Message[] {
  const lastAssistant = messages.map((m) => m.role).lastIndexOf("assistant");
  return messages.slice(lastAssistant + 1).filter((m) => m.role === "tool");
}

/**
 * The constraints (grammar, triggers, parser) for the agent demo's turn, or null when the request is not one it
 * steers (no tools, tool_choice none or naming a tool it does not offer, an output format or grammar of its own).
 * The prompt the model reads stays the request's own.
 */
export async function agentDemoConstraint(apply: Apply, request: ChatRequest): Promise<ChatPrompt | null> {
  const tools = (request.tools ?? []) as Tool[];
  const choice = request.tool_choice ?? "auto";
  if (!tools.length || choice === "none") return null;
  if (request.response_format || request.grammar !== undefined || request.json_schema !== undefined) return null;
  const messages = request.messages as Message[];
  // the grammar (not the prompt) as with thinking off: the call or the answer comes first, no reasoning before it
  const plain: ChatRequest = { ...request, chat_template_kwargs: { ...request.chat_template_kwargs, enable_thinking: false } };
  const results = pendingResults(messages);
  if (results.length && choice === "auto") {
    const answer = literalGrammar(answerQuoting(textOf(results.at(-1)!.content)));
    return apply({ ...plain, tools: undefined, tool_choice: undefined, parallel_tool_calls: undefined, grammar: answer });
  }
  // a tool it does not offer: the chat layer's own error says so
  const tool = typeof choice === "object" ? tools.find((t) => t.function?.name === choice.function.name) : preferredTool(tools);
  if (!tool) return null;
  const forced: ChatRequest = {
    ...plain,
    tool_choice: { type: "function", function: { name: tool.function?.name ?? "" } },
    parallel_tool_calls: false,
  };
  return apply({ ...forced, tools: [narrowed(tool)] });
}
