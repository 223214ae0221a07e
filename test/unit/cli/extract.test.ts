import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runCli } from "../../helpers/cli";
import { sampleMetadata, tempDir, writeSample } from "../../helpers/gguf";

const tmp = tempDir("extract");
after(tmp.cleanup);
const file = join(tmp.dir, "model.gguf");
writeSample(file);

describe("chat-template extract", () => {
  it("prints tokenizer.chat_template byte for byte", () => {
    const r = runCli(["extract", file]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "{% for m in messages %}{{ m.content }}{% endfor %}");
  });

  it("prints a named variant with --name", () => {
    const r = runCli(["extract", "--name", "tool_use", file]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "{{ tools | tojson }}");
  });

  it("exits 1 naming what is missing", () => {
    const r = runCli(["extract", "--name", "rag", file]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /has no chat template named 'rag' \(named templates: tool_use\)/);
    const bare = join(tmp.dir, "bare.gguf");
    const md = sampleMetadata();
    md.delete("tokenizer.chat_template");
    md.delete("tokenizer.chat_template.tool_use");
    writeSample(bare, md);
    const r2 = runCli(["extract", bare]);
    assert.equal(r2.status, 1);
    assert.match(r2.stderr, /has no tokenizer\.chat_template\n$/);
  });

  it("exits 1 with the offset for a corrupt file, 2 on usage errors", () => {
    const bad = join(tmp.dir, "bad.gguf");
    writeFileSync(bad, readFileSync(file).subarray(0, 400));
    const r = runCli(["extract", bad]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /bad\.gguf: truncated while reading .+ \(at byte offset \d+\)/);
    assert.equal(runCli(["extract"]).status, 2);
    assert.equal(runCli(["extract", file, file]).status, 2);
    assert.equal(runCli(["extract", "--bogus", file]).status, 2);
  });
});
