// POST /chat/parse: llama.cpp's parser on given output, with the served template or the one in the request.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { postJson, startEndpoint, WEATHER_TOOL, type EndpointProcess } from "../../helpers/endpoint";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";

let endpoint: EndpointProcess;
before(async () => {
  endpoint = await startEndpoint();
});
after(() => endpoint.stop());

const messages = [{ role: "user", content: "Weather in Tokyo?" }];
const OUTPUT = '<think>\nhmm\n</think>\n\nSure.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Tokyo"}}\n</tool_call>';
const CHATML =
  "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";
const parse = (body: object) => postJson(`${endpoint.url}/chat/parse`, body);

describe("POST /chat/parse", { timeout: HANG_GUARD_MS }, () => {
  test("the served template (Qwen3's): reasoning, content and the tool call are lifted out", async () => {
    const r = await parse({ messages, tools: [WEATHER_TOOL], add_generation_prompt: true, text: OUTPUT });
    assert.equal(r.status, 200);
    assert.equal(r.json.reasoning_content, "hmm\n");
    assert.equal(r.json.content, "Sure.\n");
    assert.deepEqual(
      r.json.tool_calls.map((c: any) => [c.function.name, JSON.parse(c.function.arguments)]),
      [["get_weather", { city: "Tokyo" }]],
    );
    assert.equal(typeof r.json.format, "string");
  });

  test("chat_template: the request's template decides the format (plain ChatML has no tool calls or thinking)", async () => {
    const r = await parse({ messages, add_generation_prompt: true, chat_template: CHATML, text: OUTPUT });
    assert.equal(r.status, 200);
    assert.deepEqual([r.json.content, r.json.reasoning_content, r.json.tool_calls], [OUTPUT, "", []]);
  });

  test("partial: output cut off inside a call reads as far as it goes", async () => {
    const r = await parse({ messages, tools: [WEATHER_TOOL], partial: true, text: '<tool_call>\n{"name": "get_weather", "argu' });
    assert.equal(r.status, 200);
    assert.equal(r.json.tool_calls[0].function.name, "get_weather");
  });

  test("a template that does not parse, or a missing field, is a 400 that says so", async () => {
    const broken = await parse({ messages, chat_template: "{% for m in messages %", text: "x" });
    assert.equal(broken.status, 400);
    assert.match(broken.json.error.message, /chat template/);
    const missing = await parse({ messages });
    assert.equal(missing.status, 400);
    assert.equal(missing.json.error.message, "text: required field is missing");
  });
});
