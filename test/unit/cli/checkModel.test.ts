import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { gguf } from "../../../server/src/gguf/writer";
import { runCli } from "../../helpers/cli";
import { tempDir } from "../../helpers/gguf";
import { writeVocabGGUF } from "../../helpers/ggufVocab";

const { dir, cleanup } = tempDir("check-model-");
after(cleanup);

const CHATML =
  "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";

/** Writes a template file and returns the `model/…` findings of checking it against the vocabulary model. */
function modelFindings(
  template: string,
  model = join(dir, "vocab.gguf"),
): { code: string; severity: string; line: number; message: string }[] {
  const file = join(dir, "t.jinja");
  writeFileSync(file, template);
  const r = runCli(["check", "--engines", "jinja2", "--format", "json", "--gguf", model, file]);
  assert.notEqual(r.status, 2, r.stderr);
  return JSON.parse(r.stdout)[0].diagnostics.filter((d: { code: string }) => d.code.startsWith("model/"));
}

describe("chat-template check against the model's tokenizer (--gguf, or a .gguf file)", () => {
  writeVocabGGUF(join(dir, "vocab.gguf"));

  it("a ChatML template on a ChatML vocabulary has nothing to say", () => {
    assert.deepEqual(modelFindings(CHATML), []);
  });

  it("special tokens the vocabulary lacks are errors at the template's line", () => {
    const ds = modelFindings(
      "{% for m in messages %}\n<|start_header_id|>{{ m.role }}<|end_header_id|>{{ m.content }}<|im_end|>{% endfor %}{% if add_generation_prompt %}<|im_start|>{% endif %}",
    );
    assert.deepEqual(
      ds.map((d) => [d.code, d.severity, d.line]),
      [
        ["model/unknown-special-token", "error", 2],
        ["model/unknown-special-token", "error", 2],
      ],
    );
    assert.match(ds[0].message, /'<\|start_header_id\|>', which this model's vocabulary does not have/);
  });

  it("finished assistant turns without the end-of-generation token", () => {
    const ds = modelFindings(CHATML.replace("<|im_end|>", ""));
    assert.deepEqual(
      ds.map((d) => d.code),
      ["model/no-end-of-generation"],
    );
    assert.match(ds[0].message, /not closed with '<\|im_end\|>'/);
  });

  it("a BOS in the template where the tokenizer adds one too", () => {
    writeVocabGGUF(join(dir, "adds-bos.gguf"), [["tokenizer.ggml.add_bos_token", gguf.bool(true)]]);
    const ds = modelFindings("{{ bos_token }}" + CHATML, join(dir, "adds-bos.gguf"));
    assert.deepEqual(
      ds.map((d) => d.code),
      ["model/double-bos"],
    );
    assert.deepEqual(modelFindings("{{ bos_token }}" + CHATML), [], "without add_bos_token the BOS is the template's to write");
  });

  it("an add_generation_prompt that changes nothing, and an empty render", () => {
    assert.deepEqual(
      modelFindings(CHATML.replace(/\{% if add_generation_prompt %\}(.*)\{% endif %\}/s, "$1")).map((d) => d.code),
      ["model/generation-prompt-ignored"],
    );
    assert.deepEqual(
      modelFindings("{% if false %}x{% endif %}").map((d) => d.code),
      ["model/generation-prompt-ignored", "model/empty-render"],
    );
  });

  it("a .gguf FILE is checked by its embedded template against its own tokenizer", () => {
    const model = join(dir, "embedded.gguf");
    writeVocabGGUF(model, [["tokenizer.chat_template", gguf.str("{% for m in messages %}[INST]{{ m.content }}[/INST]{% endfor %}")]]);
    const r = runCli(["check", "--engines", "jinja2", model]);
    assert.equal(r.status, 1);
    assert.match(r.stdout, /embedded\.gguf:1:\d+: error: emits '\[INST\]'.*\[model\/unknown-special-token\]/);
    assert.equal(runCli(["check", join(dir, "vocab.gguf")]).status, 2, "a model without a template is a usage error");
  });
});
