// Completion inside tags: tag names (and the end tag of the innermost open block) after `{%`,
// filters after `|`, tests after `is` / `is not`, members after `.` when the value's type is known,
// and otherwise the names in scope, the chat-template context, globals and keywords.
import type { CompletionItem, CompletionKind, Span, TemplateDocument } from "../document";
import {
  CONTEXT_VARIABLES,
  DICT_METHODS,
  EXPRESSION_KEYWORDS,
  type Fact,
  fieldsOf,
  FILTERS,
  GLOBALS,
  LOOP_VARIABLE,
  MACRO_VARIABLES,
  methodKinds,
  STR_METHODS,
  TAGS,
  TESTS,
  typeLabel,
  type ValueType,
} from "../languageFacts";
import type * as A from "../parser";
import { nodesAt, parse, type Token } from "../parser";
import { cursorAt, type Cursor } from "./cursor";
import { factDoc } from "./describe";
import { enclosing, scopesOf, visibleBindings, type Binding, type ScopeInfo } from "./scope";
import { bindingType, typeOf } from "./valueTypes";

/** Tags after which the next word names something new, so there is nothing to complete. */
const DEFINING_TAGS = new Set(["set", "for", "macro", "block"]);
/** Words that end an operand when they follow one (`x is`, `a if b else c`). */
const OPERATOR_WORDS = ["and", "or", "not", "in", "is", "if", "else"];
const KEYWORDS = new Set(EXPRESSION_KEYWORDS.map((k) => k.name));

export function doComplete(doc: TemplateDocument, offset: number): CompletionItem[] {
  const cur = cursorAt(doc.tokens, offset);
  if (!cur) return [];
  const tokens = doc.tokens;
  const prev = tokens[cur.prev];
  const before = tokens[cur.prev - 1];
  const info = scopesOf(doc.template);
  if (prev.type === "block_begin") return tagItems(doc, cur);
  if (isOp(prev, "|")) return factItems(FILTERS, "filter", cur.replace);
  if (isName(prev, "is") || (isName(prev, "not") && before && isName(before, "is"))) {
    return factItems(
      TESTS.filter((t) => /^\w+$/.test(t.name)),
      "test",
      cur.replace,
    );
  }
  if (isOp(prev, ".")) return memberItems(doc, info, cur);
  const afterTagName = cur.prev === cur.tagBegin + 1 && tokens[cur.tagBegin].type === "block_begin";
  if (afterTagName && DEFINING_TAGS.has(prev.value)) return [];
  if (!afterTagName && endsOperand(prev)) return OPERATOR_WORDS.map((w) => keywordItem(w, cur.replace));
  return nameItems(info, cur);
}

const isOp = (t: Token, op: string) => t.type === "operator" && t.value === op;
const isName = (t: Token, name: string) => t.type === "name" && t.value === name;

function endsOperand(t: Token): boolean {
  if (t.type === "string" || t.type === "integer" || t.type === "float") return true;
  if (t.type === "operator") return t.value === ")" || t.value === "]" || t.value === "}";
  return t.type === "name" && !KEYWORDS.has(t.value);
}

function factItems(facts: readonly Fact[], kind: CompletionKind, span: Span): CompletionItem[] {
  return facts.map((f) => ({ label: f.name, kind, detail: f.signature, documentation: factDoc(f, kind), span }));
}

function keywordItem(name: string, span: Span): CompletionItem {
  const fact = EXPRESSION_KEYWORDS.find((k) => k.name === name)!;
  return { label: name, kind: "keyword", documentation: factDoc(fact), span };
}

// ------------------------------------------------------------ tag names

/** Block statements that are still open at `offset`, innermost last. */
function openBlocks(doc: TemplateDocument, offset: number): (A.Stmt & A.Block)[] {
  return nodesAt(doc.template, offset).filter((n): n is A.Stmt & A.Block => "openTag" in n && n.openTag.end <= offset);
}

const TAG_OF_KIND: Partial<Record<A.Stmt["kind"], string>> = {
  If: "if",
  For: "for",
  SetBlock: "set",
  Macro: "macro",
  CallBlock: "call",
  FilterBlock: "filter",
  With: "with",
  Generation: "generation",
  BlockStmt: "block",
};

