// Constructs through which a template reaches Python itself rather than its data: names the Jinja2
// sandbox refuses (anything starting with `_`: `__class__`, `__globals__`, `__builtins__`…), however
// the name is written or built; Python builtins no Jinja environment defines (`eval`, `getattr`,
// `__import__`); process and module calls (`os.system`, `popen`, `subprocess.Popen`); and loading
// other template files. A chat template needs none of these; an unsandboxed Jinja2 (a known CVE
// class of GGUF templates) turns them into code execution on the machine that renders the prompt.
import type { Diagnostic, TemplateDocument } from "../../document";
import type * as A from "../../parser";
import { walk } from "../../parser";
import { boundNames } from "../boundNames";
import { constantEnv, constantString, expressionSource, type ConstantEnv } from "./constantValues";
import { conversationGate } from "./gating";

/** Jinja2's own gadgets: globals whose Python internals lead to `__globals__` and `__builtins__`. */
const GADGETS = new Set([
  "cycler",
  "joiner",
  "lipsum",
  "namespace",
  "range",
  "dict",
  "self",
  "config",
  "request",
  "url_for",
  "get_flashed_messages",
]);
/** Python builtins that no Jinja environment defines: called only where the sandbox is already gone. */
const PYTHON_BUILTINS = new Set([
  "eval",
  "exec",
  "compile",
  "getattr",
  "setattr",
  "delattr",
  "hasattr",
  "__import__",
  "open",
  "globals",
  "locals",
  "vars",
  "breakpoint",
  "input",
]);
/** Python modules a template can only name after escaping. */
const MODULES = new Set(["os", "sys", "subprocess", "builtins", "importlib", "socket", "shutil", "pty", "posix", "nt"]);
/** Functions that run a process or code, by the name they are called through. */
const EXECUTORS = new Set([
  "system",
  "popen",
  "Popen",
  "spawnl",
  "spawnv",
  "spawnlp",
  "spawnvp",
  "execl",
  "execv",
  "execve",
  "execvp",
  "execlp",
  "check_output",
  "check_call",
  "getoutput",
  "getstatusoutput",
  "eval",
  "exec",
  "__import__",
  "import_module",
  "run_path",
]);
/** Filters whose first argument names an attribute; others take one as `attribute=` (`map`, `sort`, `sum`…). */
const ATTRIBUTE_ARG_FILTERS = new Set(["attr", "selectattr", "rejectattr", "groupby"]);

interface Access {
  /** The name reached, as the template runs it. */
  name: string;
  /** How the template spells it, when it is built rather than written (`'__glob' ~ 'als__'`). */
  builtFrom: string | null;
}

function nameOf(e: A.Expr, env: ConstantEnv, doc: TemplateDocument): Access | null {
  const name = constantString(e, env, doc);
  if (name === null) return null;
  return { name, builtFrom: e.kind === "Str" ? null : expressionSource(e, doc) };
}

/** The names a node reaches on its object: an attribute, a subscript key, `|attr(…)`, `getattr(o, …)`, format fields. */
function accessesOf(n: A.Node, env: ConstantEnv, doc: TemplateDocument): Access[] {
  switch (n.kind) {
    case "GetAttr":
      return n.numeric ? [] : [{ name: n.attr, builtFrom: null }];
    case "GetItem": {
      if (n.index.kind === "Slice") return [];
      const a = nameOf(n.index, env, doc);
      return a ? [a] : [];
    }
    case "Filter": {
      const args = [
        ...(ATTRIBUTE_ARG_FILTERS.has(n.name) ? n.args.slice(0, 1) : []),
        ...n.kwargs.filter((k) => k.name === "attribute").map((k) => k.value),
      ];
      return args.flatMap((e) => {
        const a = nameOf(e, env, doc);
        // `map(attribute='a.b')` and friends follow dotted paths
        return a ? a.name.split(".").map((name) => ({ name, builtFrom: a.builtFrom })) : [];
      });
    }
    case "Call": {
      if (n.callee.kind === "Name" && ["getattr", "setattr", "hasattr", "delattr"].includes(n.callee.name)) {
        const arg = n.args[1] ?? n.kwargs.find((k) => k.name === "name")?.value;
        const a = arg ? nameOf(arg, env, doc) : null;
        return a ? [a] : [];
      }
      if (n.callee.kind === "GetAttr" && (n.callee.attr === "format" || n.callee.attr === "format_map")) {
        const fmt = constantString(n.callee.object, env, doc);
        if (fmt === null) return [];
        // `'{0.__class__}'.format(x)`: str.format follows attribute and index paths in its fields
        return [...fmt.matchAll(/\{[^{}!:]*?[.[]\s*(_[^.[\]{}!:]*)/g)].map((m) => ({ name: m[1], builtFrom: fmt }));
      }
      return [];
    }
  }
  return [];
}

/** The name a call goes through: `f(…)`, `x.f(…)`, `x['f'](…)`. */
function calleeName(n: A.Call, env: ConstantEnv, doc: TemplateDocument): string | null {
  const c = n.callee;
  if (c.kind === "Name") return c.name;
  if (c.kind === "GetAttr") return c.attr;
  if (c.kind === "GetItem" && c.index.kind !== "Slice") return constantString(c.index, env, doc);
  return null;
}

/** The first object of a postfix chain (`a` of `a.b['c'](d)|attr('e')`). */
function chainRoot(e: A.Expr): A.Expr {
  for (;;) {
    if (e.kind === "GetAttr" || e.kind === "GetItem") e = e.object;
    else if (e.kind === "Call") e = e.callee;
    else if (e.kind === "Filter" && e.expr) e = e.expr;
    else return e;
  }
}

/** The outermost postfix chain a node belongs to, so one chain of five dunders is one finding. */
function outermostChain(n: A.Node, ancestors: readonly A.Node[]): A.Node {
  let top = n;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i];
    const linked =
      ((a.kind === "GetAttr" || a.kind === "GetItem") && a.object === top) ||
      (a.kind === "Call" && a.callee === top) ||
      (a.kind === "Filter" && a.expr === top);
    if (!linked) break;
    top = a;
  }
  return top;
}

