// Python Jinja2 3.1.2 as HF transformers configures it for chat templates — the reference engine.
//
// Evidence: jinja2 3.1.x source (compiler.py, runtime.py, sandbox.py, filters.py, tests.py) and
// transformers' chat_template_utils (ImmutableSandboxedEnvironment(trim_blocks=True,
// lstrip_blocks=True), loopcontrols, the `generation` tag, HF's tojson, raise_exception,
// strftime_now); checked byte for byte against ../shared/corpus/expected/jinja2 (rendered by
// Jinja2 3.1.2) and, by test/unit/interpreter/differential.test.ts, against the installed Python
// jinja2 on generated templates.
import { jinjaGlobals, hfGlobals } from "../interpreter/builtins/globals";
import { dictMethods, floatMethods, intMethods, listMethods, tupleMethods } from "../interpreter/builtins/containerMethods";
import { sequenceFilters } from "../interpreter/builtins/sequenceFilters";
import { stringFilters } from "../interpreter/builtins/stringFilters";
import { strMethods } from "../interpreter/builtins/strMethods";
import { tests } from "../interpreter/builtins/tests";
import { valueFilters } from "../interpreter/builtins/valueFilters";
import { Fault } from "../interpreter/errors";
import { getattr, getitem, slice } from "../interpreter/python/access";
import { compare, truthy } from "../interpreter/python/compare";
import { iterate, unpack } from "../interpreter/python/iterate";
import { arith, concat, neg, pos } from "../interpreter/python/ops";
import { strValue } from "../interpreter/python/repr";
import type * as A from "../parser/ast";
import { within } from "../interpreter/walk";
import { own, type Dialect, type Operators, type Refusal } from "./dialect";

export const pythonOps: Operators = {
  arith,
  concat,
  neg,
  pos,
  compare: (op, a, b) => compare(op, a, b),
  truthy,
  getattr,
  getitem,
  slice: (obj, start, stop, step) => slice(obj, start, stop, step),
  iterate: (v) => iterate(v),
  unpack: (v, n) => unpack(v, n),
};

/**
 * Jinja2 checks filter and test names when it compiles a template, except inside `if` blocks and
 * conditional expressions (its "soft" frames, up to the nearest loop/macro/block body), where a
 * missing one only fails if reached.
 */
function inSoftFrame(node: A.Node, ancestors: readonly A.Node[]): boolean {
  let child: A.Node = node;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i];
    switch (a.kind) {
      case "If":
      case "Conditional":
        return true;
      case "For":
        if (!within(child, a.iter)) return false;
        break;
      case "With":
        if (!a.assignments.some((x) => within(child, x.value))) return false;
        break;
      case "CallBlock":
        if (!within(child, a.call)) return false;
        break;
      case "Macro":
      case "FilterBlock":
      case "SetBlock":
      case "Generation":
      case "BlockStmt":
        return false;
    }
    child = a;
  }
  return false;
}

function refuse(node: A.Node, ancestors: readonly A.Node[], self: Dialect): Refusal | null {
  if (node.kind !== "Filter" && node.kind !== "Test") return null;
  const table = node.kind === "Filter" ? self.filters : self.tests;
  if (own<unknown>(table, node.name) || inSoftFrame(node, ancestors)) return null;
  const what = node.kind === "Filter" ? "filter" : "test";
  return { when: "parse", code: node.kind === "Filter" ? "runtime/unknown-filter" : "runtime/unknown-test", message: `TemplateAssertionError: No ${what} named '${node.name}'.` };
}

export const jinja2_3_1: Dialect = {
  engine: "jinja2",
  version: "Jinja2 3.1.2 (HF transformers ImmutableSandboxedEnvironment)",
  evidence: "jinja2 3.1 source; ../shared/corpus/expected/jinja2 (Jinja2 3.1.2); differential test against the installed python3 jinja2",
  str: (v) => strValue(v),
  text: (node) => node.value,
  refuse,
  ops: pythonOps,
  // compiler.py visit_For: the "no iteration" flag is cleared at the end of the body, so an else
  // block also runs when every iteration ended in break/continue.
  loopElse: "unless-completed",
  filters: { ...sequenceFilters, ...stringFilters, ...valueFilters },
  tests,
  methods: { str: strMethods, list: listMethods, dict: dictMethods, tuple: tupleMethods, int: intMethods, float: floatMethods },
  globals: { ...jinjaGlobals, ...hfGlobals },
  unknownFilter: (name) => new Fault("runtime/unknown-filter", "TemplateRuntimeError", `No filter named '${name}' found.`),
  unknownTest: (name) => new Fault("runtime/unknown-test", "TemplateRuntimeError", `No test named '${name}' found.`),
  errorMessage: (f) => (f.pyType ? `${f.pyType}: ${f.text}` : f.text),
};
