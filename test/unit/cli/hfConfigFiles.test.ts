import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runCli } from "../../helpers/cli";
import { tempDir } from "../../helpers/gguf";

const tmp = tempDir("hf-config");
after(tmp.cleanup);
const write = (name: string, text: string): string => {
  const p = join(tmp.dir, name);
  writeFileSync(p, text);
  return p;
};

// minja cannot compile `messages.0`: a finding on the template's second line, inside an escaped JSON string.
const CONFIG = `{
  "eos_token": "</s>",
  "chat_template": "{{ \\"a\\" }}\\n{{ messages.0.content }}"
}
`;
const NAMED = `{"chat_template": [{"name": "default", "template": "{{ messages[0].content }}"}, {"name": "tool_use", "template": "{{ tools | tojson }}"}]}`;

describe("chat-template extract and check read Hugging Face tokenizer files", () => {
  it("extract prints a tokenizer_config.json's template unescaped", () => {
    const r = runCli(["extract", write("tokenizer_config.json", CONFIG)]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, '{{ "a" }}\n{{ messages.0.content }}');
  });

  it("extract picks the default of named templates, or the one --name names, and says which exist", () => {
    const file = write("chat_template.json", NAMED);
    assert.equal(runCli(["extract", file]).stdout, "{{ messages[0].content }}");
    assert.equal(runCli(["extract", "--name", "tool_use", file]).stdout, "{{ tools | tojson }}");
    const r = runCli(["extract", "--name", "rag", file]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /has no chat template named 'rag' \(named templates: default, tool_use\)/);
  });

  it("a malformed file is a usage error at its line and column", () => {
    const r = runCli(["extract", write("bad.json", '{\n  "chat_template": tru\n}')]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /bad\.json:2:20: expected a JSON value/);
  });

  it("check reports a finding at its place in the JSON file", () => {
    const file = write("tokenizer_config.json", CONFIG);
    const r = runCli(["check", "--engines", "minja", file]);
    assert.equal(r.status, 1, r.stdout + r.stderr);
    const m = /tokenizer_config\.json:(\d+):(\d+): error: minja cannot compile this/.exec(r.stdout);
    assert.ok(m, r.stdout);
    const line = CONFIG.split("\n")[Number(m[1]) - 1];
    assert.ok(line.slice(Number(m[2]) - 1).startsWith("messages.0"), line.slice(Number(m[2]) - 1));
  });

  it("check reads every named template", () => {
    const r = runCli(["check", "--engines", "minja", write("named.json", NAMED.replace("messages[0]", "messages.0"))]);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /named\.json:1:\d+: error: minja cannot compile this/);
  });
});
