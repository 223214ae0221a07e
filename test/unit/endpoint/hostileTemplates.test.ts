// Every hostile template of issue 17's categories (escapes, value bombs, nesting, size, llama.cpp's crashers,
// guard bypasses) through the endpoint's ways in: POST /chat/parse's `chat_template`, a served
// --chat-template-file (refused at reload, or on the chat request that sets it off) and a file the endpoint
// starts on. Each is answered with a JSON error (an escape may also render, harmlessly) and the endpoint goes
// on serving; without the template guard's refusals it dies of SIGSEGV or SIGFPE, or never answers.
import assert from "node:assert/strict";
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test, type TestContext, type TestOptions } from "node:test";
import { postJson, startEndpoint, storageDir, type EndpointProcess } from "../../helpers/endpoint";
import { HOSTILE_TEMPLATES, peerEscapes, type HostileTemplate } from "../../helpers/hostileTemplates";

const CHATML =
  "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";
const ALL = [...HOSTILE_TEMPLATES, ...peerEscapes()];
// each template is checked to its end (a value bomb: until the guard's process runs out of memory): bounded, not timed
const bounded: TestOptions = { timeout: 30 * 60_000 };

const messages = (h: HostileTemplate) => [{ role: "user", content: h.trigger ?? "hi" }];
/**
 * What each category may be answered with: an escape renders to nothing it reached, and so does a value bomb
 * built of a construct llama.cpp's engine lacks (`limitIn` leaves llamacpp out: `'%9999999999s'|format` is not
 * a width there), and so may a large template whose render stays within the limits (a served file is not bound
 * by the request body limit); the rest never reach llama.cpp.
 */
const harmless = (h: HostileTemplate) =>
  h.category === "escape" || h.category === "size" || (h.limitIn !== undefined && !h.limitIn.includes("llamacpp"));
const allowed = (h: HostileTemplate, refusals: number[]) => (harmless(h) ? [200, ...refusals] : refusals);

function tally(t: TestContext, seen: Map<string, number>): void {
  t.diagnostic([...seen].map(([k, n]) => `${k}: ${n}`).join(", "));
}

async function stillServes(endpoint: EndpointProcess, what: string): Promise<void> {
  assert.equal(endpoint.child.exitCode, null, `the endpoint exited after ${what}`);
  const r = await postJson(`${endpoint.url}/chat/parse`, {
    messages: [{ role: "user", content: "hi" }],
    chat_template: CHATML,
    text: "hello",
  });
  assert.equal(r.status, 200, `after ${what}: ${JSON.stringify(r.json)}`);
}

describe("hostile templates through POST /chat/parse", () => {
  let endpoint: EndpointProcess;
  before(async () => {
    endpoint = await startEndpoint();
  });
  after(() => endpoint.stop());

  test("each is a JSON error (a 413 for a body past the limit), and the next request is served", bounded, async (t) => {
    const seen = new Map<string, number>();
    for (const h of ALL) {
      const what = `${h.category} "${h.name}"`;
      const r = await postJson(`${endpoint.url}/chat/parse`, { messages: messages(h), chat_template: h.template, text: "x" });
      assert.ok(allowed(h, [400, 413]).includes(r.status), `${what}: ${r.status} ${JSON.stringify(r.json)}`);
      if (r.status !== 200) assert.equal(typeof r.json.error.message, "string", what);
      seen.set(`${h.category} ${r.status}`, (seen.get(`${h.category} ${r.status}`) ?? 0) + 1);
      await stillServes(endpoint, what);
    }
    tally(t, seen);
  });
});

describe("hostile templates served from --chat-template-file", () => {
  let endpoint: EndpointProcess;
  const file = join(storageDir, "hostile.jinja");
  before(async () => {
    writeFileSync(file, CHATML);
    endpoint = await startEndpoint(["--chat-template-file", file]);
  });
  after(() => endpoint.stop());

  /** Saves as editors do (a new file renamed over the old), then waits for the reload's verdict. */
  async function serve(text: string) {
    const from = endpoint.events.length;
    writeFileSync(`${file}.tmp`, text);
    renameSync(`${file}.tmp`, file);
    return endpoint.waitFor((e) => endpoint.events.indexOf(e) >= from && e.event === "template" && e.message !== "the file is empty");
  }

  test(
    "each is refused at reload (the last good template goes on serving) or on the request that sets it off (a 400)",
    bounded,
    async (t) => {
      const seen = new Map<string, number>();
      const hi = [{ role: "user", content: "hi" }];
      for (const h of ALL) {
        const what = `${h.category} "${h.name}"`;
        const loaded = await serve(h.template);
        const r = await postJson(`${endpoint.url}/v1/chat/completions`, { model: "m", messages: messages(h), max_tokens: 1 });
        if (loaded.status === "error") {
          assert.equal(typeof loaded.message, "string", what);
          assert.equal(r.status, 200, `${what}: served by the last good template: ${JSON.stringify(r.json)}`);
        } else {
          assert.ok(allowed(h, [400]).includes(r.status), `${what} (loaded): ${r.status} ${JSON.stringify(r.json)}`);
          if (r.status === 400) assert.equal(typeof r.json.error.message, "string", what);
          else {
            // what an escape rendered: nothing that a Python object or a shell command would print
            const prompt = (await postJson(`${endpoint.url}/apply-template`, { messages: messages(h) })).json.prompt as string;
            assert.doesNotMatch(prompt, /uid=\d|<class '|<module '|PWNED-RCE\n/, what);
          }
        }
        const outcome = loaded.status === "error" ? "refused at reload" : `loaded, then ${r.status}`;
        seen.set(`${h.category} ${outcome}`, (seen.get(`${h.category} ${outcome}`) ?? 0) + 1);
        await stillServes(endpoint, what);
        // back to a good template: the next refusal is an event of its own even where its message is the same
        assert.equal((await serve(CHATML)).status, "loaded");
      }
      assert.equal((await postJson(`${endpoint.url}/v1/chat/completions`, { model: "m", messages: hi, max_tokens: 1 })).status, 200);
      tally(t, seen);
    },
  );
});

describe("an endpoint started on a hostile template file", () => {
  let endpoint: EndpointProcess;
  before(async () => {
    const file = join(storageDir, "crasher.jinja");
    writeFileSync(file, "{{ 4 is divisibleby(0) }}");
    endpoint = await startEndpoint(["--chat-template-file", file]);
  });
  after(() => endpoint.stop());

  test("chats are a 503 that names the refusal, and the rest of the endpoint answers", bounded, async () => {
    const r = await postJson(`${endpoint.url}/v1/chat/completions`, {
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 1,
    });
    assert.equal(r.status, 503);
    assert.match(
      r.json.error.message,
      /cannot be used: chat template refused at line 1, column 4: divisibleby\(0\) crashes llama\.cpp \(SIGFPE\)/,
    );
    await stillServes(endpoint, "the refusal");
  });
});
