// Python Jinja2 3.1.2 in the same HF configuration: the version the conformance corpus
// (../shared/corpus/expected/jinja2) was rendered with, and what older installs of transformers
// have. It is Jinja2 3.1.6 except where 3.1.3–3.1.6 changed behaviour (each difference is one of
// the `alt` expectations of ../shared/peer-suites/jinja2.json, 3.1.2's rendering of those cases):
// - the immutable sandbox lets list.pop and list.clear through (3.1.5 refuses them);
// - `xmlattr` writes any key (3.1.3/3.1.4 refuse whitespace, `/`, `>` and `=` in a key);
// - `|int` raises the OverflowError of int(float('1e10000')) (3.1.3 gives the default);
// - `{% set ns.a, ns.b = … %}` does not parse (3.1.4's parser takes namespace refs in a tuple);
// - a name set in every branch of an if/elif/else can start its frame undefined (see jinja2/branchStores.ts).
import { type Dialect, doInt, doXmlattr, listClear, listPop, type Refusal } from "../interpreter/kit";
import type * as A from "../parser";
import { branchStoreShadows } from "./jinja2/branchStores";
import { jinja2_3_1_6 } from "./jinja2-3.1.6";

/** parse_assign_target before 3.1.4 took `ns.attr` only as the whole target: a tuple stops at its first `.` or after it. */
function namespaceTuple(node: A.Node): Refusal | null {
  if ((node.kind !== "Set" && node.kind !== "SetBlock") || node.target.kind !== "Tuple") return null;
  const items = node.target.items;
  const at = items.findIndex((x) => x.kind === "GetAttr");
  if (at < 0) return null;
  const got = at === 0 ? "," : ".";
  return {
    when: "parse",
    code: "syntax/unexpected-token",
    message: `TemplateSyntaxError: expected token 'end of statement block', got '${got}'`,
  };
}

export const jinja2_3_1_2: Dialect = {
  ...jinja2_3_1_6,
  engine: "jinja2-3.1.2",
  version: "Jinja2 3.1.2 (HF transformers ImmutableSandboxedEnvironment)",
  evidence:
    "jinja2 3.1.2 source; ../shared/corpus/expected/jinja2 (rendered by Jinja2 3.1.2); the Jinja2 3.1.2 `alt` expectations of ../shared/peer-suites/jinja2.json",
  refuse: (node, ancestors, self, source) => namespaceTuple(node) ?? jinja2_3_1_6.refuse(node, ancestors, self, source),
  frameUndefined: branchStoreShadows,
  filters: { ...jinja2_3_1_6.filters, int: doInt(true), xmlattr: doXmlattr(false) },
  methods: { ...jinja2_3_1_6.methods, list: { ...jinja2_3_1_6.methods.list, pop: listPop, clear: listClear } },
};
