// The llama-server engine: the context llama.cpp's chat layer builds from a scenario, for this template's
// caps, and what it appends to the render.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import {
  BUILTIN_SCENARIOS,
  dialectsOf,
  engineFindings,
  renderRequest,
  scenarioContext,
  SERVER_DEFAULTS,
  serverStartup,
} from "../../../server/src/analysis";
import { dialectFor, llamaServer_0_5_0 } from "../../../server/src/dialects";
import { TemplateDocument } from "../../../server/src/document";
import { parseJson, type PyDict, render, type RenderResult } from "../../../server/src/interpreter";
import { validate } from "../../../server/src/services";
import { corpusDir } from "../../helpers/corpus";

const NOW = { year: 2026, month: 1, day: 15, hour: 9, minute: 30, second: 0, microsecond: 0 };

function server(template: string, context: object): RenderResult {
  return renderRequest(new TemplateDocument(template), parseJson(JSON.stringify(context)) as PyDict, {
    dialect: llamaServer_0_5_0,
    now: NOW,
  });
}

function output(template: string, context: object): string {
  const r = server(template, context);
  assert.equal(r.error, null, r.error?.message);
  return r.output;
}

const user = (content: unknown) => ({ role: "user", content });
const LOOP = "{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}";
/** Reads reasoning and switches a think block on enable_thinking: llama.cpp's autoparser finds the markers. */
const THINKING =
  "{% for m in messages %}<{{ m.role }}>{% if m.reasoning_content %}<think>{{ m.reasoning_content }}</think>{% endif %}{{ m.content }}{% endfor %}" +
  "{% if add_generation_prompt %}<assistant>{% if enable_thinking is defined and not enable_thinking %}<think></think>{% endif %}{% endif %}";

