import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TemplateDocument } from "../../../server/src/document/document";
import { typeLabel } from "../../../server/src/languageFacts/fact";
import type * as A from "../../../server/src/parser/ast";
import { scopesOf } from "../../../server/src/services/scope";
import { typeOf } from "../../../server/src/services/valueTypes";

/** The type of the last `{{ … }}` of the template, as a label (null when unknown). */
function typeOfLast(src: string): string | null {
  const doc = new TemplateDocument(src);
  const outputs: A.Output[] = [];
  const visit = (stmts: A.Stmt[]) =>
    stmts.forEach((s) => {
      if (s.kind === "Output") outputs.push(s);
      if ("body" in s && Array.isArray(s.body)) visit(s.body);
    });
  visit(doc.template.body);
  const t = typeOf(scopesOf(doc.template), outputs[outputs.length - 1].expr);
  return t && typeLabel(t);
}

describe("value types", () => {
  it("types context variables and their fields", () => {
    assert.equal(typeOfLast("{{ messages }}"), "list[Message]");
    assert.equal(typeOfLast("{{ messages[0] }}"), "Message");
    assert.equal(typeOfLast("{{ messages.0 }}"), "Message");
    assert.equal(typeOfLast("{{ messages[-1]['tool_calls'] }}"), "list[ToolCall]");
    assert.equal(typeOfLast("{{ messages[1:] }}"), "list[Message]");
    assert.equal(typeOfLast("{{ tools }}"), "list[Tool] | none");
  });

  it("types loop variables as items of what they iterate, through filters", () => {
    assert.equal(typeOfLast("{% for m in messages %}{{ m }}{% endfor %}"), "Message");
    assert.equal(typeOfLast("{% for m in messages | selectattr('role', 'equalto', 'user') | list %}{{ m }}{% endfor %}"), "Message");
    assert.equal(typeOfLast("{% for t in tools %}{{ t.function }}{% endfor %}"), "ToolFunction");
    assert.equal(typeOfLast("{{ (messages | first).content }}"), "str | list[ContentPart] | none");
    assert.equal(typeOfLast("{% for k, v in messages %}{{ v }}{% endfor %}"), null, "tuple unpacking has no known item type");
  });

  it("types variables by their value as seen where they are set", () => {
    assert.equal(typeOfLast("{% set last = messages[-1] %}{{ last }}"), "Message");
    assert.equal(typeOfLast("{% set m = messages[0] if messages else none %}{{ m }}"), "Message");
    assert.equal(typeOfLast("{% set ts = tools or [] %}{{ ts }}"), "list[Tool] | none");
    assert.equal(typeOfLast("{% set x = 1 %}{{ x }}"), null);
    assert.equal(typeOfLast("{% set ns = namespace(a=1) %}{% set ns.b = 2 %}{{ ns }}"), "namespace");
  });

  it("knows loop only inside a for body", () => {
    assert.equal(typeOfLast("{% for x in y %}{{ loop }}{% endfor %}"), "LoopContext");
    assert.equal(typeOfLast("{{ loop }}"), null);
  });
});
