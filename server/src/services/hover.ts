// Hover: what the word under the cursor is — a filter, a test, a global, a chat-template context
// variable, a message or tool-call field, `loop.*`, a macro or variable of this template, a keyword.
import { securityHover } from "../analysis";
import type { Hover, Span, TemplateDocument } from "../document";
import {
  DICT_METHODS_BY_NAME,
  EXPRESSION_KEYWORDS_BY_NAME,
  type FieldFact,
  fieldsOf,
  FILTERS_BY_NAME,
  methodKinds,
  STR_METHODS_BY_NAME,
  TAGS_BY_NAME,
  TESTS_BY_NAME,
  typeLabel,
} from "../languageFacts";
import type * as A from "../parser";
import { tokenBefore } from "./cursor";
import { codeLine, factDoc, factMarkdown } from "./describe";
import { bindingDefinedAt, meaningOf, type Meaning } from "./names";
import { scopesOf, type Binding, type ScopeInfo } from "./scope";
import { bindingType, typeOf } from "./valueTypes";
import { nodesAt } from "../parser";

const within = (span: Span, offset: number) => span.start <= offset && offset <= span.end;

export function doHover(doc: TemplateDocument, offset: number): Hover | null {
  return withRisk(wordHover(doc, offset), securityHover(doc, offset));
}

/** The word's hover with the security finding there: the finding comes first, what the reader most needs to know there. */
export function withRisk(word: Hover | null, risk: Hover | null): Hover | null {
  if (!risk) return word;
  return { contents: word ? `${risk.contents}\n\n---\n\n${word.contents}` : risk.contents, span: word?.span ?? risk.span };
}

/** What the word at the cursor is, from the parse alone: runs nothing of the template. */
export function wordHover(doc: TemplateDocument, offset: number): Hover | null {
  const info = scopesOf(doc.template);
  const path = nodesAt(doc.template, offset);
  for (let i = path.length - 1; i >= 0; i--) {
    const n = path[i];
    const h = nodeHover(doc, info, n, offset);
    if (h) return h;
    // Only the innermost expression speaks for the word; statements may still own names (macro, params).
    if (n.kind === "Name" || n.kind === "Const") break;
  }
  return keywordHover(doc, offset);
}

function nodeHover(doc: TemplateDocument, info: ScopeInfo, n: A.Node, offset: number): Hover | null {
  switch (n.kind) {
    case "Filter": {
      const fact = within(n.nameSpan, offset) ? FILTERS_BY_NAME.get(n.name) : undefined;
      return fact ? { contents: factMarkdown("filter", fact), span: n.nameSpan } : null;
    }
    case "Test": {
      const fact = within(n.nameSpan, offset) ? TESTS_BY_NAME.get(n.name) : undefined;
      return fact ? { contents: factMarkdown("test", fact), span: n.nameSpan } : null;
    }
    case "GetAttr":
      return within(n.attrSpan, offset) ? memberHover(info, n) : null;
    case "Name": {
      const defined = bindingDefinedAt(info, n);
      const meaning: Meaning | null = defined ? { kind: "binding", binding: defined } : meaningOf(info, n.name, n.start);
      return meaning ? { contents: meaningMarkdown(doc, info, n.name, meaning), span: { start: n.start, end: n.end } } : null;
    }
    case "Macro":
    case "CallBlock": {
      const b = info.bindings.find((x) => x.node === n && within(x.nameSpan, offset));
      return b ? { contents: bindingMarkdown(doc, info, b), span: b.nameSpan } : null;
    }
    default:
      return null;
  }
}

function memberHover(info: ScopeInfo, n: A.GetAttr): Hover | null {
  const type = typeOf(info, n.object);
  const field: FieldFact | undefined = fieldsOf(type).find((f) => f.name === n.attr);
  if (field)
    return { contents: factMarkdown("field", field, `${field.signature ?? field.name}: ${typeLabel(field.type)}`), span: n.attrSpan };
  const kinds = methodKinds(type);
  const method = (kinds.str ? STR_METHODS_BY_NAME.get(n.attr) : undefined) ?? (kinds.dict ? DICT_METHODS_BY_NAME.get(n.attr) : undefined);
  return method ? { contents: factMarkdown("method", method), span: n.attrSpan } : null;
}

function meaningMarkdown(doc: TemplateDocument, info: ScopeInfo, name: string, m: Meaning): string {
  switch (m.kind) {
    case "binding":
      return bindingMarkdown(doc, info, m.binding);
    case "context":
      return factMarkdown("context", m.fact, `${name}: ${typeLabel(m.fact.type)}`);
    case "loop":
      return factMarkdown("loop", m.fact, `${name}: ${typeLabel(m.fact.type)}`);
    case "global":
      return factMarkdown("function", m.fact);
    case "macro-variable":
      return factMarkdown("macro variable", m.fact);
  }
}

const BINDING_LABEL: Record<Binding["kind"], string> = {
  macro: "macro",
  variable: "variable",
  namespace: "namespace",
  "loop-variable": "loop variable",
  parameter: "parameter",
};

function bindingMarkdown(doc: TemplateDocument, info: ScopeInfo, b: Binding): string {
  let header = b.name;
  if (b.kind === "macro" && b.node.kind === "Macro") {
    header += `(${b.node.params.map((p) => doc.text.slice(p.start, p.end)).join(", ")})`;
  } else if (b.kind === "namespace") {
    const attrs = info.attributes.filter((a) => a.object === b.name && a.node === b.node).map((a) => a.attr);
    header += `: namespace(${attrs.join(", ")})`;
  } else {
    const type = bindingType(info, b);
    if (type) header += `: ${typeLabel(type)}`;
  }
  const line = doc.lines.lineOf(b.nameSpan.start) + 1;
  return `${codeLine(`(${BINDING_LABEL[b.kind]}) ${header}`)}\n\nDefined at line ${line}.`;
}

/** Tag names and expression keywords, which are tokens but not AST nodes. */
function keywordHover(doc: TemplateDocument, offset: number): Hover | null {
  const i = tokenBefore(doc.tokens, offset + 1);
  const t = doc.tokens[i];
  if (!t || t.type !== "name" || offset > t.end) return null;
  const isTagName = doc.tokens[i - 1]?.type === "block_begin";
  const fact = isTagName ? TAGS_BY_NAME.get(t.value) : EXPRESSION_KEYWORDS_BY_NAME.get(t.value.toLowerCase());
  if (!fact) return null;
  const contents = isTagName ? `${codeLine(fact.signature ?? t.value)}\n\n${factDoc(fact)}` : factMarkdown("keyword", fact, t.value);
  return { contents, span: { start: t.start, end: t.end } };
}
