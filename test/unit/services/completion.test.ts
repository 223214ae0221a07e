import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { doComplete } from "../../../server/src/services/completion";
import type { CompletionItem } from "../../../server/src/document/types";
import { atCursor, textOf } from "../../helpers/cursor";

function complete(src: string): CompletionItem[] {
  const { doc, offset } = atCursor(src);
  return doComplete(doc, offset);
}
const labels = (src: string) => complete(src).map((i) => i.label);

describe("completion", () => {
  it("offers message fields after `message.` when the variable iterates messages", () => {
    const got = labels("{% for message in messages %}{{ message.‸ }}{% endfor %}");
    for (const f of ["role", "content", "tool_calls", "reasoning_content", "tool_call_id", "name"]) assert.ok(got.includes(f), f);
    assert.ok(got.includes("get"), "messages are dicts, so dict methods apply");
  });

  it("follows the type through slices, set variables and nested fields", () => {
    const loop = "{% set loop_messages = messages[1:] %}{% for m in loop_messages %}";
    assert.ok(labels(`${loop}{{ m.‸ }}{% endfor %}`).includes("role"));
    assert.deepEqual(labels(`${loop}{% for tc in m.tool_calls %}{{ tc.‸ }}{% endfor %}{% endfor %}`).slice(0, 3), [
      "id",
      "type",
      "function",
    ]);
    assert.deepEqual(labels(`${loop}{{ m.tool_calls[0].function.‸ }}{% endfor %}`).slice(0, 2), ["name", "arguments"]);
    // The common unwrapping `{% set tool_call = tool_call.function %}`.
    const unwrapped = "{% for tool_call in message.tool_calls %}{% set tool_call = tool_call.function %}{{ tool_call.‸ }}{% endfor %}";
    assert.deepEqual(labels(`{% for message in messages %}${unwrapped}{% endfor %}`).slice(0, 2), ["name", "arguments"]);
  });

  it("offers string methods on string fields, and nothing for values of unknown type", () => {
    assert.ok(labels("{% for m in messages %}{{ m.role.‸ }}{% endfor %}").includes("startswith"));
    assert.deepEqual(labels("{{ whatever.‸ }}"), []);
  });

  it("offers loop.* inside a for body only", () => {
    const got = labels("{% for x in xs %}{{ loop.‸ }}{% endfor %}");
    for (const f of ["index", "index0", "first", "last", "length", "revindex", "previtem", "nextitem", "cycle"])
      assert.ok(got.includes(f), f);
    assert.ok(!got.includes("get"), "loop is not a dict");
    assert.deepEqual(labels("{{ loop.‸ }}"), []);
  });

  it("offers the attributes of a namespace", () => {
    assert.deepEqual(labels("{% set ns = namespace(found=false) %}{% set ns.count = 1 %}{{ ns.‸ }}"), ["found", "count"]);
  });

  it("offers filters after `|` and replaces the part already typed", () => {
    const items = complete("{{ x | tr‸ }}");
    assert.ok(items.some((i) => i.label === "trim" && i.kind === "filter"));
    assert.ok(items.some((i) => i.label === "tojson"));
    const { doc } = atCursor("{{ x | tr‸ }}");
    assert.equal(textOf(doc, items[0].span), "tr");
  });

  it("offers tests after `is` and `is not`", () => {
    assert.ok(labels("{{ x is ‸ }}").includes("defined"));
    const negated = complete("{% if x is not ‸ %}{% endif %}");
    assert.ok(negated.some((i) => i.label === "none" && i.kind === "test"));
    assert.ok(!negated.some((i) => i.label === "=="), "operator-named tests cannot follow `is`");
  });

  it("offers context variables, globals and the template's own names in scope", () => {
    const got = labels("{% macro render(item) %}{% endmacro %}{% set greeting = 'hi' %}{{ ‸ }}");
    for (const n of [
      "render",
      "greeting",
      "messages",
      "tools",
      "add_generation_prompt",
      "bos_token",
      "enable_thinking",
      "raise_exception",
      "namespace",
      "range",
    ]) {
      assert.ok(got.includes(n), n);
    }
    const inLoop = labels("{% for x in xs %}{% set inner = 1 %}{% endfor %}{{ ‸ }}");
    assert.ok(!inLoop.includes("inner") && !inLoop.includes("x"), "loop-local names do not leak out of the loop");
    assert.ok(labels("{% macro m(p) %}{{ ‸ }}{% endmacro %}").includes("p"));
    assert.ok(labels("{% macro m(p) %}{{ ‸ }}{% endmacro %}").includes("caller"));
  });

  it("offers operator keywords right after an operand", () => {
    assert.deepEqual(labels("{{ x ‸ }}"), ["and", "or", "not", "in", "is", "if", "else"]);
  });

  it("offers nothing where a new name is being defined, in text, comments or strings", () => {
    assert.deepEqual(labels("{% set ‸ %}"), []);
    assert.deepEqual(labels("{% for ‸ %}"), []);
    assert.deepEqual(labels("hello ‸ world"), []);
    assert.deepEqual(labels("{# a ‸ comment #}"), []);
    assert.deepEqual(labels("{{ 'a ‸ string' }}"), []);
    assert.deepEqual(labels("{{ x }}‸"), []);
  });

  it("offers tag names at tag start, with elif/else/break only where they belong", () => {
    const top = labels("{% ‸ %}");
    assert.ok(top.includes("for") && top.includes("if") && top.includes("generation"));
    assert.ok(!top.includes("elif") && !top.includes("break"));
    const inIf = labels("{% if a %}{% ‸ %}{% endif %}");
    assert.ok(inIf.includes("elif") && inIf.includes("else") && !inIf.includes("break"));
    assert.ok(labels("{% for a in b %}{% ‸ %}{% endfor %}").includes("break"));
  });

  it("offers the end tag of the innermost open block first, closing the tag when it is not", () => {
    const open = complete("{% for m in messages %}{% if m.role %}{% ‸");
    assert.equal(open[0].label, "endif");
    assert.equal(open[0].insertText, "endif %}");
    assert.equal(open[0].preselect, true);
    const typed = complete("{% for m in messages %}\n{{ m }}{% endf‸ %}");
    assert.equal(typed[0].label, "endfor");
    assert.equal(typed[0].insertText, "endfor");
    assert.match(typed[0].detail!, /line 1/);
    assert.notEqual(complete("{% if a %}{% endif %}{% ‸ %}")[0].label, "endif", "a closed block needs no end tag");
  });
});