interface ChainFinding {
  chain: A.Node;
  code: string;
  /** What the chain does, with where in the source, so the message reads in source order. */
  reasons: { at: number; text: string }[];
  gate: A.Expr | null;
}

const quote = (a: Access): string => (a.builtFrom ? `\`${a.name}\` (built from \`${a.builtFrom}\`)` : `\`${a.name}\``);

export function pythonReachFindings(doc: TemplateDocument): Diagnostic[] {
  const env = constantEnv(doc);
  const bound = boundNames(doc);
  const source = doc.text;
  const byChain = new Map<A.Node, ChainFinding>();
  const out: Diagnostic[] = [];
  const note = (n: A.Node, ancestors: readonly A.Node[], code: string, reason: string): void => {
    const chain = outermostChain(n, ancestors);
    let f = byChain.get(chain);
    if (!f) byChain.set(chain, (f = { chain, code, reasons: [], gate: conversationGate(chain, ancestors) }));
    if (code === "security/code-execution") f.code = code;
    if (!f.reasons.some((r) => r.text === reason)) f.reasons.push({ at: n.kind === "GetAttr" ? n.attrSpan.start : n.end, text: reason });
  };
  walk(doc.template, (n, ancestors) => {
    if (n.kind === "Include" || n.kind === "Import" || n.kind === "FromImport" || n.kind === "Extends") {
      out.push({
        start: n.start,
        end: n.end,
        severity: "error",
        code: "security/template-loading",
        engine: null,
        message:
          "loads another template file: a chat template is self-contained (HF transformers and llama.cpp have no loader and throw); where a loader exists this reads files from the rendering machine",
      });
      return;
    }
    for (const a of accessesOf(n, env, doc)) {
      if (!a.name.startsWith("_")) continue;
      note(n, ancestors, "security/private-name", `reaches ${quote(a)}`);
    }
    if (n.kind === "Call") {
      const name = calleeName(n, env, doc);
      if (name && n.callee.kind === "Name" && PYTHON_BUILTINS.has(name) && !bound.has(name)) {
        note(n, ancestors, "security/code-execution", `calls Python's \`${name}\`, which no Jinja environment defines`);
      } else if (name && n.callee.kind !== "Name" && EXECUTORS.has(name)) {
        note(n, ancestors, "security/code-execution", `calls \`${name}\`, which runs code or a process`);
      }
    }
    if ((n.kind === "GetAttr" || n.kind === "GetItem" || n.kind === "Call") && ancestors.length) {
      const root = chainRoot(n);
      const parent = ancestors[ancestors.length - 1];
      const isTop =
        !((parent.kind === "GetAttr" || parent.kind === "GetItem") && parent.object === n) &&
        !(parent.kind === "Call" && parent.callee === n);
      if (isTop && root.kind === "Name" && MODULES.has(root.name) && !bound.has(root.name)) {
        note(n, ancestors, "security/code-execution", `uses Python's \`${root.name}\` module`);
      }
    }
  });
  for (const f of byChain.values()) {
    const root = chainRoot(f.chain as A.Expr);
    const gadget = root.kind === "Name" && GADGETS.has(root.name) && !bound.has(root.name) ? ` from the Jinja global \`${root.name}\`` : "";
    const why =
      f.code === "security/code-execution"
        ? "code execution on the machine that renders the prompt"
        : "Python internals a sandboxed Jinja2 refuses and an unsandboxed one turns into code execution (the CVE-2024-34359 class of GGUF templates)";
    const gated = f.gate
      ? ` It runs only when the test \`${source.slice(f.gate.start, f.gate.end)}\` holds, so renders with sample inputs never reach it.`
      : "";
    out.push({
      start: f.chain.start,
      end: f.chain.end,
      severity: "error",
      code: f.code,
      engine: null,
      message: `${f.reasons
        .sort((a, b) => a.at - b.at)
        .map((r) => r.text)
        .join(", ")}${gadget}: ${why}.${gated}`,
    });
  }
  return out;
}
