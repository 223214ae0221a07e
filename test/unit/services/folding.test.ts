import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TemplateDocument } from "../../../server/src/document/document";
import { getFoldingRanges } from "../../../server/src/services/folding";

const folds = (src: string) =>
  getFoldingRanges(new TemplateDocument(src)).map((r) => `${r.startLine}-${r.endLine}${r.kind ? " " + r.kind : ""}`);

describe("folding ranges", () => {
  it("folds a block from its tag to the line before its end tag", () => {
    assert.deepEqual(folds("{% for m in messages %}\n  {{ m }}\n  x\n{% endfor %}\n"), ["0-2"]);
  });

  it("folds each if / elif / else section and for / else on its own", () => {
    const src = "{% if a %}\n1\n{% elif b %}\n2\n{% else %}\n3\n{% endif %}\n{% for x in y %}\n4\n{% else %}\n5\n{% endfor %}";
    assert.deepEqual(folds(src), ["0-1", "2-3", "4-5", "7-8", "9-10"]);
  });

  it("folds nested blocks, raw, macros, block sets and generation; multi-line comments", () => {
    const src =
      "{% macro m() %}\n{% raw %}\n{{ x }}\n{% endraw %}\n{% endmacro %}\n{% set s %}\na\n{% endset %}\n{% generation %}\nb\n{% endgeneration %}\n{#\n note\n#}";
    assert.deepEqual(folds(src), ["0-3", "1-2", "5-6", "8-9", "11-13 comment"]);
  });

  it("folds an unclosed block to its last line, and nothing that fits on one line", () => {
    assert.deepEqual(folds("{% if a %}\nx\ny"), ["0-2"]);
    assert.deepEqual(folds("{% if a %}x{% endif %}\n{# one line #}"), []);
    assert.deepEqual(folds("{% if a %}\nx{% endif %}"), [], "the end tag's line stays visible, so nothing is left to hide");
  });
});
