// llama.cpp's chat layer through the addon: capabilities and renders against the corpus (what the real
// engine produced), the prompt llama-server builds, parsing output back, and tool calls under a grammar.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { describe, it } from "node:test";
import { ChatTemplate, parseChatOutput, renderTemplate } from "../../../native/engine/chat";
import { EngineError } from "../../../native/engine/errors";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import { corpusDir } from "../../helpers/corpus";
import { loadEngine, randomPair } from "../../helpers/native";

const templates = readdirSync(corpusDir("templates"))
  .filter((f) => f.endsWith(".jinja"))
  .sort();
const source = (f: string) => readFileSync(corpusDir("templates", f), "utf8");
const weather = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

describe("chat layer", () => {
  it("infers the capabilities llama.cpp's probe found for every corpus template", async () => {
    const expected = JSON.parse(readFileSync(corpusDir("expected", "llamacpp-caps.json"), "utf8")) as Record<
      string,
      Record<string, boolean>
    >;
    for (const f of templates) {
      const caps = await (await ChatTemplate.fromSource(source(f), { bos: "<|bos|>", eos: "<|eos|>" })).caps();
      assert.deepEqual(caps, expected[f.replace(/\.jinja$/, "")], f);
    }
  });

  it("renders every corpus template × scenario exactly as llama.cpp's engine did", async () => {
    const scenarios = JSON.parse(readFileSync(corpusDir("scenarios.json"), "utf8")) as Record<string, Record<string, unknown>>;
    // strftime_now reads the clock: those templates are compared with digits and month names masked
    const mask = (s: string) => s.replace(/\d+/g, "#").replace(/\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b/g, "M");
    let compared = 0;
    for (const f of templates) {
      const name = f.replace(/\.jinja$/, "");
      const dated = source(f).includes("strftime_now");
      for (const [scenario, context] of Object.entries(scenarios)) {
        const base = corpusDir("expected", "llamacpp", name, scenario);
        const vars = { ...context, bos_token: "<|bos|>", eos_token: "<|eos|>" };
        const got = await renderTemplate(source(f), vars).then(
          (out) => ({ out }),
          (e: Error) => ({ error: e.message }),
        );
        let want: { out: string } | { error: string };
        try {
          want = { out: readFileSync(base + ".out", "utf8") };
        } catch {
          want = {
            error: readFileSync(base + ".err", "utf8")
              .replace(/^AddonJinjaRenderer: failed to render template: /, "")
              .replace(/\n$/, ""),
          };
        }
        if ("out" in want && "out" in got && dated) assert.equal(mask(got.out), mask(want.out), `${name}/${scenario}`);
        else assert.deepEqual(got, want, `${name}/${scenario}`);
        compared++;
      }
    }
    assert.equal(compared, templates.length * Object.keys(scenarios).length);
  });

  it("builds llama-server's prompt with tools, and parses output back into reasoning, content and tool calls", async () => {
    const t = await ChatTemplate.fromSource(QWEN3_CHAT_TEMPLATE, { eos: "<|im_end|>" });
    const p = await t.apply({
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris?" },
      ],
      tools: [weather],
    });
    assert.match(p.prompt, /^<\|im_start\|>system\nBe brief\.\n\n# Tools\n[\s\S]*"name": "get_weather"[\s\S]*<\|im_start\|>assistant\n$/);
    const info = p.describe();
    assert.equal(info.grammarKind, "tool_calls");
    assert.equal(info.grammarLazy, true, "tool_choice auto: the grammar starts at the tool-call tag");
    assert.ok(info.grammarTriggers.some((g) => g.value.startsWith("<tool_call>")));
    assert.ok(info.preservedTokens.includes("<tool_call>"));
    const parsed = await parseChatOutput(
      '<think>\nLook it up.\n</think>\n\nChecking. <tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
      p,
    );
    assert.equal(parsed.reasoningContent, "Look it up.\n", "llama.cpp keeps the newline before </think>");
    assert.equal(parsed.content, "Checking. ");
    assert.deepEqual(
      parsed.toolCalls.map(({ name, arguments: a }) => [name, JSON.parse(a)]),
      [["get_weather", { city: "Paris" }]],
    );
    const partial = await parseChatOutput("<think>\nStill thin", p, { partial: true });
    assert.equal(partial.reasoningContent, "Still thin");
  });

  it("round-trips an assistant message: render it with the template, parse the rendered turn", async () => {
    const t = await ChatTemplate.fromSource(QWEN3_CHAT_TEMPLATE, { eos: "<|im_end|>" });
    const history = [{ role: "user", content: "Weather in Oslo and Rome?" }];
    const prompt = await t.apply({ messages: history, tools: [weather] });
    const message = {
      role: "assistant",
      reasoning_content: "Two cities, two calls.",
      content: "",
      tool_calls: ["Oslo", "Rome"].map((city, i) => ({
        id: `call_${i}`,
        type: "function",
        function: { name: "get_weather", arguments: JSON.stringify({ city }) },
      })),
    };
    // tool results after the call: Qwen3's template renders reasoning only for turns after the last user query
    const results = message.tool_calls.map((c) => ({ role: "tool", tool_call_id: c.id, content: "sunny" }));
    const full = await t.apply({ messages: [...history, message, ...results], tools: [weather] });
    const start = full.prompt.indexOf(prompt.prompt.slice(prompt.prompt.lastIndexOf("<|im_start|>assistant\n")));
    const turn = full.prompt.slice(start + "<|im_start|>assistant\n".length, full.prompt.indexOf("<|im_end|>", start));
    const parsed = await parseChatOutput(turn, prompt);
    assert.equal(parsed.reasoningContent, message.reasoning_content + "\n", "llama.cpp keeps the newline before </think>");
    assert.equal(parsed.content, "");
    assert.deepEqual(
      parsed.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)]),
      [
        ["get_weather", { city: "Oslo" }],
        ["get_weather", { city: "Rome" }],
      ],
    );
  });

  it("forces tool calls with tool_choice required or named, under llama.cpp's grammar", async () => {
    // a random target biased to open calls: the grammar allows free text before "<tool_call>\n", which an
    // unbiased random model may never end
    const engine = await loadEngine({ ...randomPair(3, { toolCalls: true }, "toolcalls") });
    const t = await engine.chatTemplate();
    const search = {
      type: "function",
      function: { name: "search", parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } },
    };
    for (const [toolChoice, name] of [
      ["required", undefined],
      [{ type: "function", function: { name: "search" } }, "search"],
    ] as const) {
      const p = await t.apply({
        messages: [{ role: "user", content: "Find something." }],
        tools: [weather, search],
        tool_choice: toolChoice,
      });
      assert.equal(p.describe().grammarLazy, false, "required: constrained from the first token");
      for (const seed of [1, 2]) {
        const r = await engine.generate(await engine.tokenize(p.prompt), { maxTokens: 200, temperature: 0.7, seed, chat: p });
        assert.match(r.text, /^<tool_call>\n\s*\{"name":\s*"(get_weather|search)",\s*"arguments":/, "the grammar shapes the call");
        const parsed = await parseChatOutput(r.text, p, { partial: r.stopReason === "length" });
        assert.ok(parsed.toolCalls.length >= 1, JSON.stringify(r.text));
        if (name)
          assert.ok(
            parsed.toolCalls.every((c) => c.name === name),
            JSON.stringify(parsed.toolCalls),
          );
      }
    }
  });

  it("passes enable_thinking and response_format through, and rejects bad requests with template or argument errors", async () => {
    const t = await ChatTemplate.fromSource(QWEN3_CHAT_TEMPLATE, { eos: "<|im_end|>" });
    const off = await t.apply({ messages: [{ role: "user", content: "x" }], chat_template_kwargs: { enable_thinking: false } });
    assert.ok(off.prompt.endsWith("<|im_start|>assistant\n<think>\n\n</think>\n\n"));
    const json = await t.apply({
      messages: [{ role: "user", content: "x" }],
      response_format: { type: "json_schema", json_schema: { schema: { type: "object" } } },
    });
    assert.equal(json.describe().grammarKind, "output_format");
    assert.match(json.describe().grammar, /root ::=/);
    const bad = async (req: object, re: RegExp, code = "invalid_argument") => {
      const e = await t.apply(req as never).catch((x) => x);
      assert.ok(e instanceof EngineError, String(e));
      assert.equal(e.code, code);
      assert.match(e.message, re);
    };
    await bad({}, /'messages' is required/);
    await bad({ messages: "hi" }, /'messages' must be an array/);
    await bad({ messages: [{ role: "user" }] }, /must contain 'content'/);
    await bad(
      { messages: [{ role: "user", content: "x" }], tools: [weather], tool_choice: { type: "function", function: { name: "nope" } } },
      /names function "nope", which is not in tools/,
    );
    await bad({ messages: [{ role: "user", content: "x" }], tool_choice: "sometimes" }, /tool_choice must be/);
    await bad(
      { messages: [{ role: "user", content: "x" }], tools: [weather], grammar: 'root ::= "x"' },
      /custom grammar together with tools/,
    );
    // a field of the wrong type names the field (common_json's own error names neither it nor the type)
    const x = [{ role: "user", content: "x" }];
    await bad({ messages: [{ role: 3, content: "x" }] }, /^'messages\[0\]\.role' must be a string$/);
    await bad({ messages: [{ role: "user", content: ["x"] }] }, /^messages\[0\]\.content\[0\]: only text parts are supported$/);
    await bad({ messages: x, parallel_tool_calls: "yes" }, /^'parallel_tool_calls' must be a boolean$/);
    await bad({ messages: x, add_generation_prompt: 1 }, /^'add_generation_prompt' must be a boolean$/);
    await bad({ messages: x, reasoning_format: 3 }, /^'reasoning_format' must be a string$/);
    await bad(
      { messages: x, reasoning_format: "bogus" },
      /^reasoning_format must be "none", "auto", "deepseek" or "deepseek-legacy", got "bogus"$/,
    );
    await bad(
      { messages: x, tools: [weather], tool_choice: { type: "function", function: { name: 3 } } },
      /^'tool_choice\.function\.name' must be a string$/,
    );
    await bad({ messages: x, response_format: { type: 3 } }, /^'response_format\.type' must be a string$/);
    // null means the default, as in llama-server
    assert.ok(
      (
        await t.apply({ messages: x, parallel_tool_calls: null, add_generation_prompt: null, reasoning_format: null } as never)
      ).prompt.endsWith("<|im_start|>assistant\n"),
    );
    // a chat prompt is the native side's own: anything else is refused before it could reach the parser
    await assert.rejects(
      parseChatOutput("y", { prompt: "x", describe: () => ({}) } as never),
      /^TypeError: 'chatPrompt' must be a chat prompt from ChatTemplates\.apply\(\)$/,
    );
    const failing = await ChatTemplate.fromSource("{{ raise_exception('no system role') }}");
    const e = await failing.apply({ messages: [{ role: "user", content: "x" }] }).catch((x) => x);
    assert.equal(e.code, "template_error");
    assert.match(e.message, /no system role/);
  });

  it("refuses a template that does not parse with llama.cpp's own message, and its position where it gives one", async () => {
    const refusal = async (p: Promise<unknown>) => {
      const e = await p.then(
        () => null,
        (x) => x,
      );
      assert.ok(e instanceof EngineError, String(e));
      assert.equal(e.code, "template_error");
      return e.message;
    };
    assert.equal(
      await refusal(ChatTemplate.fromSource("{{ x y }}")),
      "chat template does not parse: parser: Parser Error: Expected }} (Got y)\n...{{ x y }}...\n        ^",
    );
    assert.equal(await refusal(ChatTemplate.fromSource("{% endfor %}")), "chat template does not parse: Unknown statement: endfor");
    // a GGUF's own template, and text given in its place
    const engine = await loadEngine({ ...randomPair(1, { chatTemplate: "Hi {# never closed" }, "brokenTemplate") });
    assert.equal(
      await refusal(engine.chatTemplate()),
      "chat template does not parse: lexer: missing end of comment tag\n...Hi {# never closed...\n                   ^",
    );
    assert.match(
      await refusal(engine.chatTemplate("{{ x y }}")),
      /^chat template does not parse: parser: Parser Error: Expected \}\} \(Got y\)/,
    );
  });

  it("parses a continued assistant message (a prefill) as what the model wrote after it, as llama-server streams it", async () => {
    const t = await ChatTemplate.fromSource(QWEN3_CHAT_TEMPLATE, { eos: "<|im_end|>" });
    const user = { role: "user", content: "Hi" };
    for (const request of [
      { messages: [user, { role: "assistant", content: "Sure, " }] },
      { messages: [user, { role: "assistant", content: "Sure, " }], continue_final_message: true, add_generation_prompt: false },
    ]) {
      const p = await t.apply(request);
      assert.ok(
        p.prompt.endsWith("<|im_start|>assistant\n<think>\n\n</think>\n\nSure, ") && p.describe().isContinuation,
        JSON.stringify(p.prompt),
      );
      assert.deepEqual(await parseChatOutput("here you go.", p), { content: "here you go.", reasoningContent: "", toolCalls: [] });
      assert.equal((await parseChatOutput("here y", p, { partial: true })).content, "here y");
      assert.equal((await parseChatOutput("", p)).content, "", "a model that stops at once wrote nothing");
    }
    const thinking = await t.apply({ messages: [user, { role: "assistant", content: "", reasoning_content: "Let me" }] });
    assert.ok(thinking.prompt.endsWith("<|im_start|>assistant\n<think>\nLet me"), JSON.stringify(thinking.prompt));
    assert.deepEqual(await parseChatOutput(" see.\n</think>\n\nHello!", thinking), {
      content: "Hello!",
      reasoningContent: " see.\n",
      toolCalls: [],
    });
    assert.equal((await parseChatOutput(" se", thinking, { partial: true })).reasoningContent, " se");
    // llama-server refuses to continue a message with calls (the template would drop them)
    const call = { id: "c1", type: "function", function: { name: "get_weather", arguments: '{"city": "Oslo"}' } };
    const e = await t.apply({ messages: [user, { role: "assistant", content: "", tool_calls: [call] }], tools: [weather] }).catch((x) => x);
    assert.deepEqual([e.code, e.message], ["invalid_argument", "cannot continue an assistant message that contains tool calls"]);
  });
});
