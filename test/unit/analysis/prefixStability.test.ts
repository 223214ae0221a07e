// cache/earlier-turn-rerendered: a template whose next prompt does not start with this prompt and the model's turn
// (Qwen3's drops earlier reasoning once a user message follows) is flagged at the node that renders the turn
// without it; one that keeps every turn as written gets nothing.
import assert from "node:assert/strict";
import { test } from "node:test";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import { PREFIX_CODE, prefixStabilityFindings } from "../../../server/src/analysis/prefixStability";
import { dialectFor } from "../../../server/src/dialects";
import { TemplateDocument } from "../../../server/src/document";

const STABLE = QWEN3_CHAT_TEMPLATE.replace("{%- if loop.index0 > ns.last_query_index %}", "{%- if true %}");

for (const engine of ["llama-server", "llamacpp"] as const) {
  test(`${engine}: Qwen3's template is flagged where it renders an earlier turn without its reasoning`, () => {
    const doc = new TemplateDocument(QWEN3_CHAT_TEMPLATE);
    const [f, ...rest] = prefixStabilityFindings(doc, dialectFor(engine)!);
    assert.deepEqual(rest, []);
    assert.equal(f.code, PREFIX_CODE);
    assert.equal(f.severity, "warning");
    assert.equal(f.engine, engine);
    assert.match(f.message, /message 2's reasoning is dropped once a later user message exists/);
    assert.match(f.message, /prefilled again at every new user turn: \d+ of this sample's \d+ characters \(\d+ %/);
    assert.equal(QWEN3_CHAT_TEMPLATE.slice(f.start, f.end), "{{- '<|im_start|>' + message.role + '\\n' + content }}");
  });

  test(`${engine}: a template that keeps every turn as written gets nothing`, () => {
    assert.deepEqual(prefixStabilityFindings(new TemplateDocument(STABLE), dialectFor(engine)!), []);
  });
}

test("a template that reads a keep-reasoning kwarg names it", () => {
  const reads = (kwarg: string) =>
    new TemplateDocument(
      QWEN3_CHAT_TEMPLATE.replace("{%- if loop.index0 > ns.last_query_index %}", `{%- if ${kwarg} or loop.index0 > ns.last_query_index %}`),
    );
  const [f] = prefixStabilityFindings(reads("keep_thinking"), dialectFor("llama-server")!);
  assert.match(f.message, /the template reads 'keep_thinking': set it \(chat_template_kwargs\)/);
  // llama-server starts with preserve_reasoning, which its chat layer passes as preserve_thinking=true
  assert.deepEqual(prefixStabilityFindings(reads("preserve_thinking"), dialectFor("llama-server")!), []);
  const [g] = prefixStabilityFindings(reads("preserve_thinking"), dialectFor("llamacpp")!);
  assert.match(g.message, /the template reads 'preserve_thinking'/);
});
