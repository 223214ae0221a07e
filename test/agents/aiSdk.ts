// The Vercel ai SDK end to end (issue 26): `ai` with @ai-sdk/openai (Chat Completions and the Responses API) and
// @ai-sdk/anthropic against `chat-template serve` on the demo models, one process and one endpoint for all three.
// On each API, generateText and streamText run a multi-step loop (stopWhen) with a `bash` tool whose execute really
// runs the command in a scratch folder: the demo model (native/endpoint/chat/agentDemo.ts) calls it with `ls`, and its next
// answer quotes the listing, in which a file this test put there must appear. A forced call (toolChoice `required`,
// and the tool named) gives exactly one well-formed call. Run by test/agents/ai-sdk.sh, which installs the pinned
// packages and cuts the network off.
// Usage: node --import tsx test/agents/aiSdk.ts TOOLS_DIR [API…]   (API: openai-chat, openai-responses, anthropic)
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startEndpoint } from "../helpers/endpoint";
import { describeCounts, requestCounts } from "./requests";
import { PROBE } from "./suite";

/** The file the round trip must find: `ls` ran in the scratch folder and the answer quotes its output. */
// as a user sets it: the Anthropic provider's default for a model it does not know (4096) fills --context's default
const MAX_OUTPUT_TOKENS = 1024;

// The parts of the ai SDK this test uses (the packages live in the tools cache, not in the project).
interface ToolCall {
  toolName: string;
  input: unknown;
  invalid?: boolean;
}
interface Step {
  toolCalls: ToolCall[];
  toolResults: { output: unknown }[];
  text: string;
  finishReason: string;
}
interface Ai {
  generateText(options: object): Promise<{ text: string; steps: Step[] }>;
  streamText(options: object): { textStream: AsyncIterable<string>; text: PromiseLike<string>; steps: PromiseLike<Step[]> };
  tool(definition: object): unknown;
  isStepCount(n: number): unknown;
}
type Provider = ((model: string) => unknown) & { chat(model: string): unknown; responses(model: string): unknown };
interface Zod {
  z: { object(shape: object): unknown; string(): unknown };
}

const APIS = ["openai-chat", "openai-responses", "anthropic"] as const;
type Api = (typeof APIS)[number];
const ROUTE: Record<Api, string> = {
  "openai-chat": "/v1/chat/completions",
  "openai-responses": "/v1/responses",
  anthropic: "/v1/messages",
};

async function load(tools: string) {
  const resolve = createRequire(join(tools, "package.json")).resolve;
  const get = <T>(name: string) => import(pathToFileURL(resolve(name)).href) as Promise<T>;
  const [ai, openai, anthropic, zod] = await Promise.all([
    get<Ai>("ai"),
    get<{ createOpenAI(o: object): Provider }>("@ai-sdk/openai"),
    get<{ createAnthropic(o: object): Provider }>("@ai-sdk/anthropic"),
    get<Zod>("zod"),
  ]);
  return { ai, openai, anthropic, z: zod.z };
}

interface Check {
  name: string;
  run(): Promise<string>;
}

