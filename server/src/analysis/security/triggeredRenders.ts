// Payloads that only the conversation can trigger: the template runs (in our Jinja2 dialect, which
// executes nothing, with lists as changeable as an unsandboxed Jinja2 has them) on conversations built to take the branches it guards — each string it
// compares with a message's content or role, and a long conversation — with a canary in every
// message, and the output is read as the model would read it. An instruction that appears only under
// a trigger is a gated payload; the canary inside a URL or an HTML comment is the conversation
// being smuggled out (a link or image the client fetches, or text the user never sees).
import type { Diagnostic, Span, TemplateDocument } from "../../document";
import { type Chunk, render } from "../../interpreter";
import { DEFAULT_SPECIAL_TOKENS } from "../scenario";
import { walk } from "../../parser";
import { CHECK_LIMITS, CHECK_NOW } from "../scenarios";
import { textRuleFor } from "./textPayloads";
import { unsandboxedProbe } from "./unsandboxedDialect";

const CANARY = "cts-canary-7f3e";
const MAX_TRIGGERS = 8;
/** What every conversation already has: comparing with these opens no hidden branch. */
const ORDINARY = new Set([
  "system",
  "user",
  "assistant",
  "tool",
  "function",
  "ipython",
  "developer",
  "text",
  "image",
  "tool_call",
  "tool_calls",
  "content",
  "role",
  "name",
]);

const message = (role: string, content: string) => ({ role, content });
const conversation = (content: (i: number) => string, role?: string) => ({
  ...DEFAULT_SPECIAL_TOKENS,
  add_generation_prompt: true,
  messages: [
    message(role ?? "system", content(0)),
    message(role ?? "user", content(1)),
    message(role ?? "assistant", content(2)),
    message(role ?? "user", content(3)),
  ],
});

/** The strings the template compares something with: the values its branches wait for. */
function comparedStrings(doc: TemplateDocument): string[] {
  const found = new Set<string>();
  walk(doc.template, (n) => {
    if (n.kind === "Compare") for (const e of [n.left, ...n.ops.map((o) => o.right)]) if (e.kind === "Str" && e.value) found.add(e.value);
    if (n.kind === "Call" && n.callee.kind === "GetAttr" && ["startswith", "endswith"].includes(n.callee.attr) && n.args[0]?.kind === "Str")
      found.add(n.args[0].value);
  });
  return [...found].filter((s) => !ORDINARY.has(s)).slice(0, MAX_TRIGGERS);
}

interface Trigger {
  label: string;
  context: Record<string, unknown>;
}

function triggers(doc: TemplateDocument): Trigger[] {
  const out: Trigger[] = [
    {
      label: "a long conversation",
      context: {
        ...conversation((i) => `${CANARY} ${i}`),
        messages: Array.from({ length: 12 }, (_, i) => message(i % 2 ? "assistant" : "user", `${CANARY} ${i}`)),
      },
    },
  ];
  for (const s of comparedStrings(doc)) {
    // the first and last message are exactly the string, the others hold it: `==`, `in` and `startswith` all take it
    out.push({ label: `a message that says '${s}'`, context: conversation((i) => (i % 3 === 0 ? s : `${s} ${CANARY}`)) });
    out.push({ label: `a message whose role is '${s}'`, context: conversation(() => CANARY, s) });
  }
  return out;
}

/** The template range that produced the output between two offsets. */
function sourceOf(chunks: readonly Chunk[], from: number, to: number): Span | null {
  const hit = chunks.filter((c) => c.end > from && c.start < to);
  if (hit.length === 0) return null;
  return { start: Math.min(...hit.map((c) => c.sourceStart)), end: Math.max(...hit.map((c) => c.sourceEnd)) };
}

/** Where the conversation's text ends up hidden or sent away: a URL or an HTML comment holding the canary. */
const EXFILTRATION = [
  /<!--(?:(?!-->)[\s\S])*cts-canary-7f3e/g,
  /\b(?:https?|ftp):\/\/[^\s"'<>]*cts-canary-7f3e/g,
  /\]\([^)\s]*cts-canary-7f3e/g,
];

export function triggeredFindings(doc: TemplateDocument): Diagnostic[] {
  const reached = new Set<string>();
  const dialect = unsandboxedProbe(reached);
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  const add = (d: Diagnostic): void => {
    const key = `${d.code}:${d.start}:${d.end}`;
    if (!seen.has(key)) {
      out.push(d);
      seen.add(key);
    }
  };
  const run = (t: Trigger) => render(doc, t.context, { dialect, now: CHECK_NOW, limits: CHECK_LIMITS });
  const base = run({ label: "", context: conversation((i) => `${CANARY} ${i}`) });
  const baseInjection = base.error ? null : textRuleFor(base.output);
  for (const t of triggers(doc)) {
    const r = run(t);
    if (r.error) continue;
    for (const pattern of EXFILTRATION) {
      for (const m of r.output.matchAll(pattern)) {
        const at = sourceOf(r.chunks, m.index!, m.index! + 4);
        if (at) {
          add({
            ...at,
            severity: "error",
            code: "security/exfiltration",
            engine: null,
            message:
              "puts the conversation's text inside a URL or an HTML comment: a link or image the client fetches sends it away, a comment hides it from the user",
          });
        }
      }
    }
    const hit = textRuleFor(r.output);
    if (!hit || hit.rule.code !== "security/prompt-injection") continue;
    const gated = !(baseInjection && baseInjection.match === hit.match);
    const idx = r.output.normalize("NFKC").indexOf(hit.match);
    const at = idx >= 0 ? sourceOf(r.chunks, idx, idx + hit.match.length) : null;
    const span = at ?? { start: 0, end: doc.text.length };
    add(
      gated
        ? {
            ...span,
            severity: "error",
            code: "security/gated-payload",
            engine: null,
            message: `${hit.rule.what} ('${hit.match}') only for ${t.label}: a payload hidden behind what the conversation says`,
          }
        : {
            ...span,
            severity: "error",
            code: "security/prompt-injection",
            engine: null,
            message: `${hit.rule.what}: the rendered prompt says '${hit.match}'`,
          },
    );
  }
  if (reached.size) {
    // Names built as the template runs (no folding sees them) are reached through a computed key.
    const at = computedKeys(doc)[0] ?? { start: 0, end: doc.text.length };
    const names = [...reached].map((n) => `\`${n}\``).join(", ");
    add({
      ...at,
      severity: "error",
      code: "security/private-name",
      engine: null,
      message: `reaches ${names} by a name the template builds as it runs (here or at another computed key): Python internals a sandboxed Jinja2 refuses and an unsandboxed one turns into code execution`,
    });
  }
  return out;
}

/** Accesses whose name is computed: where a name built at run time is used. */
function computedKeys(doc: TemplateDocument): Span[] {
  const out: Span[] = [];
  walk(doc.template, (n) => {
    if (n.kind === "GetItem" && n.index.kind !== "Str" && n.index.kind !== "Int" && n.index.kind !== "Slice")
      out.push({ start: n.start, end: n.end });
    if (n.kind === "Filter" && n.name === "attr" && n.args[0] && n.args[0].kind !== "Str") out.push({ start: n.start, end: n.end });
  });
  return out;
}
