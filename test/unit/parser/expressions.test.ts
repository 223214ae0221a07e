import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type * as A from "../../../server/src/parser/ast";
import { parse } from "../../../server/src/parser/parser";
import { sexpr } from "../../helpers/sexpr";

function expr(src: string): string {
  const r = parse(`{{ ${src} }}`);
  assert.deepEqual(r.problems, [], `problems in ${src}`);
  const out = r.template.body[0] as A.Output;
  assert.equal(out.kind, "Output");
  return sexpr(out.expr);
}

describe("expression precedence (Jinja2's)", () => {
  const cases: [string, string][] = [
    ["a or b and not c", "(or a (and b (not c)))"],
    ["not a == b", "(not (cmp a == b))"],
    ["1 + 2 * 3", "(+ 1 (* 2 3))"],
    ["2 ** 3 ** 2", "(** (** 2 3) 2)"],
    ["a ~ b + c", "(+ (~ a b) c)"],
    ["a + b ~ c", "(+ a (~ b c))"],
    ["a * b ~ c", "(~ (* a b) c)"],
    ["7 // 2 % 3 / 1", "(/ (% (// 7 2) 3) 1)"],
    ["-x | abs", "(|abs (- x))"],
    ["-x ** 2", "(** (- x) 2)"],
    ["- x.y", "(- (. x y))"],
    ["a < b <= c", "(cmp a < b <= c)"],
    ["a in b", "(cmp a in b)"],
    ["a not in b", "(cmp a not in b)"],
    ["not a in b", "(not (cmp a in b))"],
    ["x is defined and y", "(and (is defined x) y)"],
    ["x is not none", "(is-not none x)"],
    ["not x is defined", "(not (is defined x))"],
    ["x is divisibleby 3", "(is divisibleby x 3)"],
    ["x is sameas(y)", "(is sameas x y)"],
    ["x|length > 0", "(cmp (|length x) > 0)"],
    ["x | join(', ') | upper", '(|upper (|join x ", "))'],
    ["x|default('a', true)", '(|default x "a" true)'],
    ["a if b", "(if b a _)"],
    ["a if b else c if d else e", "(if b a (if d c e))"],
    ["(a or b) and c", "(and (or a b) c)"],
    ["x|tojson(indent=2)", "(|tojson x indent=2)"],
  ];
  for (const [src, want] of cases) it(src, () => assert.equal(expr(src), want));
});

describe("primaries and postfix", () => {
  const cases: [string, string][] = [
    ["m.content.0.type", "(. (. (. m content) #0) type)"],
    ["x[0]", "([] x 0)"],
    ["x[1:]", "([] x (: 1 _ _))"],
    ["x[::-1]", "([] x (: _ _ (- 1)))"],
    ["x[:2]", "([] x (: _ 2 _))"],
    ["x[a:b:c]", "([] x (: a b c))"],
    ["x[1, 2]", "([] x (tuple 1 2))"],
    ["f(1, a=2)", "(call f 1 a=2)"],
    ["f(*args, **kw)", "(call f *args **kw)"],
    ["f(1,)", "(call f 1)"],
    ["x.items()", "(call (. x items))"],
    ["[1, 'a', [2]]", '[1 "a" [2]]'],
    ["[]", "[]"],
    ["{'a': 1, 'b': [2],}", '{"a": 1, "b": [2]}'],
    ["(1, 2)", "(tuple 1 2)"],
    ["(1,)", "(tuple 1)"],
    ["()", "(tuple)"],
    ["a, b", "(tuple a b)"],
    ["true", "true"],
    ["True", "True"],
    ["None", "None"],
    ["'a' \"b\" 'c'", '"abc"'],
    ["loop.cycle('odd', 'even')", '(call (. loop cycle) "odd" "even")'],
    ["namespace(found=false)", "(call namespace found=false)"],
    ["(x|attr)('y')", '(call (|attr x) "y")'],
  ];
  for (const [src, want] of cases) it(src, () => assert.equal(expr(src), want));

  it("keeps the spans of each node", () => {
    const src = "{{ m.content.0.type }}";
    const out = parse(src).template.body[0] as A.Output;
    const attr = out.expr as A.GetAttr;
    assert.equal(src.slice(attr.start, attr.end), "m.content.0.type");
    const zero = attr.object as A.GetAttr;
    assert.equal(zero.numeric, true);
    assert.equal(src.slice(zero.attrSpan.start, zero.attrSpan.end), "0");
    assert.equal(src.slice(zero.start, zero.end), "m.content.0");
  });
});

describe("literals", () => {
  const cases: [string, string][] = [
    ["1_000", "1000"],
    ["0x1F", "31"],
    ["0b101", "5"],
    ["0o17", "15"],
    ["123456789012345678901234567890", "123456789012345678901234567890"],
    ["1.5", "1.5f"],
    ["1e3", "1000f"],
    ["1.5e-2", "0.015f"],
    ["1_0.2_5", "10.25f"],
    ["'\\n\\t\\\\'", JSON.stringify("\n\t\\")],
    ["'\\x41\\u00e9\\U0001F600'", JSON.stringify("Aé😀")],
    ["'\\101'", JSON.stringify("A")],
    ["'\\q'", JSON.stringify("\\q")],
    ["'it\\'s'", JSON.stringify("it's")],
    ['"say \\"hi\\""', JSON.stringify('say "hi"')],
    ["'\\é'", JSON.stringify("\\xe9")],
    ["'a\\\nb'", JSON.stringify("ab")],
    ["'\\N{CJK UNIFIED IDEOGRAPH-4E00}'", JSON.stringify("一")],
  ];
  for (const [src, want] of cases) it(src, () => assert.equal(expr(src), want));

  it("reports a truncated \\x escape at its characters", () => {
    const src = "{{ '\\x4' }}";
    const r = parse(src);
    assert.equal(r.problems.length, 1);
    assert.equal(r.problems[0].code, "syntax/invalid-escape");
    assert.equal(src.slice(r.problems[0].start, r.problems[0].end), "\\x4");
  });
});