describe("llama-server engine (llama.cpp's chat layer)", () => {
  it("a template whose capability probe runs out of the checks' limits: that limit error at its node, no render", () => {
    const template = "{{ 'x' }}{% for i in range(10000000) %}{% endfor %}";
    const r = server(template, { messages: [user("hi")] });
    assert.equal(r.error?.code, "limit/steps");
    assert.match(r.error!.message, /^llama-server's capability probe \(its typed_content render\) ran out of the checks' limits/);
    assert.equal(r.error!.start, template.indexOf("range"), "at the loop's range");
  });

  it("passes enable_thinking=true to a template that supports thinking, unless the scenario says otherwise", () => {
    const t = THINKING + "|{{ enable_thinking }}";
    assert.equal(output(t, { messages: [user("hi")], add_generation_prompt: true }), "<user>hi<assistant>|True");
    assert.equal(
      output(t, { messages: [user("hi")], add_generation_prompt: true, enable_thinking: false }),
      "<user>hi<assistant><think></think>|False",
    );
    // the plain llama.cpp engine gets the context as given
    const plain = render(
      new TemplateDocument(t),
      { messages: [user("hi")], add_generation_prompt: true },
      { dialect: dialectFor("llamacpp")! },
    );
    assert.equal(plain.output, "<user>hi<assistant>|");
  });

  it("passes enable_thinking=false to a template without reasoning markers, as llama-server does", () => {
    assert.equal(output(LOOP + "|{{ enable_thinking }}", { messages: [user("hi")] }), "<user>hi|False");
  });

  it("drops add_generation_prompt when false and turns null content into an empty string", () => {
    const t = "{{ add_generation_prompt is defined }}{% for m in messages %}[{{ m.content is none }}:{{ m.content }}]{% endfor %}";
    const scenario = BUILTIN_SCENARIOS.find((s) => s.name === "tool-call-null-content")!;
    const r = renderRequest(new TemplateDocument(t), scenario.data, { dialect: llamaServer_0_5_0, now: NOW });
    assert.match(r.output, /^True\[False:What's the weather in Tokyo\?\]\[False:\]/);
    assert.equal(output(t, { messages: [user("x")], add_generation_prompt: false }), "False[False:x]");
  });

  it("joins typed content for a template that only takes strings, and keeps the parts for one that reads them", () => {
    const parts = [
      { type: "text", text: "a" },
      { type: "text", text: "b" },
    ];
    assert.equal(output(LOOP, { messages: [user(parts)] }), "<user>a\nb");
    const typed = "{% for m in messages %}{% for p in m.content %}({{ p.text }}){% endfor %}{% endfor %}";
    assert.equal(output(typed, { messages: [user(parts)] }), "(a)(b)");
    assert.equal(output(typed, { messages: [user("plain")] }), "(plain)");
  });

  it("hands tool call arguments as JSON text, or as objects to a template that reads their fields", () => {
    const call = { id: "c1", type: "function", function: { name: "f", arguments: { city: "Tokyo" } } };
    const messages = [
      user("q"),
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: "c1", content: "r" },
    ];
    const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];
    const asText =
      "{% for m in messages %}{% for c in m.tool_calls or [] %}{{ c.function.arguments }}{% endfor %}{% endfor %}{{ tools[0].function.name }}";
    assert.equal(output(asText, { messages, tools }), '{"city":"Tokyo"}f');
    // GLM 4.7 reads the arguments' items: its caps say object arguments, so string arguments arrive parsed
    const glm = new TemplateDocument(readFileSync(corpusDir("templates", "GLM-4.7-Flash.jinja"), "utf8"));
    const stringArgs = BUILTIN_SCENARIOS.find((s) => s.name === "string-arguments")!;
    assert.notEqual(render(glm, scenarioContext(stringArgs), { dialect: dialectFor("llamacpp")! }).error, null);
    const r = renderRequest(glm, scenarioContext(stringArgs), { dialect: llamaServer_0_5_0, now: NOW });
    assert.equal(r.error, null);
    assert.match(r.output, /<arg_key>query<\/arg_key><arg_value>llama<\/arg_value>/);
  });

  it("merges the system prompt into the next message for a template that ignores system messages", () => {
    const t = "{% for m in messages %}{% if m.role != 'system' %}<{{ m.role }}>{{ m.content }}{% endif %}{% endfor %}";
    assert.equal(output(t, { messages: [{ role: "system", content: "S" }, user("U")] }), "<user>S\nU");
  });

  it("continues a trailing assistant message: the generation prompt, then its text", () => {
    const t = LOOP + "{% if add_generation_prompt %}<assistant>{% endif %}";
    assert.equal(output(t, { messages: [user("hi"), { role: "assistant", content: "Hel" }] }), "<user>hi<assistant>Hel");
    // with reasoning markers, a closed empty think block before the content
    assert.equal(
      output(THINKING, { messages: [user("hi"), { role: "assistant", content: "Hel" }] }),
      "<user>hi<assistant><think></think>Hel",
    );
  });

  it("refuses what llama-server refuses, in its words", () => {
    const r = server(LOOP, { messages: [{ role: "user" }] });
    assert.equal(r.error?.message, "llama-server refuses the request: messages[0]: all non-assistant messages must contain 'content'");
    assert.equal(
      server(LOOP, { messages: [user("x")], enable_thinking: "yes" }).error?.message,
      "llama-server refuses the request: enable_thinking must be a boolean",
    );
  });

  it("passes the scenario's other keys as chat_template_kwargs and the date variables", () => {
    assert.equal(
      output("{{ custom }} {{ date_string }} {{ bos_token }}", { messages: [], custom: 7, bos_token: "<s>" }),
      "7 15 Jan 2026 <s>",
    );
  });

  it("a llama-server render that differs says what the chat layer changed in the conversation", () => {
    const doc = new TemplateDocument(THINKING);
    const found = engineFindings(doc, dialectsOf(["jinja2", "llama-server"]), BUILTIN_SCENARIOS, { nullToolsProbe: false });
    const differs = found.filter((f) => f.code === "llama-server/renders-differently");
    assert.ok(differs.length > 0);
    assert.match(
      differs[0].message,
      /; llama\.cpp's chat layer renders this conversation with enable_thinking=true \(llama-server's default for a template that supports thinking\)/,
    );
  });

  it("applies llama-server's startup default preserve_reasoning=true, which the chat layer turns into preserve_thinking=true", () => {
    const t = "{{ preserve_thinking is defined }}|{{ preserve_reasoning is defined }}|{{ preserve_thinking }}|{{ clear_thinking }}";
    assert.equal(output(t, { messages: [user("hi")] }), "True|True|True|False");
    // a request's kwarg overrides the server's
    assert.equal(output(t, { messages: [user("hi")], preserve_reasoning: false }), "True|True|False|True");
  });

  it("renders for the flags the user's llama-server was started with", () => {
    const t = LOOP + "|{{ preserve_thinking }}|{{ enable_thinking }}|{{ lang }}";
    const started =
      (...serverArgs: string[]) =>
      (context: object) => {
        const r = renderRequest(new TemplateDocument(t), parseJson(JSON.stringify(context)) as PyDict, {
          dialect: { ...llamaServer_0_5_0, serverArgs },
          now: NOW,
        });
        assert.equal(r.error, null, r.error?.message);
        return r.output;
      };
    const hi = { messages: [user("hi")] };
    assert.equal(started("--no-reasoning-preserve", "--chat-template-kwargs", '{"lang":"fr"}')(hi), "<user>hi|False|False|fr");
    assert.equal(
      started('--chat-template-kwargs={"lang":"fr"}')({ ...hi, lang: "de" }),
      "<user>hi|True|False|de",
      "the request's kwarg wins",
    );
    assert.equal(started("--reasoning", "on")(hi), "<user>hi|True|True|");
    // --no-prefill-assistant: a trailing assistant message is a whole message, not a prefill
    const ending = { messages: [user("hi"), { role: "assistant", content: "yes" }] };
    assert.equal(started("--no-prefill-assistant")(ending), "<user>hi<assistant>yes|True|False|");
  });

  it("refuses llama-server flags that do not reach the prompt or do not parse, naming the flag", () => {
    assert.throws(() => serverStartup(["--ctx-size", "4"]), /--ctx-size: not a llama-server flag that changes the prompt/);
    assert.throws(() => serverStartup(["--chat-template-kwargs", "[1]"]), /--chat-template-kwargs: must be a JSON object/);
    assert.throws(() => serverStartup(["--reasoning", "maybe"]), /--reasoning: unknown value 'maybe'/);
    assert.throws(() => serverStartup(["--reasoning-effort"]), /--reasoning-effort needs a value/);
    assert.deepEqual(serverStartup([]), SERVER_DEFAULTS);
  });

  it("checks a template for the user's llama-server, and says so at the top when its flags cannot be read", () => {
    const doc = new TemplateDocument("{% if preserve_thinking is defined and not preserve_thinking %}dropped{% endif %}");
    const differs = (llamaServerArgs: string[]) =>
      validate(doc, { engines: ["jinja2", "llama-server"], llamaServerArgs }).some((d) => d.message.includes("'dropped' in llama-server"));
    assert.equal(differs([]), false);
    assert.equal(differs(["--no-reasoning-preserve"]), true);
    const [bad] = validate(doc, { engines: ["llama-server"], llamaServerArgs: ["--port", "1"] });
    assert.deepEqual([bad.code, bad.severity, bad.start], ["settings/llama-server-args", "error", 0]);
    assert.match(bad.message, /--port: not a llama-server flag that changes the prompt/);
  });

  it("reads 1.0 in a scenario as the int 1, as a client's JSON sends it", () => {
    const context = parseJson('{"messages": [], "x": 1.0}') as PyDict;
    const r = renderRequest(new TemplateDocument("{{ x }}|{{ x is float }}"), context, { dialect: llamaServer_0_5_0, now: NOW });
    assert.equal(r.output, "1|False");
  });

  it("Solar Open defaults add_generation_prompt to true when it is missing: llama-server, which drops it when false, gets the prompt", () => {
    const solar = readFileSync(corpusDir("templates", "upstage-Solar-Open-100B.jinja"), "utf8");
    const context = { messages: [user("Hi")], add_generation_prompt: false };
    assert.match(output(solar, context), /<\|begin\|>assistant$/);
    const reference = render(new TemplateDocument(solar), context, { dialect: dialectFor("jinja2")!, now: NOW });
    assert.match(reference.output, /<\|end\|>$/);
  });
});
