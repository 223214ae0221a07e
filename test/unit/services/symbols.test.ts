import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TemplateDocument } from "../../../server/src/document/document";
import { findDocumentSymbols } from "../../../server/src/services/symbols";
import type { DocumentSymbol } from "../../../server/src/document/types";

/** `kind name` per symbol, children indented. */
function outline(src: string): string[] {
  const doc = new TemplateDocument(src);
  const lines: string[] = [];
  const visit = (s: DocumentSymbol, depth: number) => {
    const sel = doc.text.slice(s.selectionSpan.start, s.selectionSpan.end);
    assert.ok(s.span.start <= s.selectionSpan.start && s.selectionSpan.end <= s.span.end, `selection of ${s.name} lies in its span`);
    lines.push(`${"  ".repeat(depth)}${s.kind} ${s.name}${s.kind === "loop" ? "" : sel === s.name ? "" : ` <${sel}>`}`);
    s.children.forEach((c) => visit(c, depth + 1));
  };
  findDocumentSymbols(doc).forEach((s) => visit(s, 0));
  return lines;
}

describe("document symbols", () => {
  it("lists macros, set variables, block sets, namespaces with attributes, and blocks", () => {
    const src = [
      "{% macro render(item) %}{% set local = item %}{% endmacro %}",
      "{% set a, b = 1, 2 %}",
      "{% set captured | trim %} x {% endset %}",
      "{% set ns = namespace(found=false, count=0) %}",
      "{% set ns.found = true %}",
      "{% block body %}{% set inside = 1 %}{% endblock %}",
    ].join("\n");
    assert.deepEqual(outline(src), [
      "macro render",
      "  variable local",
      "variable a",
      "variable b",
      "variable captured",
      "namespace ns",
      "  attribute found",
      "  attribute count",
      "block body",
      "  variable inside",
    ]);
  });

  it("shows for loops with their loop variables and body symbols as children; if/with are transparent", () => {
    const src =
      "{% for k, v in d.items() %}{% if v %}{% set seen = v %}{% endif %}{% endfor %}{% with w = 1 %}{% set z = w %}{% endwith %}";
    assert.deepEqual(outline(src), ["loop for k, v in d.items()", "  variable k", "  variable v", "  variable seen", "variable z"]);
  });

  it("keeps symbols of a broken template", () => {
    assert.deepEqual(outline("{% macro m() %}{% set x = %}{% set y = 1 %}"), ["macro m", "  variable y"]);
  });
});
