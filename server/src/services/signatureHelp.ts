// Signature help: inside the parentheses of a call, the callee's signature with the parameter the cursor
// is on. Callees are the template's macros, `caller()` (the parameters of the `{% call %}` blocks that call
// the macro), filters, tests and globals, with each engine's departures from the facts tables. Works from
// tokens, like completion: the call being typed (`{{ m(a, `) rarely parses.
import type { TemplateDocument } from "../document";
import { type Fact, FILTERS_BY_NAME, TESTS_BY_NAME } from "../languageFacts";
import type * as A from "../parser";
import { type Token, walk } from "../parser";
import { tokenBefore } from "./cursor";
import { factDoc } from "./describe";
import { meaningOf } from "./names";
import { enclosing, scopesOf } from "./scope";

export interface ParameterInformation {
  /** Offsets into the signature's label. */
  label: [number, number];
}

export interface SignatureInformation {
  label: string;
  /** Markdown. */
  documentation: string;
  parameters: ParameterInformation[];
}

export interface SignatureHelp {
  signatures: SignatureInformation[];
  activeSignature: number;
  /** -1 when the cursor is on an argument no parameter takes. */
  activeParameter: number;
}

/** The open call around the cursor: its callee's name token, and which argument the cursor is in. */
interface OpenCall {
  callee: number;
  /** Positional index: the commas before the cursor at the call's depth. */
  argument: number;
  /** The keyword the current argument names (`boolean=`), or null. */
  keyword: string | null;
}

const CLOSERS = new Set([")", "]", "}"]);
const OPENERS = new Set(["(", "[", "{"]);

function openCallAt(tokens: readonly Token[], offset: number): OpenCall | null {
  let i = tokenBefore(tokens, offset);
  const last = tokens[i];
  if (!last || ((last.type === "variable_end" || last.type === "block_end") && last.end > last.start && offset >= last.end)) return null;
  let depth = 0;
  let argument = 0;
  let argStart = i + 1;
  for (; i >= 0; i--) {
    const t = tokens[i];
    if (t.type !== "operator" && t.type !== "name" && t.type !== "string" && t.type !== "integer" && t.type !== "float") return null;
    if (t.type !== "operator") continue;
    if (CLOSERS.has(t.value)) depth++;
    else if (OPENERS.has(t.value)) {
      if (depth > 0) depth--;
      else if (t.value !== "(") return null;
      else break;
    } else if (t.value === "," && depth === 0) {
      if (argument === 0) argStart = i + 1;
      argument++;
    }
  }
  if (i < 0) return null;
  if (argument === 0) argStart = i + 1;
  const callee = i - 1;
  if (tokens[callee]?.type !== "name") return null;
  const kw = tokens[argStart];
  const keyword = kw?.type === "name" && tokens[argStart + 1]?.value === "=" && tokens[argStart + 1].end <= offset ? kw.value : null;
  return { callee, argument, keyword };
}

/** A signature from a facts-table line such as `default(default_value='', boolean=false)`; alternatives are ` | `-separated. */
function signaturesOf(signature: string, documentation: string): SignatureInformation[] {
  return signature.split(" | ").map((label) => ({ label, documentation, parameters: parametersOf(label) }));
}

/** The parameters between the label's outer parentheses, split at top-level commas (optional `[…]` brackets trimmed). */
function parametersOf(label: string): ParameterInformation[] {
  const open = label.indexOf("(");
  if (open < 0) return [];
  const params: ParameterInformation[] = [];
  let depth = 0;
  let start = open + 1;
  for (let k = open + 1; k < label.length; k++) {
    const c = label[k];
    if (c === "(") depth++;
    else if (c === ")" && depth-- === 0) {
      push(start, k);
      break;
    } else if (c === "," && depth === 0) {
      push(start, k);
      start = k + 1;
    }
  }
  return params;

  function push(from: number, to: number): void {
    while (from < to && /[\s[\]]/.test(label[from])) from++;
    while (to > from && /[\s[\]]/.test(label[to - 1])) to--;
    if (to > from) params.push({ label: [from, to] });
  }
}

const paramName = (label: string, p: ParameterInformation) =>
  label
    .slice(...p.label)
    .replace(/^\*+/, "")
    .split("=")[0]
    .trim();

