import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { LineIndex } from "../../../server/src/parser/lineIndex";
import { parse } from "../../../server/src/parser/parser";

function problems(src: string) {
  const lines = new LineIndex(src);
  return parse(src).problems.map((p) => ({
    line: lines.positionAt(p.start).line + 1,
    text: src.slice(p.start, p.end),
    code: p.code,
    message: p.message,
  }));
}

describe("syntax errors: exact ranges, clear messages, and recovery", () => {
  it("an unclosed block is reported at its opening tag, naming the tags Jinja2 looks for", () => {
    const [p, ...rest] = problems("line1\n{% for m in messages %}\n{{ m }}\n");
    assert.equal(rest.length, 0);
    assert.equal(p.line, 2);
    assert.equal(p.text, "{% for m in messages %}");
    assert.equal(p.code, "syntax/unclosed-block");
    assert.match(
      p.message,
      /Unexpected end of template\. Jinja was looking for the following tags: 'endfor' or 'else'\. The innermost block that needs to be closed is 'for' \(opened at line 2\)/,
    );
  });

  it("a nesting mistake closes the inner block with an error and keeps the outer one", () => {
    const ps = problems("{% for x in y %}\n{% if x %}\n{{ x }}\n{% endfor %}\n{{ after }}");
    assert.equal(ps.length, 1);
    assert.equal(ps[0].line, 2);
    assert.equal(ps[0].code, "syntax/unclosed-block");
    assert.match(ps[0].message, /Unexpected 'endfor' at line 4: the 'if' block opened here is not closed/);
    const r = parse("{% for x in y %}{% if x %}{% endfor %}{{ after }}");
    assert.deepEqual(
      r.template.body.map((s) => s.kind),
      ["For", "Output"],
    );
  });

  it("a stray end tag is an unknown tag", () => {
    const [p] = problems("a\n{% endif %}");
    assert.equal(p.line, 2);
    assert.equal(p.text, "endif");
    assert.equal(p.code, "syntax/unexpected-end-tag");
    assert.match(p.message, /Encountered unknown tag 'endif'\./);
  });

  it("an unknown tag inside a block names the innermost block", () => {
    const [p] = problems("{% if a %}\n{% frobnicate %}\n{% endif %}");
    assert.equal(p.line, 2);
    assert.equal(p.code, "syntax/unknown-tag");
    assert.match(
      p.message,
      /Encountered unknown tag 'frobnicate'\. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'\. The innermost block that needs to be closed is 'if' \(opened at line 1\)\./,
    );
  });

  it("several broken tags each get their own error and the rest still parses", () => {
    const src = "{{ x + }}\n{% for in y %}\n{{ ok }}\n{% endfor %}\n{{ 'unterminated }}\n{% if %}{% endif %}\n{{ fine }}";
    const ps = problems(src);
    assert.deepEqual(
      ps.map((p) => p.line),
      [1, 2, 5, 6],
    );
    assert.equal(ps[0].text, "}}");
    assert.equal(ps[2].code, "syntax/unterminated-string");
    const r = parse(src);
    assert.deepEqual(
      r.template.body.filter((s) => s.kind !== "Text").map((s) => s.kind),
      ["ErrorStmt", "For", "Output", "If", "Output"],
    );
  });

  it("an unclosed tag ends at the next tag start", () => {
    const ps = problems("{{ x \n{% if y %}{% endif %}");
    assert.equal(ps.length, 1);
    assert.equal(ps[0].code, "syntax/unclosed-tag");
    assert.equal(ps[0].text, "{{");
  });

  it("an unclosed bracket is reported by the parser, and the tag still ends at its delimiter", () => {
    const ps = problems("{{ f(1, 2 }}\n{{ fine }}");
    assert.equal(ps.length, 1);
    assert.equal(ps[0].line, 1);
    assert.match(ps[0].message, /expected token ','/);
  });

  it("mismatched brackets", () => {
    const [p] = problems("{{ [1, 2) }}");
    assert.equal(p.code, "syntax/unbalanced-bracket");
    assert.equal(p.message, "unexpected ')', expected ']'");
  });

  it("unterminated comment and raw", () => {
    assert.equal(problems("a {# no end")[0].code, "syntax/unterminated-comment");
    assert.equal(problems("{% raw %} no end")[0].code, "syntax/unclosed-raw");
  });

  it("unexpected characters", () => {
    const [p] = problems("{{ a $ b }}");
    assert.equal(p.text, "$");
    assert.equal(p.message, "unexpected char '$'");
  });

  it("invalid assignment targets and signatures", () => {
    assert.equal(problems("{% set 1 = 2 %}")[0].message, "can't assign to 'const'");
    assert.equal(problems("{% macro m(a=1, b) %}{% endmacro %}")[0].message, "non-default argument follows default argument");
    assert.equal(problems("{% call foo %}{% endcall %}")[0].message, "expected call");
  });

  it("an empty output tag says an expression is missing", () => {
    const [p] = problems("{{ }}");
    assert.equal(p.code, "syntax/missing-expression");
  });
});