async function main(): Promise<number> {
  const [tools, ...named] = process.argv.slice(2);
  if (!tools) throw new Error("usage: aiSdk.ts TOOLS_DIR [API…]");
  const apis = named.length ? named.map((a) => APIS.find((x) => x === a) ?? assert.fail(`no API ${a}: ${APIS.join(", ")}`)) : APIS;
  const { ai, openai, anthropic, z } = await load(tools);
  const workdir = mkdtempSync(join(tmpdir(), "cts-ai-sdk-"));
  writeFileSync(join(workdir, PROBE), "");
  const endpoint = await startEndpoint([], { viaCli: true });
  let failures = 0;
  try {
    const providers = {
      openai: openai.createOpenAI({ baseURL: `${endpoint.url}/v1`, apiKey: "dummy" }),
      anthropic: anthropic.createAnthropic({ baseURL: `${endpoint.url}/v1`, apiKey: "dummy" }),
    };
    const models: Record<Api, () => unknown> = {
      "openai-chat": () => providers.openai.chat("demo-random"),
      "openai-responses": () => providers.openai.responses("demo-random"),
      anthropic: () => providers.anthropic("demo-random"),
    };
    const ran: string[] = [];
    const bash = ai.tool({
      description: "Run a shell command in the working folder",
      inputSchema: z.object({ command: z.string() }),
      execute: ({ command }: { command: string }) => {
        ran.push(command);
        return execFileSync("bash", ["-c", command], { cwd: workdir, encoding: "utf8" });
      },
    });
    // no execute: a forced call is checked as the model wrote it, one well-formed call (the loop stops there)
    const record = ai.tool({ description: "Record a note", inputSchema: z.object({ note: z.string() }) });

    const roundTrip = (steps: Step[], text: string, commands: string[]) => {
      assert.deepEqual(commands, ["ls"], `the tool ran ${JSON.stringify(commands)}`);
      assert.ok(steps.length >= 2, `${steps.length} steps`);
      assert.ok(String(steps[0].toolResults[0]?.output).includes(PROBE), `the tool's output: ${JSON.stringify(steps[0].toolResults)}`);
      assert.ok(text.includes(PROBE), `the final text does not quote ${PROBE}: ${JSON.stringify(text)}`);
      return `${steps.length} steps, ${JSON.stringify(text.slice(0, 80))}`;
    };
    const oneCall = (steps: Step[]) => {
      const calls = steps[0].toolCalls;
      assert.equal(calls.length, 1, `${calls.length} calls: ${JSON.stringify(calls).slice(0, 400)}`);
      assert.equal(calls[0].toolName, "record");
      assert.ok(!calls[0].invalid, `an invalid call: ${JSON.stringify(calls[0])}`);
      assert.equal(typeof (calls[0].input as { note?: unknown }).note, "string", JSON.stringify(calls[0].input));
      return `one call, ${JSON.stringify(calls[0].input).slice(0, 60)}`;
    };
    const PROMPT = "Which files are here?";

    for (const api of apis) {
      const settings = () => ({ model: models[api](), maxOutputTokens: MAX_OUTPUT_TOKENS });
      const checks: Check[] = [
        {
          name: "generateText, tool round trip",
          run: async () => {
            ran.length = 0;
            const r = await ai.generateText({
              ...settings(),
              tools: { bash },
              stopWhen: ai.isStepCount(3),
              prompt: PROMPT,
            });
            return roundTrip(r.steps, r.text, [...ran]);
          },
        },
        {
          name: "streamText, tool round trip",
          run: async () => {
            ran.length = 0;
            const r = ai.streamText({
              ...settings(),
              tools: { bash },
              stopWhen: ai.isStepCount(3),
              prompt: PROMPT,
            });
            let streamed = "";
            for await (const delta of r.textStream) streamed += delta;
            assert.equal(streamed, await r.text);
            return roundTrip(await r.steps, streamed, [...ran]);
          },
        },
        {
          name: "generateText, toolChoice required",
          run: async () =>
            oneCall(
              (
                await ai.generateText({
                  ...settings(),
                  tools: { record },
                  toolChoice: "required",
                  prompt: "Note it.",
                })
              ).steps,
            ),
        },
        {
          name: "streamText, the tool named",
          run: async () => {
            const r = ai.streamText({
              ...settings(),
              tools: { record },
              toolChoice: { type: "tool", toolName: "record" },
              prompt: "Note it.",
            });
            for await (const _ of r.textStream);
            return oneCall(await r.steps);
          },
        },
      ];
      const before = await requestCounts(endpoint.url, ROUTE[api]);
      const started = Date.now();
      for (const check of checks) {
        const t = Date.now();
        let outcome: string;
        try {
          outcome = `ok: ${await check.run()}`;
        } catch (e) {
          failures++;
          outcome = `FAIL: ${e instanceof Error ? e.message : String(e)}`;
        }
        console.log(`[ai-sdk] ${api} ${check.name}: ${outcome} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
      }
      const after = await requestCounts(endpoint.url, ROUTE[api]);
      const requests = new Map([...after].map(([status, n]) => [status, n - (before.get(status) ?? 0)]));
      console.log(`[ai-sdk] ${api}: ${((Date.now() - started) / 1000).toFixed(1)} s, ${ROUTE[api]} ${describeCounts(requests)}`);
    }
  } finally {
    await endpoint.stop();
    rmSync(workdir, { recursive: true, force: true });
  }
  if (failures) {
    for (const line of endpoint.stderr.split("\n").filter((l) => / \/v1\//.test(l))) console.log(`[ai-sdk]   endpoint: ${line}`);
  }
  return failures ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`[ai-sdk] ${e instanceof Error ? e.stack : String(e)}`);
    process.exit(1);
  },
);
