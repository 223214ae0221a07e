import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { HfConfigError, readChatTemplates, spliceChatTemplate } from "../../../server/src/hfConfig";

const FIXTURE = readFileSync(join(__dirname, "../../fixtures/hf/tokenizer_config.json"), "utf8");
const QWEN = readFileSync(join(__dirname, "../../fixtures/templates/qwen2.5.jinja"), "utf8");

// The list form, as transformers writes a tokenizer with named templates (default, tool_use, rag).
const NAMED = `{
  "chat_template": [
    {"name": "default", "template": "{% for m in messages %}{{ m.content }}{% endfor %}"},
    {"name": "tool_use", "template": "{{ tools | tojson }}\\n{% for m in messages %}{{ m.content }}{% endfor %}"}
  ],
  "eos_token": "</s>"
}
`;

/** The text outside [start, end) of a and b are the same bytes. */
function sameOutside(a: string, b: string, start: number, endInA: number): void {
  const tail = a.length - endInA;
  assert.equal(b.slice(0, start), a.slice(0, start));
  assert.equal(b.slice(b.length - tail), a.slice(endInA));
}

describe("Hugging Face chat templates: read", () => {
  it("a tokenizer_config.json's chat_template string, unescaped", () => {
    const [t] = readChatTemplates(FIXTURE);
    assert.equal(t.name, null);
    assert.equal(t.template, QWEN);
    assert.equal(JSON.parse(FIXTURE.slice(t.start, t.end)), QWEN);
  });

  it("the list of named templates, in file order", () => {
    const ts = readChatTemplates(NAMED);
    assert.deepEqual(
      ts.map((t) => [t.name, t.template.split("\n")[0]]),
      [
        ["default", "{% for m in messages %}{{ m.content }}{% endfor %}"],
        ["tool_use", "{{ tools | tojson }}"],
      ],
    );
  });

  it("malformed JSON and a file without a template are errors at their line and column", () => {
    assert.throws(
      () => readChatTemplates('{\n  "chat_template": "x",\n  "a": tru\n}'),
      (e: HfConfigError) => e.line === 3 && e.column === 8,
    );
    assert.throws(() => readChatTemplates('{\n  "chat_template": "a\nb"}'), /2:22: a control character/);
    assert.throws(() => readChatTemplates('{"eos_token": "</s>"}'), /1:1: no chat_template member/);
    assert.throws(() => readChatTemplates('{"chat_template": 3}'), /1:19: chat_template is neither a string/);
    assert.throws(() => readChatTemplates('{"chat_template": [{"name": "x"}]}'), /1:20: a named template needs/);
    assert.throws(() => readChatTemplates('{"chat_template": "x"} 1'), /1:24: unexpected '1' after the JSON value/);
    assert.throws(() => readChatTemplates("[".repeat(100_000)), /nested deeper than/);
  });
});

describe("Hugging Face chat templates: write back", () => {
  it("an edited template goes back escaped; every other byte of the file is kept", () => {
    const edited = QWEN.replace("You are Qwen", 'You are "Qwen"\t\\ 🦜');
    const out = spliceChatTemplate(FIXTURE, null, edited);
    const [before] = readChatTemplates(FIXTURE);
    const [after] = readChatTemplates(out);
    assert.equal(after.template, edited);
    assert.deepEqual({ ...JSON.parse(out), chat_template: null }, { ...JSON.parse(FIXTURE), chat_template: null });
    sameOutside(FIXTURE, out, before.start, before.end);
    assert.equal(spliceChatTemplate(out, null, QWEN), FIXTURE, "the round trip restores the file byte for byte");
  });

  it("an unchanged template leaves the file as it is, its own escapes included", () => {
    const text = '{"chat_template": "\\u007b{ x }}\\/", "x": 1}';
    assert.equal(spliceChatTemplate(text, null, "{{ x }}/"), text);
  });

  it("one named template is replaced, the others and their escapes stay", () => {
    const out = spliceChatTemplate(NAMED, "tool_use", "{{ tools }}");
    const ts = readChatTemplates(out);
    assert.deepEqual(
      ts.map((t) => t.template),
      ["{% for m in messages %}{{ m.content }}{% endfor %}", "{{ tools }}"],
    );
    const old = readChatTemplates(NAMED)[1];
    sameOutside(NAMED, out, old.start, old.end);
    assert.throws(() => spliceChatTemplate(NAMED, "rag", "x"), /no chat template named 'rag'/);
  });

  it("a file written with ensure_ascii stays ASCII", () => {
    const text = '{"chat_template": "caf\\u00e9", "eos_token": "\\u00bfs"}';
    const out = spliceChatTemplate(text, null, "thé 🦜");
    assert.equal(out, '{"chat_template": "th\\u00e9 \\ud83e\\udd9c", "eos_token": "\\u00bfs"}');
    assert.equal(readChatTemplates(out)[0].template, "thé 🦜");
  });
});
