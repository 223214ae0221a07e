import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jinja2_3_1_2 } from "../../../server/src/dialects";
import { run } from "./renderHelper";

const JS_NAMES = [
  "constructor",
  "__proto__",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "__defineGetter__",
  "call",
  "apply",
  "bind",
  "length",
  "name",
];

describe("sandbox: templates reach nothing of the host", () => {
  it("no JS property of any value is reachable, by attribute or by item", () => {
    const subjects = [
      "''",
      "'abc'",
      "[]",
      "{}",
      "1",
      "1.5",
      "none",
      "true",
      "range",
      "namespace",
      "raise_exception",
      "namespace()",
      "range(3)",
      "'a'.upper",
      "x",
      "d",
      "d.items()",
      "(1, 2)",
    ];
    for (const s of subjects) {
      for (const n of JS_NAMES) {
        for (const expr of [`${s}.${n}`, `${s}['${n}']`]) {
          const r = run(`{{ (${expr}) is defined }}|{{ ${expr} }}`, '{"d": {"a": 1}}');
          if (r.error) {
            assert.match(r.error.code, /^runtime\//, `${expr}: ${r.error.message}`);
            continue;
          }
          const shown = r.output.split("|")[1];
          assert.ok(!/function|native code|\[object|=>/.test(shown), `${expr} leaked ${shown}`);
        }
      }
    }
  });

  it("a context key named like a JS internal is just a key", () => {
    assert.equal(
      run("{{ __proto__ }}-{{ d.constructor }}-{{ d['__proto__'] }}", '{"__proto__": 1, "d": {"constructor": 2, "__proto__": 3}}').output,
      "1-2-3",
    );
  });

  it("constructors cannot be chained into code", () => {
    for (const t of [
      "{{ ''.constructor.constructor('return process')() }}",
      "{{ [].constructor.constructor('return 1')() }}",
      "{{ range.constructor('x') }}",
    ]) {
      const r = run(t);
      assert.equal(r.error?.code, "runtime/undefined", t);
    }
  });

  it("Python's dunder attributes are unsafe, as in the sandbox: empty when printed, SecurityError when used", () => {
    assert.equal(run("[{{ ''.__class__ }}{{ [].__len__ }}{{ x.__dict__ }}]", '{"x": {}}').output, "[]");
    const r = run("{{ ''.__class__.__mro__ }}");
    assert.equal(r.error?.code, "runtime/security");
    assert.equal(r.error?.message, "SecurityError: access to attribute '__class__' of 'str' object is unsafe.");
  });

  it("names of filters, tests and globals are looked up as own names only", () => {
    for (const n of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      assert.equal(run(`{{ 1 | ${n} }}`).error?.code, "runtime/unknown-filter", n);
      assert.equal(run(`{{ 1 is ${n} }}`).error?.code, "runtime/unknown-test", n);
      assert.equal(run(`[{{ ${n} }}]`).output, "[]", n);
    }
  });

  it("the immutable sandbox refuses mutating methods, list.pop and list.clear too since 3.1.5", () => {
    for (const [t, attr, type] of [
      ["{% set l = [] %}{{ l.append(1) }}", "append", "list"],
      ["{% set l = [1, 2] %}{{ l.pop() }}", "pop", "list"],
      ["{{ [1].clear() }}", "clear", "list"],
      ["{{ [2, 1].sort() }}", "sort", "list"],
      ["{% set d = {} %}{{ d.update({'a': 1}) }}", "update", "dict"],
      ["{{ {'a': 1}.pop('a') }}", "pop", "dict"],
      ["{{ {}.setdefault('a', 1) }}", "setdefault", "dict"],
    ]) {
      const r = run(t);
      assert.equal(r.error?.message, `SecurityError: access to attribute '${attr}' of '${type}' object is unsafe.`, t);
    }
  });

  it("Jinja2 3.1.2 lets list.pop and list.clear through", () => {
    assert.equal(run("{% set l = [1, 2] %}{{ l.pop() }}{{ l }}", "{}", undefined, jinja2_3_1_2).output, "2[1]");
    assert.equal(run("{% set l = [1, 2] %}{{ l.clear() }}{{ l }}", "{}", undefined, jinja2_3_1_2).output, "None[]");
    assert.equal(run("{% set l = [1, 2] %}{{ l.append(3) }}", "{}", undefined, jinja2_3_1_2).error?.code, "runtime/security");
  });
});
