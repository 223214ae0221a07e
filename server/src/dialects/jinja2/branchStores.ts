// Jinja2 3.1.2's scoping quirk for a name `set` in every branch of an if/elif/else (idtracking.py,
// Symbols.branch_update before 3.1.3): such a name keeps the load instruction of the last branch
// analysed, the else. When the else assigns it before reading it, and no enclosing frame refers
// to it, that instruction is "undefined", so the whole frame starts with the name undefined:
// `{% if c %}{{ a.b }}{% set a = 1 %}{% elif d %}{% set a = 2 %}{% else %}{% set a = 3 %}{% endif %}`
// fails on `a.b` even when the context has an `a`. 3.1.3 resolves such names from the context.
import type * as A from "../../parser";
import { walk } from "../../parser";

/** Names each frame starts with as undefined, keyed by the id of the node that opens the frame. */
export type FrameUndefined = ReadonlyMap<number, readonly string[]>;

type Seen = "load" | "store";

/** The names some enclosing frame refers to: a chain of the frames' own sets, since copying them into one set per frame is quadratic in a template of 200,000 macros. */
interface Names {
  has(name: string): boolean;
}

/** What one frame refers to, in Jinja2's analysis order (FrameSymbolVisitor). */
class FrameSymbols {
  readonly refs: Set<string>;
  readonly stores: Set<string>;
  /** The first use of each name this frame had not seen before (for a branch copy). */
  readonly first = new Map<string, Seen>();
  readonly startUndefined: string[] = [];

  constructor(
    private readonly outer: Names,
    declared: Iterable<string>,
    refs?: Set<string>,
    stores?: Set<string>,
  ) {
    this.refs = refs ?? new Set(declared);
    this.stores = stores ?? new Set(declared);
  }

  load(name: string): void {
    if (!this.refs.has(name)) this.first.set(name, "load");
    this.refs.add(name);
  }

  store(name: string): void {
    if (!this.refs.has(name)) this.first.set(name, "store");
    this.refs.add(name);
    this.stores.add(name);
  }

  copy(): FrameSymbols {
    return new FrameSymbols(this.outer, [], new Set(this.refs), new Set(this.stores));
  }

  /** branch_update: names stored in all three branch groups take the else group's load. */
  merge(branches: readonly FrameSymbols[], elseGroup: FrameSymbols): void {
    const newIn = (b: FrameSymbols) => [...b.stores].filter((n) => !this.stores.has(n));
    const everywhere = newIn(branches[0]).filter((n) => branches.every((b) => b.stores.has(n)));
    for (const name of everywhere) {
      if (!this.refs.has(name) && elseGroup.first.get(name) === "store" && !this.outer.has(name)) this.startUndefined.push(name);
    }
    for (const b of branches) {
      for (const [n, seen] of b.first) if (!this.refs.has(n) && !this.first.has(n)) this.first.set(n, seen);
      for (const n of b.refs) this.refs.add(n);
      for (const n of b.stores) this.stores.add(n);
    }
  }
}

function loadsIn(e: A.Node | null, sym: FrameSymbols): void {
  if (e) walk(e, (n) => n.kind === "Name" && sym.load(n.name));
}

function storeTarget(t: A.Expr, sym: FrameSymbols): void {
  if (t.kind === "Name") sym.store(t.name);
  else if (t.kind === "Tuple") t.items.forEach((x) => storeTarget(x, sym));
  else if (t.kind === "GetAttr") loadsIn(t.object, sym);
}

interface Nested {
  owner: A.Node;
  body: readonly A.Stmt[];
  declared: string[];
}

function targetNames(t: A.Expr): string[] {
  return t.kind === "Name" ? [t.name] : t.kind === "Tuple" ? t.items.flatMap(targetNames) : [];
}

/** Visits one frame's statements as FrameSymbolVisitor does; the bodies of inner frames go to `nested`. */
function visitBody(body: readonly A.Stmt[], sym: FrameSymbols, nested: Nested[]): void {
  for (const s of body) visitStmt(s, sym, nested);
}

function visitStmt(s: A.Stmt, sym: FrameSymbols, nested: Nested[]): void {
  switch (s.kind) {
    case "Output":
      return loadsIn(s.expr, sym);
    case "Set":
      loadsIn(s.value, sym);
      return storeTarget(s.target, sym);
    case "SetBlock":
      storeTarget(s.target, sym);
      nested.push({ owner: s, body: s.body, declared: [] });
      return;
    case "If": {
      loadsIn(s.branches[0].test, sym);
      const group = (visit: (g: FrameSymbols) => void): FrameSymbols => {
        const g = sym.copy();
        visit(g);
        return g;
      };
      const body = group((g) => visitBody(s.branches[0].body, g, nested));
      const elifs = group((g) => {
        for (const b of s.branches.slice(1)) {
          loadsIn(b.test, g);
          visitBody(b.body, g, nested);
        }
      });
      const orElse = group((g) => visitBody(s.orElse ?? [], g, nested));
      sym.merge([body, elifs, orElse], orElse);
      return;
    }
    case "For":
      loadsIn(s.iter, sym);
      nested.push({ owner: s, body: s.body, declared: targetNames(s.target) });
      return;
    case "Macro":
      sym.store(s.name);
      nested.push({ owner: s, body: s.body, declared: s.params.map((p) => p.name) });
      return;
    case "CallBlock":
      loadsIn(s.call, sym);
      nested.push({ owner: s, body: s.body, declared: s.params.map((p) => p.name) });
      return;
    case "FilterBlock":
      loadsIn(s.filter, sym);
      nested.push({ owner: s, body: s.body, declared: [] });
      return;
    case "With":
      for (const a of s.assignments) loadsIn(a.value, sym);
      nested.push({ owner: s, body: s.body, declared: s.assignments.flatMap((a) => targetNames(a.target)) });
      return;
    case "Generation":
    case "BlockStmt":
      nested.push({ owner: s, body: s.body, declared: [] });
      return;
  }
}

function analyzeFrame(owner: A.Node, body: readonly A.Stmt[], declared: string[], outer: Names, into: Map<number, string[]>): void {
  const sym = new FrameSymbols(outer, declared);
  const nested: Nested[] = [];
  visitBody(body, sym, nested);
  if (sym.startUndefined.length) into.set(owner.id, sym.startUndefined);
  const seen: Names = { has: (name) => sym.refs.has(name) || outer.has(name) };
  for (const n of nested) analyzeFrame(n.owner, n.body, n.declared, seen, into);
}

/** The names each frame of `t` starts with as undefined under Jinja2 3.1.2 (usually none). */
export function branchStoreShadows(t: A.Template): FrameUndefined {
  const into = new Map<number, string[]>();
  analyzeFrame(t, t.body, [], new Set(), into);
  return into;
}
