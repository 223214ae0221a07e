// Semantic tokens: what the TextMate grammar cannot know — whether a name is a macro, a loop
// variable, a parameter, a context variable or a global; filters and tests; attributes; and which
// words are keywords in their place. Delimiters, strings, numbers and comments stay with the grammar.
import type { SemanticToken, SemanticTokenModifier, SemanticTokenType, Span, TemplateDocument } from "../document";
import { EXPRESSION_KEYWORDS_BY_NAME, FILTERS_BY_NAME, TESTS_BY_NAME } from "../languageFacts";
import type * as A from "../parser";
import { bindingDefinedAt, meaningOf, type Meaning } from "./names";
import { scopesOf, type ScopeInfo } from "./scope";
import { walk } from "../parser";

/** Words that are keywords where the parser consumed them (and so are no AST nodes). */
const CONTEXT_KEYWORDS = new Set(["as", "with", "without", "context", "ignore", "missing", "scoped", "required", "import"]);
const CONSTANTS = new Set(["true", "false", "none"]);

export function getSemanticTokens(doc: TemplateDocument): SemanticToken[] {
  const info = scopesOf(doc.template);
  const byStart = new Map<number, SemanticToken>();
  const add = (s: Span, type: SemanticTokenType, modifiers: SemanticTokenModifier[] = []) => {
    if (s.end > s.start && !byStart.has(s.start)) byStart.set(s.start, { start: s.start, end: s.end, type, modifiers });
  };
  walk(doc.template, (n) => nodeTokens(info, n, add));
  // Every name token the AST did not claim is a word of the syntax: a tag name or a keyword
  // (the constants true/false/none are left to the grammar, which scopes them as constants).
  const tokens = doc.tokens;
  tokens.forEach((t, i) => {
    if (t.type !== "name" || byStart.has(t.start) || CONSTANTS.has(t.value)) return;
    const isTagName = tokens[i - 1]?.type === "block_begin";
    if (isTagName || EXPRESSION_KEYWORDS_BY_NAME.has(t.value) || CONTEXT_KEYWORDS.has(t.value)) add(t, "keyword");
  });
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

type Add = (s: Span, type: SemanticTokenType, modifiers?: SemanticTokenModifier[]) => void;

function nodeTokens(info: ScopeInfo, n: A.Node, add: Add): void {
  switch (n.kind) {
    case "Name": {
      const defined = bindingDefinedAt(info, n);
      if (defined) return add(n, defined.kind === "namespace" ? "namespace" : "variable", ["declaration"]);
      return nameToken(n, meaningOf(info, n.name, n.start), add);
    }
    case "Macro":
      add(n.nameSpan, "function", ["declaration"]);
      return n.params.forEach((p) => add({ start: p.start, end: p.start + p.name.length }, "parameter", ["declaration"]));
    case "CallBlock":
      return n.params.forEach((p) => add({ start: p.start, end: p.start + p.name.length }, "parameter", ["declaration"]));
    case "Filter":
      return add(n.nameSpan, "function", FILTERS_BY_NAME.has(n.name) ? ["defaultLibrary"] : []);
    case "Test":
      return add(n.nameSpan, "function", TESTS_BY_NAME.has(n.name) ? ["defaultLibrary"] : []);
    case "Call":
      if (n.callee.kind === "GetAttr") add(n.callee.attrSpan, "method");
      return n.kwargs.forEach((k) => add(k.nameSpan, "parameter"));
    case "GetAttr":
      return add(n.attrSpan, "property");
  }
}

function nameToken(n: A.Name, m: Meaning | null, add: Add): void {
  switch (m?.kind) {
    case "binding": {
      const kind = m.binding.kind;
      return add(n, kind === "macro" ? "function" : kind === "parameter" ? "parameter" : kind === "namespace" ? "namespace" : "variable");
    }
    case "context":
      return add(n, "variable", ["readonly", "defaultLibrary"]);
    case "global":
      return add(n, "function", ["defaultLibrary"]);
    case "loop":
    case "macro-variable":
      return add(n, "variable", ["defaultLibrary"]);
    default:
      return add(n, "variable");
  }
}
