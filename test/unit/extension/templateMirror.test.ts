// The served copy of the edited template, with the manager and a real endpoint: each edit is served as
// soon as the endpoint reloads it, a broken edit is refused with why (the last good one stays served).
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { EndpointManager } from "../../../client/src/endpoint/manager";
import { TemplateMirror } from "../../../client/src/endpoint/templateMirror";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import { ENDPOINT, postJson, storageDir } from "../../helpers/endpoint";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";

const CHATML =
  "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";
const OUTPUT = "<think>\nhmm\n</think>\n\nHello";

const manager = new EndpointManager({ log() {} });
after(() => manager.stop());

describe("served template copy", { timeout: HANG_GUARD_MS }, () => {
  const dir = mkdtempSync(join(storageDir, "mirror-"));
  const mirror = new TemplateMirror(join(dir, "served", "chat_template.jinja"));
  manager.onTemplate((e) => mirror.loaded(e));
  let url = "";
  const health = async () =>
    (await (await fetch(`${url}/health`)).json()) as { template: { source: string; error: string | null; loads: number } };
  const parse = async () =>
    (await postJson(`${url}/chat/parse`, { messages: [{ role: "user", content: "hi" }], add_generation_prompt: true, text: OUTPUT })).json;

  test("the endpoint serves the copy from the start", async () => {
    mirror.write(QWEN3_CHAT_TEMPLATE);
    mirror.reset();
    const s = await manager.start({
      command: process.execPath,
      args: [ENDPOINT, "--port", "0", "--threads", "1", "--chat-template-file", mirror.file],
      env: { ...process.env, CTS_STORAGE_DIR: storageDir },
    });
    assert.equal(s.kind, "ready");
    url = s.kind === "ready" ? s.url : "";
    assert.deepEqual(await mirror.settled(HANG_GUARD_MS), { event: "template", status: "loaded", path: mirror.file });
    assert.equal((await health()).template.loads, 1);
    assert.equal((await parse()).reasoning_content, "hmm\n", "Qwen3's format splits off the thinking");
  });

  test("an edit is written atomically and served once the endpoint has reloaded it", async () => {
    mirror.write(CHATML);
    assert.equal(readFileSync(mirror.file, "utf8"), CHATML);
    assert.deepEqual(readdirSync(join(dir, "served")), ["chat_template.jinja"], "no temporary file is left behind");
    assert.equal((await mirror.settled(HANG_GUARD_MS))?.status, "loaded");
    assert.equal((await health()).template.loads, 2);
    assert.deepEqual([(await parse()).content, (await parse()).reasoning_content], [OUTPUT, ""], "plain ChatML has no thinking");
  });

  test("unchanged text is not written again, and needs no wait", async () => {
    const written = statSync(mirror.file).mtimeMs;
    mirror.write(CHATML);
    assert.equal((await mirror.settled(HANG_GUARD_MS))?.status, "loaded");
    assert.equal(statSync(mirror.file).mtimeMs, written, "the file was not written again");
    assert.equal((await health()).template.loads, 2, "so the endpoint did not reload it");
  });

  test("a broken edit is refused with why, and the last good template stays served", async () => {
    mirror.write("{% for m in messages %}");
    const e = await mirror.settled(HANG_GUARD_MS);
    assert.equal(e?.status, "error");
    assert.ok(e?.message);
    const h = await health();
    assert.equal(h.template.error, e?.message);
    assert.equal(h.template.loads, 2);
    assert.equal((await parse()).content, OUTPUT);
  });

  test("settled gives up after its time limit when the endpoint says nothing", async () => {
    await manager.stop();
    mirror.write(QWEN3_CHAT_TEMPLATE);
    const start = Date.now();
    assert.equal((await mirror.settled(100))?.status, "error", "the last word it had");
    assert.ok(Date.now() - start >= 90);
  });
});
