// What an expression evaluates to when it depends on nothing but literals and the template's own
// constant `set`s: hostile templates build the names they reach for (`'__glob' ~ 'als__'`,
// `'__%s__' % 'class'`, `['__in','it__']|join`, `'__ssalc__'[::-1]`, `'_' * 2`, `|lower`, `.format`…),
// and chasing each trick with its own folding rule is how other scanners get bypassed. Instead the
// expression runs in our own Jinja2 dialect — a sandbox emulation that executes nothing — with only
// the constants bound, so every string operation Jinja2 has folds exactly as Jinja2 would run it.
import { TemplateDocument } from "../../document";
import { dialectFor } from "../../dialects";
import { render } from "../../interpreter";
import { walk } from "../../parser";
import type * as A from "../../parser";

/** A constant's value as JSON data (what `tojson` gives back). */
export type ConstantValue = unknown;
export type ConstantEnv = ReadonlyMap<string, ConstantValue>;

/** Folding never needs much: a name is a few dozen characters. */
const FOLD_LIMITS = { steps: 20_000, output: 64 * 1024 };
const NOT_CONSTANT = Symbol("not constant");

function freeNames(e: A.Expr): string[] {
  const names: string[] = [];
  walk(e, (n) => {
    if (n.kind === "Name") names.push(n.name);
  });
  return names;
}

/** Whether the expression can only depend on literals and `env`: no other names, no calls of names. */
function foldable(e: A.Expr, env: ConstantEnv): boolean {
  if (e.kind === "ErrorExpr") return false;
  let ok = true;
  walk(e, (n) => {
    if (n.kind === "ErrorExpr" || (n.kind === "Call" && n.callee.kind === "Name")) ok = false;
  });
  return ok && freeNames(e).every((n) => env.has(n));
}

/**
 * The expression's source, parenthesised as written: a node's span leaves out the parentheses around
 * its first operand (`('a' ~ 'b')[:1]` starts at `'a'`), so unmatched ones are restored from the tokens.
 */
export function expressionSource(e: A.Span, doc: TemplateDocument): string {
  let open = 0;
  let unmatchedClose = 0;
  const tokens = doc.tokens;
  let lo = 0;
  for (let hi = tokens.length; lo < hi;) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid].start < e.start) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < tokens.length && tokens[i].start < e.end; i++) {
    const t = tokens[i];
    if (t.end > e.end) continue;
    if (t.value === "(" && t.type === "operator") open++;
    else if (t.value === ")" && t.type === "operator") {
      if (open > 0) open--;
      else unmatchedClose++;
    }
  }
  return "(".repeat(unmatchedClose) + doc.text.slice(e.start, e.end) + ")".repeat(open);
}

function evaluate(e: A.Expr, env: ConstantEnv, doc: TemplateDocument): ConstantValue | typeof NOT_CONSTANT {
  if (e.kind === "Str") return e.value;
  if (!foldable(e, env)) return NOT_CONSTANT;
  const probe = new TemplateDocument(`{{ (${expressionSource(e, doc)})|tojson }}`);
  if (probe.problems.some((p) => p.severity === "error")) return NOT_CONSTANT;
  const r = render(probe, Object.fromEntries(env), { dialect: dialectFor("jinja2")!, limits: FOLD_LIMITS });
  if (r.error) return NOT_CONSTANT;
  try {
    return JSON.parse(r.output);
  } catch {
    return NOT_CONSTANT;
  }
}

/** The string an expression always evaluates to, or null when it is not a constant string. */
export function constantString(e: A.Expr, env: ConstantEnv, doc: TemplateDocument): string | null {
  const v = evaluate(e, env, doc);
  return typeof v === "string" ? v : null;
}

/**
 * The template's constants: names `set` (at any depth) to a value that folds, in source order. A name
 * set twice to different values is not a constant (which value holds depends on the path taken).
 */
const envs = new WeakMap<TemplateDocument, ConstantEnv>();

export function constantEnv(doc: TemplateDocument): ConstantEnv {
  let known = envs.get(doc);
  if (!known) envs.set(doc, (known = collectConstants(doc)));
  return known;
}

function collectConstants(doc: TemplateDocument): ConstantEnv {
  const env = new Map<string, ConstantValue>();
  const varying = new Set<string>();
  walk(doc.template, (n) => {
    if (n.kind !== "Set" || n.target.kind !== "Name") return;
    const name = n.target.name;
    if (varying.has(name)) return;
    const v = evaluate(n.value, env, doc);
    if (v === NOT_CONSTANT || (env.has(name) && JSON.stringify(env.get(name)) !== JSON.stringify(v))) {
      env.delete(name);
      varying.add(name);
    } else env.set(name, v);
  });
  return env;
}
