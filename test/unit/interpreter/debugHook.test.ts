// The debugger's hook: called before each statement (template text excepted) with its scope and macro depth,
// around each macro body, and given a runtime that reads the render as the engine sees it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dialectFor } from "../../../server/src/dialects";
import { TemplateDocument } from "../../../server/src/document";
import { type DebugHook, type DebugRuntime, render, scopeChain } from "../../../server/src/interpreter";

const SOURCE = "{% macro m(x) %}[{{ x }}]{% endmacro %}a{% for i in [1, 2] %}{{ m(i) }}{% endfor %}{{ 'end' }}";

function trace(engine: "jinja2" | "minja" | "llamacpp" | "hfjinja") {
  const events: string[] = [];
  const reads: string[] = [];
  let rt: DebugRuntime | null = null;
  const hook: DebugHook = {
    attach: (runtime) => {
      rt = runtime;
      events.push("attach");
    },
    statement: (node, scope, out, depth) => {
      events.push(`${node.kind}@${depth}`);
      if (node.kind === "Output" && depth === 1) {
        const names = scopeChain(scope).flatMap((s) => s.entries().map(([k]) => k));
        reads.push(`${names.join(",")} x=${rt!.repr(rt!.evaluate("x", scope))} out=${out.toString()}`);
      }
    },
    enter: (node, _scope, depth) => events.push(`enter ${node.kind === "Macro" ? node.name : "caller"}@${depth}`),
    leave: () => events.push("leave"),
  };
  const r = render(new TemplateDocument(SOURCE), { s: "q" }, { dialect: dialectFor(engine)!, debug: hook });
  return { r, events, reads, rt: rt! as DebugRuntime };
}

describe("interpreter debug hook", () => {
  it("is called before each statement with its macro depth, and around macro bodies", () => {
    const { r, events } = trace("jinja2");
    assert.equal(r.output, "a[1][2]end");
    assert.deepEqual(events, [
      "attach",
      "Macro@0",
      "For@0",
      "Output@0",
      "enter m@1",
      "Output@1",
      "leave",
      "Output@0",
      "enter m@1",
      "Output@1",
      "leave",
      "Output@0",
    ]);
  });

  it("evaluates in the paused scope and shows values as the engine prints them", () => {
    const { reads, rt } = trace("jinja2");
    // a macro body sees its arguments and the scope it was defined in, not its caller's loop
    assert.equal(reads[0], "x,m x=1 out=[");
    assert.equal(rt.repr("s"), "'s'");
    assert.equal(rt.str("s"), "s");
    assert.equal(trace("hfjinja").rt.repr("s"), '"s"');
    // llama.cpp prints a list's items with nothing around them
    assert.equal(trace("llamacpp").rt.repr("s"), "s");
    assert.equal(rt.truthy(rt.context.getStr("s")!), true);
  });

  it("a render without a hook gives the same output", () => {
    const plain = render(new TemplateDocument(SOURCE), { s: "q" }, { dialect: dialectFor("jinja2")! });
    assert.equal(plain.output, trace("jinja2").r.output);
  });
});
