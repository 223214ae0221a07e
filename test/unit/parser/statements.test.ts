import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type * as A from "../../../server/src/parser/ast";
import { parse } from "../../../server/src/parser/parser";
import { sexpr } from "../../helpers/sexpr";

function only<K extends A.Stmt["kind"]>(src: string, kind: K): Extract<A.Stmt, { kind: K }> {
  const r = parse(src);
  assert.deepEqual(
    r.problems.filter((p) => p.severity === "error"),
    [],
    `problems in ${src}`,
  );
  const stmts = r.template.body.filter((s) => s.kind !== "Text");
  assert.equal(stmts.length, 1, `one statement in ${src}`);
  assert.equal(stmts[0].kind, kind);
  return stmts[0] as Extract<A.Stmt, { kind: K }>;
}

describe("statements", () => {
  it("if / elif / else", () => {
    const s = only("{% if a %}A{% elif b %}B{% elif c %}C{% else %}D{% endif %}", "If");
    assert.deepEqual(
      s.branches.map((b) => sexpr(b.test)),
      ["a", "b", "c"],
    );
    assert.equal((s.orElse![0] as A.Text).value, "D");
    assert.ok(s.endTag);
  });

  it("for with tuple target, filter, recursive and else", () => {
    const s = only("{% for k, v in d.items() if v recursive %}{{ k }}{% else %}none{% endfor %}", "For");
    assert.equal(sexpr(s.target), "(tuple k v)");
    assert.equal(sexpr(s.iter), "(call (. d items))");
    assert.equal(sexpr(s.filter), "v");
    assert.equal(s.recursive, true);
    assert.equal(s.orElse!.length, 1);
  });

  it("for with a parenthesised target and a conditional-looking iterable", () => {
    const s = only("{% for (a, b) in pairs %}{% endfor %}", "For");
    assert.equal(sexpr(s.target), "(tuple a b)");
    const t = only("{% for tool in tools if tool %}{% endfor %}", "For");
    assert.equal(sexpr(t.iter), "tools");
    assert.equal(sexpr(t.filter), "tool");
  });

  it("set: plain, tuple, namespace attribute, block, block with filter", () => {
    assert.equal(sexpr(only("{% set x = 1 %}", "Set").value), "1");
    const tup = only("{% set a, b = 1, 2 %}", "Set");
    assert.equal(sexpr(tup.target), "(tuple a b)");
    assert.equal(sexpr(tup.value), "(tuple 1 2)");
    assert.equal(sexpr(only("{% set ns.found = true %}", "Set").target), "(. ns found)");
    const blk = only("{% set x %}hi{% endset %}", "SetBlock");
    assert.equal(blk.filter, null);
    const f = only("{% set x | trim | upper %} hi {% endset %}", "SetBlock");
    assert.equal(sexpr(f.filter), "(|upper (|trim _))");
  });

  it("macro with defaults, call with caller arguments", () => {
    const m = only("{% macro render(item, sep=', ', n=1) %}{{ item }}{% endmacro %}", "Macro");
    assert.equal(m.name, "render");
    assert.deepEqual(
      m.params.map((p) => [p.name, sexpr(p.default)]),
      [
        ["item", "_"],
        ["sep", '", "'],
        ["n", "1"],
      ],
    );
    const c = only("{% call(x) render(1) %}{{ x }}{% endcall %}", "CallBlock");
    assert.deepEqual(
      c.params.map((p) => p.name),
      ["x"],
    );
    assert.equal(sexpr(c.call), "(call render 1)");
  });

  it("filter block, raw, generation, with, loop controls", () => {
    assert.equal(sexpr(only("{% filter upper | trim %}x{% endfilter %}", "FilterBlock").filter), "(|trim (|upper _))");
    assert.equal(only("{% raw %}{{ not parsed }}{% endraw %}", "Raw").text.value, "{{ not parsed }}");
    assert.equal(only("{% generation %}{{ m }}{% endgeneration %}", "Generation").body.length, 1);
    const w = only("{% with a = 1, b = 2 %}{{ a }}{% endwith %}", "With");
    assert.deepEqual(
      w.assignments.map((x) => sexpr(x.target)),
      ["a", "b"],
    );
    const f = only("{% for x in y %}{% if x %}{% break %}{% else %}{% continue %}{% endif %}{% endfor %}", "For");
    const inner = f.body[0] as A.If;
    assert.equal(inner.branches[0].body[0].kind, "Break");
    assert.equal(inner.orElse![0].kind, "Continue");
  });

  it("print statement and tuple output", () => {
    const r = parse("{% print a, b %}");
    assert.deepEqual(
      r.template.body.map((s) => s.kind),
      ["Output", "Output"],
    );
    assert.equal(sexpr((only("{{ a, b }}", "Output") as A.Output).expr), "(tuple a b)");
  });

  it("include/import/extends/block parse with a warning", () => {
    for (const src of [
      "{% include 'x.jinja' ignore missing with context %}",
      "{% import 'm.jinja' as m %}",
      "{% from 'm.jinja' import a, b as c %}",
      "{% extends 'base.jinja' %}",
      "{% block body scoped %}x{% endblock body %}",
    ]) {
      const r = parse(src);
      assert.deepEqual(
        r.problems.map((p) => [p.severity, p.code]),
        [["warning", "syntax/needs-loader"]],
        src,
      );
    }
  });

  it("accepts the optional colon after a block header", () => {
    only("{% for x in y: %}{% endfor %}", "For");
  });

  it("records the open and end tag ranges", () => {
    const src = "{% for x in y %}a{% endfor %}";
    const f = only(src, "For");
    assert.equal(src.slice(f.openTag.start, f.openTag.end), "{% for x in y %}");
    assert.equal(src.slice(f.endTag!.start, f.endTag!.end), "{% endfor %}");
    assert.equal(f.end, src.length);
  });

  it("gives every node a distinct id", () => {
    const r = parse("{% for x in y %}{{ x.a + 1 }}{% endfor %}");
    const ids = new Set<number>();
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object") {
        const n = v as { id?: number; kind?: string };
        if (typeof n.id === "number" && n.kind) {
          assert.ok(!ids.has(n.id), `duplicate id ${n.id}`);
          ids.add(n.id);
        }
        Object.values(v).forEach(walk);
      }
    };
    walk(r.template);
    assert.equal(ids.size, r.nodeCount);
  });
});
