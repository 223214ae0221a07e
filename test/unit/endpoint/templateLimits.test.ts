// A template that would crash or hang llama.cpp's Jinja engine never reaches it: at startup and on a
// reload of --chat-template-file it is refused with the limit and its line and column (the last good
// template stays in use), and a request that makes a template run away is a 400 in each API's envelope.
// Without the template guard the endpoint segfaults or stops answering.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test, type TestOptions } from "node:test";
import { postJson, startEndpoint, storageDir, type EndpointProcess } from "../../helpers/endpoint";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";

const RECURSIVE = "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}";
const RANGE = "{% for i in range(10000000000) %}{{ i }}{% endfor %}";
/** Serves every conversation except one whose last message is "loop". */
const ON_REQUEST =
  "{% for m in messages %}{% if m.content == 'loop' %}{% for i in range(10000000000) %}{% endfor %}{% endif %}" +
  "<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";
const STEP_LIMIT = /^chat template exceeds the step limit at line 1, column 64: step budget of \d+ exceeded \(rendering the request\); /;

const bounded: TestOptions = { timeout: HANG_GUARD_MS };
const loop = [{ role: "user", content: "loop" }];
const hi = [{ role: "user", content: "hi" }];

describe("a template file that runs away", () => {
  let endpoint: EndpointProcess;
  const file = join(storageDir, "runaway.jinja");
  before(async () => {
    writeFileSync(file, RECURSIVE);
    endpoint = await startEndpoint(["--chat-template-file", file]);
  });
  after(() => endpoint.stop());

  test("at startup: refused with the limit and where; the endpoint answers, and serves the file once it is fixed", bounded, async () => {
    const refused = endpoint.events.find((e) => e.event === "template");
    assert.equal(refused?.status, "error");
    assert.match(
      refused?.message as string,
      /^chat template exceeds the recursion limit at line 1, column 20: macro calls nested deeper than 200 /,
    );
    const health = (await (await fetch(`${endpoint.url}/health`)).json()) as any;
    assert.match(health.template.error, /recursion limit at line 1, column 20/);
    const r = await postJson(`${endpoint.url}/v1/chat/completions`, { model: "m", messages: hi, max_tokens: 1 });
    assert.equal(r.status, 503);
    assert.match(r.json.error.message, /cannot be used: chat template exceeds the recursion limit at line 1, column 20/);

    const from = endpoint.events.length;
    writeFileSync(file, ON_REQUEST);
    await endpoint.waitFor((e) => endpoint.events.indexOf(e) >= from && e.event === "template" && e.status === "loaded");
    assert.equal((await postJson(`${endpoint.url}/v1/chat/completions`, { model: "m", messages: hi, max_tokens: 1 })).status, 200);
  });

  test("on a reload: refused with the reason, and the last good template stays in use", bounded, async () => {
    for (const [text, reason] of [
      [RANGE, /^chat template exceeds the step limit at line 1, column 13: /],
      [RECURSIVE, /recursion limit at line 1, column 20/],
    ] as const) {
      const from = endpoint.events.length;
      writeFileSync(file, text);
      const refused = await endpoint.waitFor(
        (e) => endpoint.events.indexOf(e) >= from && e.event === "template" && e.status === "error" && e.message !== "the file is empty",
      );
      assert.match(refused.message as string, reason);
      const r = await postJson(`${endpoint.url}/v1/chat/completions`, { model: "m", messages: hi, max_tokens: 1 });
      assert.equal(r.status, 200, "still served by the last good template");
    }
  });

  test(
    "a request the template runs away on: a 400 in each API's envelope, streamed or not; the next request is served",
    bounded,
    async () => {
      const from = endpoint.events.length;
      writeFileSync(file, ON_REQUEST + " ");
      await endpoint.waitFor((e) => endpoint.events.indexOf(e) >= from && e.event === "template" && e.status === "loaded");
      for (const stream of [false, true]) {
        const r = await postJson(`${endpoint.url}/v1/chat/completions`, { model: "m", messages: loop, max_tokens: 1, stream });
        assert.equal(r.status, 400);
        assert.equal(r.json.error.type, "invalid_request_error");
        assert.match(r.json.error.message, STEP_LIMIT);
      }
      for (const [route, stream] of [
        ["/v1/messages", false],
        ["/v1/messages", true],
        ["/v1/messages/count_tokens", false],
      ] as const) {
        const r = await postJson(`${endpoint.url}${route}`, { model: "m", max_tokens: 1, messages: loop, stream });
        assert.equal(r.status, 400, route);
        assert.deepEqual([r.json.type, r.json.error.type], ["error", "invalid_request_error"]);
        assert.match(r.json.error.message, STEP_LIMIT);
      }
      assert.equal((await postJson(`${endpoint.url}/v1/messages`, { model: "m", max_tokens: 1, messages: hi })).status, 200);
    },
  );
});
