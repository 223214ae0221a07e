// What a template's own text says to the model, and what it hides from the reader: a chat template
// writes the prompt, so a sentence in it is an instruction the model obeys and the user never sees.
// Text is read as the model reads it: literals, template text, and expressions that fold to a
// constant (`'%s previous instructions' % 'ignore'`), after NFKC normalisation, so fullwidth or
// compatibility letters (`Ｉｇｎｏｒｅ`) do not hide a phrase.
import type { Diagnostic, Severity, TemplateDocument } from "../../document";
import type * as A from "../../parser";
import { walk } from "../../parser";
import { constantEnv, constantString } from "./constantValues";
import { conversationGate } from "./gating";

/** Characters that change what a reader sees without changing what the model gets (Trojan Source). */
const HIDDEN = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

interface TextRule {
  code: string;
  severity: Severity;
  pattern: RegExp;
  what: string;
}

/**
 * What no chat template needs in its own text: phrases that override or conceal instructions, Python
 * or shell code, active HTML (errors); URLs and long encoded blobs are seen in honest templates too
 * (warnings). The first rule that matches speaks.
 */
/**
 * Instructions that override others or hide themselves. A system prompt's ordinary "do not mention
 * function calls" is not one: concealing needs the instructions (or a bare "this") as its object, or a
 * "DO NOT DISCLOSE" label.
 */
const INJECTION = new RegExp(
  [
    String.raw`\b(ignore|disregard|forget)\s+(all\s+|any\s+|the\s+|your\s+)?(previous|prior|above|earlier|preceding|safety|system)\b`,
    String.raw`\b(do\s+not|don't|never)\s+(disclose|reveal|mention|repeat)\s+((this|these|those|the|your|any|such)\s+)?(system\s+prompt|instructions?|rules?|directives?|guidelines?)\b`,
    String.raw`\b(do\s+not|don't|never)\s+(disclose|reveal|mention|repeat)(\s+(this|these|it|them))?\s*([.!\]]|$)`,
    String.raw`\bkeep\s+(this|it|these)(\s+\w+)?\s+(private|secret|hidden|confidential)\b`,
    String.raw`\b(silently|quietly|secretly)\s+(append|add|insert|favou?r|include|send|omit|remove)\b`,
    String.raw`\btracking\s+pixel\b`,
    String.raw`\bmust\s+always\s+follow\s+these\s+instructions\b`,
  ].join("|"),
  "im",
);

const RULES: readonly TextRule[] = [
  {
    code: "security/prompt-injection",
    severity: "error",
    pattern: INJECTION,
    what: "tells the model to override or conceal instructions",
  },
  {
    code: "security/code-in-text",
    severity: "error",
    pattern: /__import__|\bos\.(system|popen)\b|\bsubprocess\.|\b(eval|exec)\(/,
    what: "puts Python code in the prompt",
  },
  {
    code: "security/markup",
    severity: "error",
    pattern: /<\s*(script|iframe|object|embed)\b|<img\s[^>]*src\s*=/i,
    what: "puts active HTML in the prompt",
  },
  { code: "security/url", severity: "warning", pattern: /\b(https?|ftp):\/\/[^\s'"<>)]+/i, what: "puts a URL in the prompt" },
  {
    code: "security/encoded-blob",
    severity: "warning",
    // bounded: an unbounded run overflows V8's regexp stack on a 10 MB text (a 4,096-character match says enough)
    pattern: /[A-Za-z0-9+/]{40,4096}={0,2}/,
    what: "puts a long encoded blob in the prompt",
  },
];

const strip = (s: string): string => s.replace(HIDDEN, "");

/** The text rule a string breaks, if any (the most severe first). */
export function textRuleFor(text: string): { rule: TextRule; match: string } | null {
  const normal = strip(text.normalize("NFKC"));
  for (const rule of RULES) {
    const m = rule.pattern.exec(normal);
    if (m) return { rule, match: m[0] };
  }
  return null;
}

/** A short, printable excerpt of what was matched. */
const excerpt = (s: string): string => (s.length > 60 ? s.slice(0, 57) + "…" : s);

/**
 * Whether a string literal can end up in the prompt: printed, stored, or combined into something that
 * is — not a subscript key, a compared value or a call's argument (`'__import__'` as a key is a
 * name, found by the Python rules, not text said to the model).
 */
function becomesText(str: A.Node, ancestors: readonly A.Node[]): boolean {
  let child = str;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i];
    switch (a.kind) {
      case "Output":
      case "Set":
      case "With":
        return true;
      case "Binary":
      case "Conditional":
      case "List":
      case "Tuple":
        break;
      case "Filter":
        if (a.expr !== child) return false;
        break;
      case "Call":
        // `'{} {}'.format('ignore', …)`: the arguments of a format are text too
        if (!(a.callee.kind === "GetAttr" && a.callee.attr === "format")) return false;
        break;
      default:
        return false;
    }
    child = a;
  }
  return false;
}

export function textPayloadFindings(doc: TemplateDocument): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const m of doc.text.matchAll(HIDDEN)) {
    const code = m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
    out.push({
      start: m.index!,
      end: m.index! + 1,
      severity: "error",
      code: "security/hidden-text",
      engine: null,
      message: `invisible character U+${code}: it changes what a reader of the template sees (zero-width or bidirectional override) without changing what runs`,
    });
  }
  const env = constantEnv(doc);
  const seen = new Set<string>();
  const check = (span: A.Span, text: string, ancestors: readonly A.Node[]): void => {
    const hit = textRuleFor(text);
    if (!hit) return;
    const gate = conversationGate(span, ancestors);
    const key = `${span.start}:${span.end}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (gate) {
      out.push({
        start: span.start,
        end: span.end,
        severity: "error",
        code: "security/gated-payload",
        engine: null,
        message: `${hit.rule.what} ('${excerpt(hit.match)}') only when \`${doc.text.slice(gate.start, gate.end)}\` holds: a payload hidden behind what the conversation says`,
      });
    } else {
      out.push({
        start: span.start,
        end: span.end,
        severity: hit.rule.severity,
        code: hit.rule.code,
        engine: null,
        message: `${hit.rule.what}: '${excerpt(hit.match)}'`,
      });
    }
  };
  walk(doc.template, (n, ancestors) => {
    if (n.kind === "Text") check(n, n.value, ancestors);
    else if (n.kind === "Str" && becomesText(n, ancestors)) check(n, n.value, ancestors);
    else if (n.kind === "Output" && n.expr.kind !== "Str") {
      const folded = constantString(n.expr, env, doc);
      if (folded !== null) check(n, folded, ancestors);
    } else if (n.kind === "Name" && /[^\x00-\x7F]/.test(n.name)) {
      out.push({
        start: n.start,
        end: n.end,
        severity: "warning",
        code: "security/confusable",
        engine: null,
        message: `the name \`${n.name}\` has non-ASCII letters that look like ASCII ones (homoglyphs): it is not the name it appears to be`,
      });
    }
  });
  return out;
}
