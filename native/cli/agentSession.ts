// A synthetic agent session shaped like Claude Code's, as Anthropic Messages bodies: the billing-header block first
// in `system` (its cch changing per request, as Claude Code sends it), a long system prompt and tool list, then turns
// of thinking and tool calls with their results, and a new user prompt every few turns (where templates that drop
// earlier reasoning re-render the conversation). The assistant turns are scripted, so every run replays the same
// conversation whatever the model writes; request N+1 is request N's messages plus its scripted turn.

export interface AgentSessionShape {
  /** Lines of system prompt (sized by the caller to a token count). */
  systemLines: number;
  turns: number;
}

/** A new user prompt after every this many tool turns. */
const USER_EVERY = 4;

const TOOLS = [
  ["Bash", "Runs a shell command in the project folder and returns its output.", { command: "string", timeout: "number" }],
  ["Read", "Reads a file from the local filesystem, with line numbers.", { file_path: "string", offset: "number", limit: "number" }],
  ["Edit", "Replaces an exact string in a file with another.", { file_path: "string", old_string: "string", new_string: "string" }],
  ["Write", "Writes a file, replacing what it held.", { file_path: "string", content: "string" }],
  ["Grep", "Searches file contents with a regular expression.", { pattern: "string", path: "string", glob: "string" }],
  ["Glob", "Lists files whose paths match a glob pattern.", { pattern: "string", path: "string" }],
  ["TodoWrite", "Keeps the task list of this session.", { todos: "string" }],
  ["WebFetch", "Fetches a URL and answers a question about its content.", { url: "string", prompt: "string" }],
] as const;

function tools(): object[] {
  return TOOLS.map(([name, description, props]) => ({
    name,
    description,
    input_schema: {
      type: "object",
      properties: Object.fromEntries(Object.entries(props).map(([k, type]) => [k, { type, description: `The ${k.replace(/_/g, " ")}.` }])),
      required: [Object.keys(props)[0]],
    },
  }));
}

/** One line of the system prompt: varied enough that a tokenizer does not fold lines together. */
const systemLine = (i: number) =>
  `${i + 1}. When a task touches ${["tests", "the build", "the docs", "a config file", "an API"][i % 5]}, ` +
  `check ${["its callers", "the changelog", "the lint rules", "the types", "the fixtures"][(i * 3) % 5]} first and keep the change to ${(i % 7) + 1} files or fewer.`;

export function systemPrompt(lines: number): string {
  return [
    "You are an interactive CLI tool that helps users with software engineering tasks.",
    ...Array.from({ length: lines }, (_, i) => systemLine(i)),
  ].join("\n");
}

const billing = (request: number) => ({
  type: "text",
  text: `x-anthropic-billing-header: cc_version=2.1.332.a1b; cc_entrypoint=cli; cch=${(0x5a3c1 + request * 7919).toString(16)};`,
});

/** The assistant's scripted turn k: thinking, then a tool call (or, before a new user prompt, a short answer). */
function assistantTurn(k: number): object {
  const thinking = {
    type: "thinking",
    thinking: `Step ${k + 1}: I need to look at file ${k}.ts before changing anything.`,
    signature: `sig${k}`,
  };
  if ((k + 1) % USER_EVERY === 0) return { role: "assistant", content: [thinking, { type: "text", text: `Done with step ${k + 1}.` }] };
  const [name] = TOOLS[k % TOOLS.length];
  return {
    role: "assistant",
    content: [
      thinking,
      { type: "tool_use", id: `toolu_${k}`, name, input: { [Object.keys(TOOLS[k % TOOLS.length][2])[0]]: `src/file${k}.ts` } },
    ],
  };
}

/** What the client sends after turn k: the tool's result, or a new user prompt. */
function userTurn(k: number): object {
  if ((k + 1) % USER_EVERY === 0) return { role: "user", content: `Good. Now step ${k + 2}: fix the next failing test.` };
  const result = Array.from({ length: 6 }, (_, i) => `${i + 1}\tconst value${i} = compute(${k}, ${i}); // file${k}.ts`).join("\n");
  return { role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${k}`, content: result }] };
}

/** The session's requests, in order (each a complete Messages body without max_tokens). */
export function agentSession(shape: AgentSessionShape): object[] {
  const system = systemPrompt(shape.systemLines);
  const messages: object[] = [{ role: "user", content: "The tests in src/ fail after the last refactor. Find out why and fix them." }];
  const requests: object[] = [];
  for (let turn = 0; turn < shape.turns; turn++) {
    requests.push({
      model: "agent-session",
      system: [billing(turn), { type: "text", text: system }],
      tools: tools(),
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages: [...messages],
    });
    messages.push(assistantTurn(turn), userTurn(turn));
  }
  return requests;
}
