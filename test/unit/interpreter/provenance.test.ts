import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type * as A from "../../../server/src/parser/ast";
import { walk } from "../../../server/src/parser/walk";
import { run } from "./renderHelper";

function nodesById(t: A.Template): Map<number, A.Node> {
  const m = new Map<number, A.Node>();
  walk(t, (n) => m.set(n.id, n));
  return m;
}

describe("provenance: every chunk of output names the node that produced it", () => {
  const template = "Hi {{ name }}!\n{% for m in msgs %}[{{ m.role }}]{% endfor %}{% macro tag(x) %}<{{ x }}>{% endmacro %}{{ tag('b') }}";
  const r = run(template, '{"name": "Ann", "msgs": [{"role": "user"}, {"role": "bot"}]}');

  it("renders", () => assert.equal(r.output, "Hi Ann!\n[user][bot]<b>"));

  it("chunks tile the output in order, without gaps or overlaps", () => {
    let at = 0;
    for (const c of r.chunks) {
      assert.equal(c.start, at);
      assert.ok(c.end > c.start);
      at = c.end;
    }
    assert.equal(at, r.output.length);
  });

  it("each chunk's bytes come from its node: template text from a Text node, values from their {{ }}", () => {
    const nodes = nodesById(r.doc.template);
    for (const c of r.chunks) {
      const node = nodes.get(c.nodeId)!;
      assert.ok(node, `node ${c.nodeId}`);
      assert.deepEqual([c.sourceStart, c.sourceEnd], [node.start, node.end]);
      const bytes = r.output.slice(c.start, c.end);
      const source = template.slice(c.sourceStart, c.sourceEnd);
      if (node.kind === "Text") assert.equal(bytes, node.value);
      else assert.equal(node.kind, "Output", `${bytes} from ${source}`);
    }
    const role = r.chunks.filter((c) => template.slice(c.sourceStart, c.sourceEnd) === "{{ m.role }}");
    assert.deepEqual(
      role.map((c) => r.output.slice(c.start, c.end)),
      ["user", "bot"],
    );
  });

  it("a macro's output printed by {{ m() }} keeps the provenance of the macro's own nodes", () => {
    const inside = r.chunks.filter((c) => c.start >= r.output.indexOf("<b>"));
    assert.deepEqual(
      inside.map((c) => template.slice(c.sourceStart, c.sourceEnd)),
      ["<", "{{ x }}", ">"],
    );
  });

  it("caller() output is traced into the call block's body", () => {
    const t = "{% macro w() %}({{ caller() }}){% endmacro %}{% call w() %}in{% endcall %}";
    const q = run(t);
    assert.equal(q.output, "(in)");
    assert.deepEqual(
      q.chunks.map((c) => t.slice(c.sourceStart, c.sourceEnd)),
      ["(", "in", ")"],
    );
  });
});