/** Which parameter an argument goes to: the one its keyword names, else by position (the rest to `*args`). */
function activeParameterOf(s: SignatureInformation, call: OpenCall): number {
  const names = s.parameters.map((p) => paramName(s.label, p));
  const stars = s.parameters.map((p) => s.label.slice(...p.label));
  if (call.keyword !== null) {
    const named = names.indexOf(call.keyword);
    return named >= 0 ? named : stars.findIndex((p) => p.startsWith("**"));
  }
  const index = call.argument;
  const varargs = stars.findIndex((p) => p.startsWith("*") && !p.startsWith("**"));
  if (varargs >= 0 && index >= varargs) return varargs;
  return index < s.parameters.length ? index : -1;
}

function macroSignature(doc: TemplateDocument, name: string, params: readonly A.Param[], what: string): SignatureInformation {
  let label = `${name}(`;
  const parameters: ParameterInformation[] = [];
  params.forEach((p, k) => {
    if (k > 0) label += ", ";
    const text = p.default ? `${p.name}=${doc.text.slice(p.default.start, p.default.end)}` : p.name;
    parameters.push({ label: [label.length, label.length + text.length] });
    label += text;
  });
  return { label: `${label})`, documentation: what, parameters };
}

/** `caller()` inside a macro: the parameters of each `{% call(…) %}` block that calls that macro. */
function callerSignatures(doc: TemplateDocument, macro: A.Macro): SignatureInformation[] {
  const found: SignatureInformation[] = [];
  walk(doc.template, (n) => {
    if (n.kind === "CallBlock" && n.call.callee.kind === "Name" && n.call.callee.name === macro.name) {
      const line = doc.lines.positionAt(n.start).line + 1;
      found.push(macroSignature(doc, "caller", n.params, `The body of the \`{% call %}\` of \`${macro.name}\` on line ${line}.`));
    }
  });
  return found;
}

function signaturesFor(doc: TemplateDocument, tokens: readonly Token[], call: OpenCall, offset: number): SignatureInformation[] {
  const name = tokens[call.callee].value;
  const before = tokens[call.callee - 1];
  const fromFact = (fact: Fact | undefined, what?: string) => (fact?.signature ? signaturesOf(fact.signature, factDoc(fact, what)) : []);
  if (before?.type === "operator" && before.value === "|") return fromFact(FILTERS_BY_NAME.get(name), "filter");
  if (before?.type === "name" && (before.value === "is" || (before.value === "not" && tokens[call.callee - 2]?.value === "is")))
    return fromFact(TESTS_BY_NAME.get(name), "test");
  // `x.method(`, and the parameter lists of `{% macro m(` and `{% call(` are not calls of a known callee.
  if (before?.type === "operator" && before.value === ".") return [];
  if (before?.type === "name" && before.value === "macro") return [];
  const info = scopesOf(doc.template);
  const meaning = meaningOf(info, name, offset);
  switch (meaning?.kind) {
    case "binding": {
      const node = meaning.binding.node;
      return node.kind === "Macro" && meaning.binding.kind === "macro" ? [macroSignature(doc, name, node.params, "(macro)")] : [];
    }
    case "macro-variable": {
      const macro = name === "caller" ? enclosing(info, offset, "Macro") : null;
      const callers = macro ? callerSignatures(doc, macro) : [];
      return callers.length ? callers : fromFact(meaning.fact);
    }
    case "global":
      return fromFact(meaning.fact, "global");
    default:
      return [];
  }
}

export function getSignatureHelp(doc: TemplateDocument, offset: number): SignatureHelp | null {
  const tokens = doc.tokens;
  const call = openCallAt(tokens, offset);
  if (!call) return null;
  const signatures = signaturesFor(doc, tokens, call, offset);
  if (!signatures.length) return null;
  // The facts list a filter's or test's arguments only (the value before `|` or `is` is not a parameter there).
  const actives = signatures.map((s) => activeParameterOf(s, call));
  const activeSignature = Math.max(
    0,
    actives.findIndex((a) => a >= 0),
  );
  return { signatures, activeSignature, activeParameter: actives[activeSignature] };
}
