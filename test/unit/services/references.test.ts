import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findReferences } from "../../../server/src/services/references";
import { atCursor } from "../../helpers/cursor";

/** Each reference as `text@offset:kind`, in text order. */
function refs(src: string): string[] | null {
  const { doc, offset } = atCursor(src);
  return findReferences(doc, offset)?.map((r) => `${doc.text.slice(r.start, r.end)}@${r.start}:${r.kind}`) ?? null;
}

describe("references", () => {
  it("a macro: its name and every call, also one above the definition", () => {
    assert.deepEqual(refs("{{ m(1) }}{% macro ‸m(x) %}{{ x }}{% endmacro %}{{ m(2) }}"), ["m@3:read", "m@19:write", "m@50:read"]);
  });

  it("a macro parameter: only inside its macro", () => {
    assert.deepEqual(refs("{% macro m(x‸) %}{{ x }}{{ x | trim }}{% endmacro %}{{ x }}"), ["x@11:write", "x@19:read", "x@26:read"]);
  });

  it("a macro parameter: the keyword arguments that name it at calls, also from the call site", () => {
    const src = "{% macro m(x, y) %}{{ x }}{% endmacro %}{{ m(y=1, x‸=2) }}{% call m(x=3) %}{% endcall %}{{ n(x=4) }}";
    assert.deepEqual(refs(src), ["x@11:write", "x@22:read", "x@50:read", "x@67:read"]);
    assert.deepEqual(refs(src.replace("‸", "").replace("{{ x }}", "{{ x‸ }}")), ["x@11:write", "x@22:read", "x@50:read", "x@67:read"]);
  });

  it("set variables follow Jinja2's scoping: a set inside a for is another variable", () => {
    const src = "{% set y = 1 %}{% for i in r %}{% set y = i %}{{ y }}{% endfor %}{{ y‸ }}";
    assert.deepEqual(refs(src), ["y@7:write", "y@68:read"]);
    const inner = "{% set y = 1 %}{% for i in r %}{% set y = i %}{{ y‸ }}{% endfor %}{{ y }}";
    assert.deepEqual(refs(inner), ["y@38:write", "y@49:read"]);
    assert.deepEqual(
      refs("{% set y = 1 %}{% if a %}{% set y = 2 %}{% endif %}{{ y‸ }}"),
      ["y@7:write", "y@32:write", "y@54:read"],
      "if is no scope",
    );
  });

  it("loop variables", () => {
    assert.deepEqual(refs("{% for m‸ in messages %}{{ m.role }}{% endfor %}{{ m }}"), ["m@7:write", "m@26:read"]);
  });

  it("namespace attributes: the namespace(…) keyword, each set ns.x and each read", () => {
    const src = "{% set ns = namespace(found=false) %}{% for m in ms %}{% set ns.found = true %}{% endfor %}{{ ns.fo‸und }}{{ ns.other }}";
    assert.deepEqual(refs(src), ["found@22:write", "found@64:write", "found@97:read"]);
    assert.deepEqual(refs(src.replace("‸", "").replace("(found", "(fo‸und")), ["found@22:write", "found@64:write", "found@97:read"]);
  });

  it("nothing for a context variable or a builtin", () => {
    assert.equal(refs("{{ mess‸ages }}"), null);
    assert.equal(refs("{{ x | tr‸im }}"), null);
  });
});
