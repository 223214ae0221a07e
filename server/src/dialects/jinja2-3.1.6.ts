// Python Jinja2 3.1.6 as HF transformers configures it for chat templates — the reference engine
// (what `pip install transformers` brings today). jinja2-3.1.2.ts is the version before it.
//
// Evidence: jinja2 3.1.6 source (compiler.py, runtime.py, sandbox.py, filters.py, tests.py) and
// transformers' chat_template_utils (ImmutableSandboxedEnvironment(trim_blocks=True,
// lstrip_blocks=True), loopcontrols, the `generation` tag, HF's tojson, raise_exception,
// strftime_now); checked against ../shared/peer-suites/jinja2.json (Jinja2 3.1.6's own test suite,
// rendered in that configuration) and, by test/unit/interpreter/differential.test.ts, against the
// installed Python jinja2 on generated templates.
import {
  arith,
  compare,
  concat,
  type Dialect,
  dictMethods,
  Fault,
  floatMethods,
  getattr,
  getitem,
  hfGlobals,
  intMethods,
  iterate,
  jinjaGlobals,
  listMethods,
  neg,
  type Operators,
  own,
  pos,
  type Refusal,
  sequenceFilters,
  slice,
  stringFilters,
  strMethods,
  strValue,
  tests,
  truthy,
  tupleMethods,
  unpack,
  valueFilters,
} from "../interpreter/kit";
import { within } from "../parser";
import { compileRefusal } from "./jinja2/compileChecks";
import { loopControlRefusal } from "./jinja2/loopControl";
import type * as A from "../parser";

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
  if (node.kind !== "Filter" && node.kind !== "Test") return compileRefusal(node) ?? loopControlRefusal(node, ancestors);
  const table = node.kind === "Filter" ? self.filters : self.tests;
  if (own<unknown>(table, node.name) || inSoftFrame(node, ancestors)) return null;
  const what = node.kind === "Filter" ? "filter" : "test";
  return {
    when: "parse",
    code: node.kind === "Filter" ? "runtime/unknown-filter" : "runtime/unknown-test",
    message: `TemplateAssertionError: No ${what} named '${node.name}'.`,
  };
}

/** The Jinja2 release the `jinja2` dialect reproduces. */
export const JINJA2_REFERENCE_VERSION = "3.1.6";

export const jinja2_3_1_6: Dialect = {
  engine: "jinja2",
  version: `Jinja2 ${JINJA2_REFERENCE_VERSION} (HF transformers ImmutableSandboxedEnvironment)`,
  evidence:
    "jinja2 3.1.6 source; ../shared/peer-suites/jinja2.json (Jinja2 3.1.6's test suite); differential test against the installed python3 jinja2",
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