function tagItems(doc: TemplateDocument, cur: Cursor): CompletionItem[] {
  const blocks = openBlocks(doc, cur.offset);
  const inside = new Set(blocks.map((b) => TAG_OF_KIND[b.kind]));
  const items: CompletionItem[] = TAGS.filter((t) => !t.inside || t.inside.some((i) => inside.has(i))).map((t) => ({
    label: t.name,
    kind: "keyword",
    detail: t.signature,
    documentation: factDoc(t),
    span: cur.replace,
  }));
  const innermost = blocks[blocks.length - 1];
  const tag = innermost && innermost.endTag === null ? TAGS.find((t) => t.name === TAG_OF_KIND[innermost.kind]) : undefined;
  if (tag?.end) {
    // An unclosed `{% ` gets its `%}` too.
    const tagEnd = doc.tokens.slice(cur.tagBegin + 1).find((t) => t.type === "block_end" || t.type === "variable_end");
    const closed = tagEnd !== undefined && tagEnd.end > tagEnd.start;
    const line = doc.lines.lineOf(innermost.openTag.start) + 1;
    items.unshift({
      label: tag.end,
      kind: "keyword",
      detail: `closes the '${tag.name}' opened at line ${line}`,
      insertText: closed ? tag.end : `${tag.end} %}`,
      span: cur.replace,
      preselect: true,
    });
  }
  return items;
}

// ------------------------------------------------------------ members after `.`

/** The tokens of the postfix chain ending right before token `dot` (`messages[0].tool_calls`), or null. */
function objectSource(doc: TemplateDocument, dot: number): string | null {
  const tokens = doc.tokens;
  let j = dot - 1;
  let start = -1;
  while (j >= 0) {
    const t = tokens[j];
    if (t.type === "operator" && (t.value === ")" || t.value === "]")) {
      const open = t.value === ")" ? "(" : "[";
      let depth = 0;
      for (; j >= 0; j--) {
        if (isOp(tokens[j], t.value)) depth++;
        else if (isOp(tokens[j], open) && --depth === 0) break;
      }
      if (j < 0) return null;
      start = j--;
      continue;
    }
    if (t.type === "name" || t.type === "string" || (t.type === "integer" && j > 0 && isOp(tokens[j - 1], "."))) {
      start = j;
      if (j > 0 && isOp(tokens[j - 1], ".")) {
        j -= 2;
        continue;
      }
    }
    break;
  }
  return start < 0 ? null : doc.text.slice(tokens[start].start, tokens[dot].start);
}

function memberItems(doc: TemplateDocument, info: ScopeInfo, cur: Cursor): CompletionItem[] {
  const source = objectSource(doc, cur.prev);
  if (source === null) return [];
  const parsed = parse(`{{ ${source} }}`);
  const out = parsed.template.body.find((s): s is A.Output => s.kind === "Output");
  if (!out || parsed.problems.length > 0) return [];
  return membersOf(typeOf(info, out.expr, cur.offset), cur.replace);
}

function membersOf(type: ValueType | null, span: Span): CompletionItem[] {
  const items: CompletionItem[] = fieldsOf(type).map((f) => ({
    label: f.name,
    kind: f.signature ? "method" : "field",
    detail: f.signature ?? typeLabel(f.type),
    documentation: factDoc(f),
    span,
  }));
  const kinds = methodKinds(type);
  const methods = [...(kinds.dict ? DICT_METHODS : []), ...(kinds.str ? STR_METHODS : [])];
  for (const m of methods) items.push({ label: m.name, kind: "method", detail: m.signature, documentation: factDoc(m, "method"), span });
  return items;
}

// ------------------------------------------------------------ names

const BINDING_KIND: Record<Binding["kind"], CompletionKind> = {
  macro: "macro",
  variable: "variable",
  namespace: "variable",
  "loop-variable": "variable",
  parameter: "variable",
};

function nameItems(info: ScopeInfo, cur: Cursor): CompletionItem[] {
  const span = cur.replace;
  const items: CompletionItem[] = [];
  const seen = new Set<string>();
  const add = (item: CompletionItem) => {
    if (seen.has(item.label)) return;
    seen.add(item.label);
    items.push(item);
  };
  for (const b of visibleBindings(info, cur.offset)) {
    // A name never completes to the binding it is defining (`{% set x = x` is the only case).
    if (cur.word && b.nameSpan.start === cur.word.start) continue;
    const type = bindingType(info, b);
    const detail =
      b.kind === "macro" && b.node.kind === "Macro"
        ? `${b.name}(${b.node.params.map((p) => p.name).join(", ")})`
        : type
          ? typeLabel(type)
          : b.kind;
    add({ label: b.name, kind: BINDING_KIND[b.kind], detail, span });
  }
  if (enclosing(info, cur.offset, "For"))
    add({ label: "loop", kind: "variable", detail: typeLabel(LOOP_VARIABLE.type), documentation: factDoc(LOOP_VARIABLE), span });
  if (enclosing(info, cur.offset, "Macro"))
    for (const f of MACRO_VARIABLES) add({ label: f.name, kind: "variable", detail: f.signature, documentation: factDoc(f), span });
  for (const f of CONTEXT_VARIABLES) add({ label: f.name, kind: "variable", detail: typeLabel(f.type), documentation: factDoc(f), span });
  for (const f of GLOBALS) add({ label: f.name, kind: "function", detail: f.signature, documentation: factDoc(f), span });
  for (const k of ["not", "true", "false", "none"]) add(keywordItem(k, span));
  return items;
}
