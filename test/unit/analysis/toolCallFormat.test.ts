// Expectations from llama.cpp's own tests of its autoparser (tests/test-chat-auto-parser.cpp in the
// v0.5.0 sources) for the corpus templates they cover, plus GLM's markers, which its template states.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { probeCaps } from "../../../server/src/analysis/caps/capsProbe";
import { detectToolCallFormat } from "../../../server/src/analysis/caps/toolCallFormat";
import { dialectFor } from "../../../server/src/dialects/index";
import { TemplateDocument } from "../../../server/src/document/document";
import { corpusDir } from "../../helpers/corpus";

const llamacpp = dialectFor("llamacpp")!;

function formatOf(name: string) {
  const doc = new TemplateDocument(readFileSync(corpusDir("templates", `${name}.jinja`), "utf8"));
  return detectToolCallFormat(doc, llamacpp, probeCaps(doc, llamacpp).caps);
}

describe("the tool-call format, as llama.cpp's autoparser detects it", () => {
  it("Nemotron 3 Nano: TAG_WITH_TAGGED with per-call <tool_call> and <function=…>/<parameter=…> markers", () => {
    const f = formatOf("NVIDIA-Nemotron-3-Nano-30B-A3B-BF16");
    assert.equal(f.mode, "TAG_WITH_TAGGED");
    assert.deepEqual([f.section_start, f.section_end, f.per_call_start, f.per_call_end], ["", "", "<tool_call>\n", "</tool_call>"]);
    assert.deepEqual(f.function, { name_prefix: "<function=", name_suffix: ">\n", close: "</function>\n" });
    assert.deepEqual(f.arguments, { name_prefix: "<parameter=", name_suffix: ">\n", value_prefix: "", value_suffix: "\n</parameter>\n" });
    assert.equal(f.specialized, null);
  });

  it("Command R7B: JSON_NATIVE in an <|START_ACTION|> section, with its own field names", () => {
    const f = formatOf("CohereForAI-c4ai-command-r7b-12-2024-tool_use");
    assert.equal(f.mode, "JSON_NATIVE");
    assert.deepEqual([f.section_start, f.section_end, f.per_call_start, f.per_call_end], ["<|START_ACTION|>", "<|END_ACTION|>", "", ""]);
    assert.deepEqual(f.function, { name_prefix: "", name_suffix: "", close: "" });
    assert.equal(f.json?.name_field, "tool_name");
    assert.equal(f.json?.args_field, "parameters");
    assert.equal(f.json?.id_field, "");
  });

  it("GLM 4.7 Flash: TAG_WITH_TAGGED with <tool_call> and <arg_key>/<arg_value>", () => {
    const f = formatOf("GLM-4.7-Flash");
    assert.equal(f.mode, "TAG_WITH_TAGGED");
    assert.deepEqual([f.per_call_start, f.per_call_end], ["<tool_call>", "</tool_call>"]);
    assert.deepEqual(f.arguments, {
      name_prefix: "<arg_key>",
      name_suffix: "</arg_key>",
      value_prefix: "<arg_value>",
      value_suffix: "</arg_value>",
    });
    assert.deepEqual(f.reasoning, { start: "<think>", end: "</think>" });
  });

  it("names the hand-written parser llama.cpp uses instead of the autoparser", () => {
    assert.equal(formatOf("openai-gpt-oss-120b").specialized, "gpt-oss");
    assert.equal(formatOf("Kimi-K2-Thinking").specialized, "kimi-k2");
  });

  it("NONE for a template that renders no tool calls", () => {
    assert.equal(formatOf("microsoft-Phi-3.5-mini-instruct").mode, "NONE");
  });
});
