// --chat-template-file is served as soon as it is saved; a broken save keeps the last good template.
import assert from "node:assert/strict";
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test, type TestOptions } from "node:test";
import { postJson, startEndpoint, storageDir, type EndpointProcess } from "../../helpers/endpoint";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";

const file = join(storageDir, "chat_template.jinja");
const template = (marker: string) =>
  `{%- for m in messages %}<|im_start|>{{ m.role }}\n${marker}{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}`;

let endpoint: EndpointProcess;
// reloads are waited for, not timed: a bound so that a regression fails instead of hanging the run
const bounded: TestOptions = { timeout: HANG_GUARD_MS };

/** Runs the change, then waits for the first template event after it with that status (a save can pass through an empty file). */
async function afterChange(change: () => void, status: "loaded" | "error") {
  const from = endpoint.events.length;
  change();
  return endpoint.waitFor(
    (e) => endpoint.events.indexOf(e) >= from && e.event === "template" && e.status === status && e.message !== "the file is empty",
  );
}

/** The tokens of what `template(marker)` renders for the count_tokens request below. */
const expected = async (marker: string) =>
  (
    await postJson(`${endpoint.url}/v1/completions`, {
      model: "m",
      prompt: `<|im_start|>user\n${marker}hi<|im_end|>\n<|im_start|>assistant\n`,
      max_tokens: 1,
    })
  ).json.usage.prompt_tokens as number;
const countTokens = async () =>
  (await postJson(`${endpoint.url}/v1/messages/count_tokens`, { model: "m", messages: [{ role: "user", content: "hi" }] })).json
    .input_tokens as number;
const health = async () => ((await (await fetch(`${endpoint.url}/health`)).json()) as any).template;

before(async () => {
  writeFileSync(file, template("A"));
  endpoint = await startEndpoint(["--chat-template-file", file]);
  assert.equal(endpoint.events.find((e) => e.event === "template")?.status, "loaded");
});
after(() => endpoint.stop());

test("the file's template is served, not the GGUF's", bounded, async () => {
  const { path, source, error, loads } = await health();
  assert.deepEqual({ path, source, error, loads }, { path: file, source: "file", error: null, loads: 1 });
  assert.equal(await countTokens(), await expected("A"));
});

test("a save is picked up: the next request renders the new text", bounded, async () => {
  assert.deepEqual(await afterChange(() => writeFileSync(file, template("LONGER MARKER ")), "loaded"), {
    event: "template",
    status: "loaded",
    path: file,
  });
  assert.equal(await countTokens(), await expected("LONGER MARKER "));
  assert.equal((await health()).loads, 2);
});

test("a broken save is reported and the last good template stays in use; fixing it recovers", bounded, async () => {
  const refused = await afterChange(() => writeFileSync(file, "{% for m in messages %}{{ m.content "), "error");
  assert.match(refused.message as string, /parse|template/i);
  assert.match((await health()).error, /parse|template/i);
  assert.equal(await countTokens(), await expected("LONGER MARKER "));

  // an editor's atomic save: a new file renamed over the old one
  await afterChange(() => {
    writeFileSync(file + ".tmp", template("B"));
    renameSync(file + ".tmp", file);
  }, "loaded");
  assert.equal((await health()).error, null);
  assert.equal(await countTokens(), await expected("B"));
});

test("until the file has loaded once, chat requests get its error; the first good save serves it", bounded, async () => {
  const broken = join(storageDir, "broken.jinja");
  writeFileSync(broken, "{% if %}");
  const p = await startEndpoint(["--chat-template-file", broken]);
  try {
    assert.equal(p.events.find((e) => e.event === "template")?.status, "error");
    const r = await postJson(`${p.url}/v1/chat/completions`, { model: "m", messages: [{ role: "user", content: "hi" }], max_tokens: 1 });
    assert.equal(r.status, 503, "the server cannot serve chats until the file is fixed");
    assert.match(
      r.json.error.message,
      new RegExp(`^the chat template ${broken} cannot be used: .+; fix it and save, it is reloaded automatically$`),
    );
    const from = p.events.length;
    writeFileSync(broken, template("C"));
    await p.waitFor((e) => p.events.indexOf(e) >= from && e.event === "template" && e.status === "loaded");
    assert.equal(
      (await postJson(`${p.url}/v1/chat/completions`, { model: "m", messages: [{ role: "user", content: "hi" }], max_tokens: 1 })).status,
      200,
    );
  } finally {
    await p.stop();
  }
});

test(
  "an editor's copy (--chat-template-mirror-of): events and errors name the document being edited, renamed on stdin",
  bounded,
  async () => {
    const copy = join(storageDir, "mirror.jinja");
    writeFileSync(copy, "{% if %}");
    const p = await startEndpoint(["--chat-template-file", copy, "--chat-template-mirror-of", "/ws/first.jinja", "--exit-on-stdin-close"], {
      stdin: true,
    });
    try {
      const refused = p.events.find((e) => e.event === "template");
      assert.deepEqual(
        { ...refused, message: undefined },
        { event: "template", status: "error", path: copy, mirrorOf: "/ws/first.jinja", message: undefined },
      );
      await p.waitForStderr(/chat template \/ws\/first\.jinja not used: .+; it is reloaded as it is edited/);
      const r = await postJson(`${p.url}/v1/chat/completions`, { model: "m", messages: [{ role: "user", content: "hi" }], max_tokens: 1 });
      assert.equal(r.status, 503);
      assert.match(r.json.error.message, /^the chat template \/ws\/first\.jinja cannot be used: .+; it is reloaded as it is edited$/);

      p.child.stdin!.write(`${JSON.stringify({ chatTemplateMirrorOf: "/ws/second.jinja" })}\nnot json\n`);
      const from = p.events.length;
      // the editor writes the other document's text after naming it
      await new Promise((r) => setTimeout(r, 100));
      writeFileSync(copy, template("D"));
      const loaded = await p.waitFor((e) => p.events.indexOf(e) >= from && e.event === "template" && e.status === "loaded");
      assert.deepEqual(loaded, { event: "template", status: "loaded", path: copy, mirrorOf: "/ws/second.jinja" });
      await p.waitForStderr(/chat template loaded from \/ws\/second\.jinja/);
      await p.waitForStderr(/stdin: ignored "not json" \(expected \{"chatTemplateMirrorOf": NAME\}/);
    } finally {
      await p.stop();
    }
  },
);
