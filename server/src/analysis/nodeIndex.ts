// Nodes of a parsed template by id or by range, with their ancestors. Render errors and output
// chunks give the range of the node behind them; the rules need the node and what encloses it
// (the loop a name comes from, …). Ranges rather than ids, because an engine with its own parser
// (llama.cpp's dialect reshapes the tree) numbers its nodes its own way.
import type { TemplateDocument } from "../document";
import type * as A from "../parser";
import { walk } from "../parser";

interface Indexed {
  node: A.Node;
  /** Outermost first, the parent last. */
  ancestors: readonly A.Node[];
}

interface Index {
  byId: Map<number, Indexed>;
  /** The innermost node of each range (a template that is one `{{ x }}` has its Output's range). */
  bySpan: Map<string, Indexed>;
}

const indexes = new WeakMap<TemplateDocument, Index>();

function index(doc: TemplateDocument): Index {
  let ix = indexes.get(doc);
  if (!ix) {
    const built: Index = { byId: new Map(), bySpan: new Map() };
    walk(doc.template, (node, ancestors) => {
      const entry = { node, ancestors: [...ancestors] };
      built.byId.set(node.id, entry);
      built.bySpan.set(`${node.start}:${node.end}`, entry);
    });
    indexes.set(doc, (ix = built));
  }
  return ix;
}

export function nodeById(doc: TemplateDocument, id: number): A.Node | undefined {
  return index(doc).byId.get(id)?.node;
}

export function ancestorsOf(doc: TemplateDocument, id: number): readonly A.Node[] {
  return index(doc).byId.get(id)?.ancestors ?? [];
}

/** The node of the template with exactly this range (the innermost one, if several). */
export function nodeAt(doc: TemplateDocument, span: A.Span): A.Node | undefined {
  return index(doc).bySpan.get(`${span.start}:${span.end}`)?.node;
}

/** The smallest node of the template that contains `offset` (an engine's error may point at a token). */
export function innermostAt(doc: TemplateDocument, offset: number): A.Node {
  let best: A.Node = doc.template;
  for (const { node } of index(doc).byId.values()) {
    if (node.start <= offset && offset < node.end && node.end - node.start < best.end - best.start) best = node;
  }
  return best;
}

/** The construct of our tree behind a range an engine reported: the node with that range, or the smallest around its start. */
export function constructAt(doc: TemplateDocument, span: A.Span): A.Node {
  return nodeAt(doc, span) ?? innermostAt(doc, span.start);
}
