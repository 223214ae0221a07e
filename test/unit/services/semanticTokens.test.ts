import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TemplateDocument } from "../../../server/src/document/document";
import { getSemanticTokens } from "../../../server/src/services/semanticTokens";

/** `text:type[.modifier…]` per token, in order. */
function tokens(src: string): string[] {
  const doc = new TemplateDocument(src);
  return getSemanticTokens(doc).map((t) => [`${src.slice(t.start, t.end)}:${t.type}`, ...t.modifiers].join("."));
}

describe("semantic tokens", () => {
  it("classifies names by what they are", () => {
    const src = "{% for m in messages if m.role %}{{ m.content | trim }}{{ loop.index is even }}{% endfor %}";
    assert.deepEqual(tokens(src), [
      "for:keyword",
      "m:variable.declaration",
      "in:keyword",
      "messages:variable.readonly.defaultLibrary",
      "if:keyword",
      "m:variable",
      "role:property",
      "m:variable",
      "content:property",
      "trim:function.defaultLibrary",
      "loop:variable.defaultLibrary",
      "index:property",
      "is:keyword",
      "even:function.defaultLibrary",
      "endfor:keyword",
    ]);
  });

  it("marks macros, parameters, namespaces, methods and globals", () => {
    const src =
      "{% macro render(item) %}{{ item.strip() }}{% endmacro %}{% set ns = namespace(found=false) %}{{ render(ns.found) | my_filter }}{{ raise_exception('x') }}";
    assert.deepEqual(tokens(src), [
      "macro:keyword",
      "render:function.declaration",
      "item:parameter.declaration",
      "item:parameter",
      "strip:method",
      "endmacro:keyword",
      "set:keyword",
      "ns:namespace.declaration",
      "namespace:function.defaultLibrary",
      "found:parameter",
      "render:function",
      "ns:namespace",
      "found:property",
      "my_filter:function",
      "raise_exception:function.defaultLibrary",
    ]);
  });

  it("leaves strings, numbers and constants to the grammar and keeps tokens sorted without overlap", () => {
    // `none` after `is not` is the test, not the constant.
    const doc = new TemplateDocument("{% if x is not none and y == 'a' %}{{ 1 + true }}{% endif %}");
    const ts = getSemanticTokens(doc);
    assert.deepEqual(
      ts.map((t) => `${doc.text.slice(t.start, t.end)}:${t.type}`),
      ["if:keyword", "x:variable", "is:keyword", "not:keyword", "none:function", "and:keyword", "y:variable", "endif:keyword"],
    );
    for (let i = 1; i < ts.length; i++) assert.ok(ts[i - 1].end <= ts[i].start);
  });
});
