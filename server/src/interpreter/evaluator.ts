// The tree-walking interpreter: one for every engine, asking the dialect for everything that
// varies (printing, operators, filters, tests, methods, globals, whitespace). It implements the
// Runtime that builtins see. Every node evaluated spends one step of the budget. A fault is
// located by `at`, the node whose own operation runs now: it is set after a node's children are
// evaluated and before its operation, so when something throws, `at` names the innermost node
// that raised it — and exceptions unwind without being caught and rethrown at every level.
import { type Bound, type Dialect, NO_ARGS, type Operators, own, type Refusal, type Runtime, type WallClock } from "./dialect";
import { renderPosition } from "../progressPipe/renderProgress";
import type * as A from "../parser";
import type { LineIndex } from "../parser";
import { PyDict } from "./dict";
import { Fault } from "./errors";
import { heapBase, heapOver } from "./heap";
import type { Limits } from "./limits";
import { LoopContext } from "./loop";
import { Macro, macroUses } from "./macro";
import { Output } from "./output";
import { Scope } from "./scope";
import { Undefined } from "./undefined";
import { isConstant } from "./constant";
import type { DebugHook, DebugRuntime } from "./debug";
import { parse } from "../parser";
import { escapeValue } from "./python/markup";
import { Callable, Markup, Namespace, Tuple, typeName, type CallArgs, type Value } from "./values";
import { isContainer, printedSize, sizeOf } from "./valueSize";

const NORMAL = 0;
const BREAK = 1;
const CONTINUE = 2;
type Signal = typeof NORMAL | typeof BREAK | typeof CONTINUE;
/** How often the heap is measured against the memory limit: every so many steps, and characters or items built. */
const HEAP_CHECK_STEPS = 1 << 16;
const HEAP_CHECK_BUILT = 1 << 20;
/**
 * Characters a builtin reads or builds per step. A step (a node or an item) takes about 0.1 µs here and `upper`
 * about 3.5 ns a character, so 32 characters cost about a step. Without it a loop of cheap steps over a huge
 * string's builtins (`big|upper` 100,000 times over 10 MB) ran for hours inside the step limit.
 */
const CHARS_PER_STEP = 32;
const charsOf = (v: Value): number => (typeof v === "string" ? v.length : v instanceof Markup ? v.s.length : 0);

/** A break/continue leaving a macro or caller body for the loop around the call (Dialect.loopControlCrossesCalls). */
class CrossingSignal extends Error {
  constructor(readonly signal: Signal) {
    super("loop control crossing a call");
  }
}
// Made once: thrown often, a stack each time would cost more than the render.
const CROSSING = { [BREAK]: new CrossingSignal(BREAK), [CONTINUE]: new CrossingSignal(CONTINUE) } as const;

export interface EvaluatorSetup {
  source: string;
  lines: LineIndex;
  context: PyDict;
  dialect: Dialect;
  limits: Limits;
  now: () => WallClock;
  /** Constructs the dialect refuses when they are reached (see Dialect.refuse). */
  refusals: ReadonlyMap<number, Refusal>;
  /** See Dialect.frameUndefined. */
  frameUndefined: ReadonlyMap<number, readonly string[]>;
  debug?: DebugHook;
}

export class Evaluator implements Runtime, DebugRuntime {
  readonly dialect: Dialect;
  /** A debugger's hook, or null: checked once per statement and per macro call, never on expressions. */
  private readonly debug: DebugHook | null;
  private readonly ops: Operators;
  private steps = 0;
  /** progressPipe/renderProgress.ts: held here, so that each statement's store is a field's, not an import's. */
  private readonly position = renderPosition;
  private depth = 0;
  /** The string the last macro call returned and where its bytes came from (for provenance). */
  private lastCall: Output | null = null;
  private readonly hasRefusals: boolean;
  /** The scope of the statement running now: where a macro is called from (see Dialect.macroScope). */
  private callScope = new Scope(null);
  private readonly tracksCallScope: boolean;
  /** See Dialect.loopControlDiscardsStatement. */
  private readonly discardsInterrupted: boolean;
  private readonly variableRead: Dialect["variableRead"];
  private readonly crossesCalls: boolean;
  /** Loop bodies running in the current frame (a macro or recursive `loop()` call starts a new one, unless loop control crosses calls). */
  private loopsOpen = 0;
  private readonly maxSteps: number;
  /** The step count at which `checkpoint` runs next: the step limit, or the next heap measurement before it. */
  private nextCheckpoint: number;
  /** Characters and items built since the heap was last measured. */
  private built = 0;
  /** What the heap held when the render started: the memory limit counts from there. */
  private readonly heapBase = heapBase();
  /**
   * Jinja2's eval context autoescape flag, on inside `{% autoescape true %}`: printed values are
   * HTML-escaped and macro calls return Markup. A macro body runs with the flag of its definition.
   */
  private autoescape = false;
  /** The flag came from an expression Jinja2 cannot fold: constant outputs are then written unescaped. */
  private autoescapeVolatile = false;
  /** The node whose own operation is running (see the header): where a fault is reported. */
  at: A.Node | null = null;

  constructor(private readonly setup: EvaluatorSetup) {
    this.dialect = setup.dialect;
    this.ops = setup.dialect.ops;
    this.hasRefusals = setup.refusals.size > 0;
    this.tracksCallScope = setup.dialect.macroScope === "caller";
    this.discardsInterrupted = setup.dialect.loopControlDiscardsStatement === true;
    this.variableRead = setup.dialect.variableRead;
    this.crossesCalls = setup.dialect.loopControlCrossesCalls === true;
    this.maxSteps = setup.limits.steps;
    this.nextCheckpoint = Math.min(this.maxSteps, HEAP_CHECK_STEPS);
    this.debug = setup.debug ?? null;
  }

  /** A buffer for a body whose text becomes a value (macro, set block, filter block, recursive loop). */
  output(): Output {
    return new Output(this.setup.limits.output, this.dialect.captured !== undefined);
  }

  renderTemplate(t: A.Template, out: Output): void {
    if (this.debug !== null) this.debug.attach(this, out);
    this.block(t.body, this.frame(t, null), out);
  }

  /** A new scope for the frame `owner` opens, with the names the dialect says start undefined there. */
  private frame(owner: A.Node, parent: Scope | null): Scope {
    const s = new Scope(parent);
    const names = this.setup.frameUndefined.size ? this.setup.frameUndefined.get(owner.id) : undefined;
    if (names) for (const name of names) s.set(name, Undefined.named(name));
    return s;
  }

  // ------------------------------------------------------------ Runtime

  /** A bound arrow: builtins pass it around as a plain function. */
  readonly str = (v: Value): string => {
    // A container is measured before it is printed: one that holds itself many times over prints
    // far more than the memory it takes (see valueSize.ts).
    if (isContainer(v)) this.checkPrinted(v);
    return this.sized(this.dialect.str(v, this));
  };
  call(fn: Value, a: CallArgs): Value {
    if (fn instanceof Callable) return fn.call(this, a);
    if (this.dialect.notCallable) throw this.dialect.notCallable(fn);
    if (fn instanceof Undefined) throw fn.fault();
    throw Fault.type(`'${typeName(fn)}' object is not callable`);
  }
  getattr(obj: Value, name: string): Value {
    return this.ops.getattr(obj, name, this);
  }
  getitem(obj: Value, key: Value): Value {
    return this.ops.getitem(obj, key, this);
  }
  iterate(v: Value): Iterable<Value> {
    return this.ops.iterate(v, this);
  }
  filter(name: string, v: Value, a: CallArgs): Value {
    const f = own(this.dialect.filters, name);
    if (!f) throw this.dialect.unknownFilter(name, v);
    return f(this, v, a);
  }
  test(name: string, v: Value, a: CallArgs): boolean {
    const t = own(this.dialect.tests, name);
    if (!t) throw this.dialect.unknownTest(name);
    return t(this, v, a);
  }
  now(): WallClock {
    return this.setup.now();
  }
  tick(n: number): void {
    this.steps += n;
    if (this.steps > this.nextCheckpoint) this.checkpoint();
  }
  /** The step limit, and the memory limit measured on the way (kept off the hot paths' single comparison). */
  private checkpoint(): void {
    if (this.steps > this.maxSteps) throw new Fault("limit/steps", null, `step budget of ${this.maxSteps} exceeded`);
    this.checkMemory();
    this.nextCheckpoint = Math.min(this.maxSteps, this.steps + HEAP_CHECK_STEPS);
  }
  private checkMemory(): void {
    this.built = 0;
    const limit = this.setup.limits.memory;
    if (heapOver(this.heapBase, limit))
      throw new Fault("limit/memory", null, `the values this render holds exceed its memory limit of ${Math.round(limit / 2 ** 20)} MiB`);
  }
  checkSize(length: number): void {
    if (length > this.setup.limits.output)
      throw new Fault("limit/output", null, `value exceeds the output limit of ${this.setup.limits.output}`);
  }
  /** Counts what operators and builtins return towards the next heap measurement. */
  private noteBuilt(length: number): void {
    this.built += length;
    if (this.built > HEAP_CHECK_BUILT) this.checkMemory();
  }
  /** Charges the string a builtin was applied to and the string it returned (CHARS_PER_STEP). */
  private worked<T extends Value>(subject: Value, result: T): T {
    const n = charsOf(subject) + charsOf(result);
    if (n >= CHARS_PER_STEP) this.tick(Math.floor(n / CHARS_PER_STEP));
    return result;
  }
  checkPrinted(v: Value, perItem = 0): void {
    if (isContainer(v)) this.checkSize(printedSize(v, this.setup.limits.output, perItem));
  }
  /**
   * What an operator or builtin returned, refused when it is over the output limit. Builtins check
   * sizes before they build (checkSize); this catches what one builds without checking, before the
   * template can grow it further.
   */
  private sized<T extends Value>(v: T): T {
    const n = sizeOf(v);
    if (n > this.setup.limits.output) this.checkSize(n);
    this.noteBuilt(n);
    return v;
  }

  // ------------------------------------------------------------ statements

  private block(body: readonly A.Stmt[], scope: Scope, out: Output): Signal {
    for (let i = 0; i < body.length; i++) {
      const n = body[i];
      // Template text is most of what runs: written here, without a statement frame.
      if (n.kind === "Text" && !this.hasRefusals) {
        this.at = n;
        if (++this.steps > this.nextCheckpoint) this.checkpoint();
        out.write(this.dialect.text(n, this.setup.source), n);
        continue;
      }
      const mark = this.discardsInterrupted && n.kind !== "Break" && n.kind !== "Continue" ? out.mark() : null;
      const sig = this.crossesCalls ? this.stmtCaught(n, scope, out) : this.stmt(n, scope, out);
      if (sig !== NORMAL) {
        if (mark !== null) out.truncate(mark);
        return sig;
      }
    }
    return NORMAL;
  }

  private stmt(n: A.Stmt, scope: Scope, out: Output): Signal {
    this.at = n;
    // Where the render is, for a reader on another thread (progressPipe/renderProgress.ts): a block by its opening tag.
    const where = (n as Partial<A.Block>).openTag ?? n;
    this.position[0] = where.start;
    this.position[1] = where.end;
    if (++this.steps > this.nextCheckpoint) this.checkpoint();
    if (this.hasRefusals) this.checkRefusal(n);
    if (this.debug !== null) this.debug.statement(n, scope, out, this.depth);
    if (this.tracksCallScope) return this.stmtInCallScope(n, scope, out);
    return this.execStmt(n, scope, out);
  }

  /** A statement whose calls may end in a break/continue for the loop around it. */
  private stmtCaught(n: A.Stmt, scope: Scope, out: Output): Signal {
    try {
      return this.stmt(n, scope, out);
    } catch (e) {
      if (e instanceof CrossingSignal) return e.signal;
      throw e;
    }
  }

  private stmtInCallScope(n: A.Stmt, scope: Scope, out: Output): Signal {
    const outer = this.callScope;
    this.callScope = scope;
    try {
      return this.execStmt(n, scope, out);
    } finally {
      this.callScope = outer;
    }
  }

  private execStmt(n: A.Stmt, scope: Scope, out: Output): Signal {
    switch (n.kind) {
      case "Text":
        out.write(this.dialect.text(n, this.setup.source), n);
        return NORMAL;
      case "Output":
        // Jinja2 writes a constant output as text at compile time, escaped only if the flag is known then.
        if (this.autoescapeVolatile && isConstant(n.expr)) this.noEscape(() => this.print(n.expr, scope, out, n));
        else this.print(n.expr, scope, out, n);
        return NORMAL;
      case "If":
        for (const b of n.branches) {
          if (this.ops.truthy(this.expr(b.test, scope))) return this.block(b.body, scope, out);
        }
        return n.orElse ? this.block(n.orElse, scope, out) : NORMAL;
      case "Set": {
        // Jinja2 checks each `ns.attr` target (alone or in a tuple) before it evaluates the value.
        if (!this.ops.setattr) this.checkNamespaceTargets(n.target, scope);
        const v = this.expr(n.value, scope);
        this.at = n;
        this.assign(n.target, v, scope);
        return NORMAL;
      }
      case "For": {
        const iterable = this.expr(n.iter, scope);
        this.at = n;
        return this.forLoop(n, iterable, scope, out, 0);
      }
      case "Macro":
        scope.set(n.name, this.macro(n, n.name, scope, this.dialect.macroScope === "caller"));
        return NORMAL;
      case "CallBlock": {
        const caller = this.macro(n, "caller", scope);
        const fn = this.expr(n.call.callee, scope);
        this.at = n;
        if (this.dialect.callBlockChecksCallee && !(fn instanceof Callable)) this.call(fn, { args: [], kwargs: null });
        const given = this.args(n.call, scope);
        const a = { args: given.args, kwargs: new Map(given.kwargs ?? []).set("caller", caller) };
        this.lastCall = null;
        this.at = n;
        const v = this.call(fn, a);
        this.at = n;
        this.writeValue(v, out, n);
        return NORMAL;
      }
      case "SetBlock": {
        const sub = this.output();
        // Jinja2 renders these bodies inline: a break/continue inside leaves them unfinished.
        const sig = this.block(n.body, this.bodyScope("setBlock", scope), sub);
        if (sig !== NORMAL) return sig;
        const body = this.capturedValue(sub);
        const v = n.filter ? this.filterChain(n.filter, body, scope) : body;
        this.at = n;
        this.assign(n.target, v, scope);
        return NORMAL;
      }
      case "FilterBlock": {
        const sub = this.output();
        const sig = this.block(n.body, this.bodyScope("filterBlock", scope), sub);
        if (sig !== NORMAL) return sig;
        const v = this.filterChain(n.filter, this.capturedValue(sub), scope);
        this.at = n;
        this.lastCall = null;
        this.writeValue(v, out, n);
        return NORMAL;
      }
      case "Raw":
        out.write(this.dialect.text(n.text, this.setup.source), n.text);
        return NORMAL;
      case "Generation":
      case "BlockStmt":
        return this.block(n.body, new Scope(scope), out);
      case "With": {
        const inner = this.frame(n, scope);
        for (const a of n.assignments) {
          const v = this.expr(a.value, scope);
          this.at = n;
          this.assign(a.target, v, inner);
        }
        return this.block(n.body, inner, out);
      }
      case "Autoescape": {
        const on = this.ops.truthy(this.expr(n.value, scope));
        const [outer, outerVolatile] = [this.autoescape, this.autoescapeVolatile];
        this.autoescape = on;
        this.autoescapeVolatile = !isConstant(n.value);
        try {
          return this.block(n.body, new Scope(scope), out);
        } finally {
          this.autoescape = outer;
          this.autoescapeVolatile = outerVolatile;
        }
      }
      case "Break":
        if (this.loopsOpen === 0 && this.dialect.loopControlOutsideLoop) throw this.dialect.loopControlOutsideLoop("break");
        return BREAK;
      case "Continue":
        if (this.loopsOpen === 0 && this.dialect.loopControlOutsideLoop) throw this.dialect.loopControlOutsideLoop("continue");
        return CONTINUE;
      case "Include":
      case "Import":
      case "FromImport":
      case "Extends":
        throw new Fault("runtime/no-loader", "TypeError", "no loader for this environment specified");
      case "ErrorStmt":
        throw new Fault("syntax/error", "TemplateSyntaxError", "this tag did not parse");
    }
  }

  private noEscape(f: () => void): void {
    const outer = this.autoescape;
    this.autoescape = false;
    try {
      f();
    } finally {
      this.autoescape = outer;
    }
  }

  private print(e: A.Expr, scope: Scope, out: Output, n: A.Node): void {
    this.lastCall = null;
    const v = this.expr(e, scope);
    this.at = n;
    this.writeValue(v, out, n);
  }

  /** Writes a value; a macro's own output printed as is keeps the provenance of its insides. */
  private writeValue(v: Value, out: Output, n: A.Node): void {
    const s = this.autoescape ? escapeValue(v, this.str).s : this.str(v);
    const last = this.lastCall;
    if (last !== null && last.toString() === s) out.writeTraced(last);
    else if (this.dialect.printParts) for (const piece of this.dialect.printParts(v)) out.write(piece, n);
    else out.write(s, n);
  }

  /** The value of a body rendered into `out` (see Dialect.captured). */
  private capturedValue(out: Output): Value {
    if (this.dialect.captured) return this.dialect.captured(out.pieces);
    // Jinja2 marks a captured body safe under autoescape: what it printed was escaped already
    return this.autoescape ? new Markup(out.toString()) : out.toString();
  }

  autoescaping(): boolean {
    return this.autoescape;
  }

  /** The scope a set/filter block body or a for's else runs in (see Dialect.inlineScopes). */
  private bodyScope(kind: "setBlock" | "filterBlock" | "forElse", scope: Scope): Scope {
    return this.dialect.inlineScopes?.[kind] ? scope : new Scope(scope);
  }

  /** `{% filter a | b %}` / `{% set x | a | b %}`: the chain's innermost filter gets `value`. */
  private filterChain(f: A.Filter, value: Value, scope: Scope): Value {
    const input = f.expr === null ? value : f.expr.kind === "Filter" ? this.filterChain(f.expr, value, scope) : this.expr(f.expr, scope);
    return this.applyFilter(f, input, scope);
  }

  /** Returns the else block's signal: a break/continue there belongs to an enclosing loop. */
  private forLoop(n: A.For, iterable: Value, scope: Scope, out: Output, depth0: number): Signal {
    this.at = n;
    const targets = n.target.kind === "Tuple" ? n.target.items.length : 1;
    let items = this.ops.loopItems ? this.ops.loopItems(iterable, targets, this) : Array.from(this.ops.iterate(iterable, this));
    this.tick(items.length);
    const ls = this.dialect.loopScope;
    if (ls?.leaksTarget) for (const item of items) this.assign(n.target, item, scope);
    if (n.filter) {
      const test = n.filter;
      items = items.filter((item) => {
        const s = new Scope(scope);
        this.at = n;
        this.assign(n.target, item, s);
        return this.ops.truthy(this.expr(test, s));
      });
    }
    const recurse = n.recursive
      ? (it: Value): Value =>
          this.nested(() => {
            const sub = this.output();
            this.forLoop(n, it, scope, sub, depth0 + 1);
            return this.returned(sub);
          })
      : null;
    const loop = new LoopContext(items, depth0, recurse);
    let completed = false;
    const shared = ls?.sharedAcrossIterations ? new Scope(scope) : null;
    this.loopsOpen++;
    try {
      for (let i = 0; i < items.length; i++) {
        loop.index0 = i;
        const s = shared ?? this.frame(n, scope);
        this.at = n;
        this.assign(n.target, items[i], s);
        s.set("loop", loop);
        const into = this.dialect.loopControlDropsIteration ? this.output() : out;
        const sig = this.block(n.body, s, into);
        if (into !== out && sig === NORMAL) out.writeTraced(into);
        if (sig === BREAK) break;
        if (sig === NORMAL) completed = true;
      }
    } finally {
      this.loopsOpen--;
    }
    const noIteration = this.dialect.loopElse === "unless-completed" ? !completed : items.length === 0;
    // The else block is a frame of its own in Jinja2: what it sets stays there.
    return noIteration && n.orElse ? this.block(n.orElse, this.bodyScope("forElse", scope), out) : NORMAL;
  }

  private assign(target: A.Expr, v: Value, scope: Scope): void {
    // A target the engine cannot assign to fails when the assignment happens, after the value.
    if (this.hasRefusals) this.checkRefusal(target);
    switch (target.kind) {
      case "Name":
        scope.set(target.name, v);
        return;
      case "Tuple": {
        const items = this.ops.unpack(v, target.items.length, this);
        target.items.forEach((t, i) => this.assign(t, items[i], scope));
        return;
      }
      case "GetAttr": {
        if (this.ops.setattr) {
          this.ops.setattr(this.expr(target.object, scope), target.attr, v, this);
          return;
        }
        this.namespaceOf(target, scope).attrs.set(target.attr, v);
        return;
      }
    }
    throw Fault.runtime(`cannot assign to ${target.kind}`);
  }

  private checkNamespaceTargets(target: A.Expr, scope: Scope): void {
    if (target.kind === "GetAttr") this.namespaceOf(target, scope);
    else if (target.kind === "Tuple") for (const t of target.items) this.checkNamespaceTargets(t, scope);
  }

  private namespaceOf(target: A.GetAttr, scope: Scope): Namespace {
    const ns = target.object.kind === "Name" ? this.lookup(target.object.name, scope) : null;
    if (!(ns instanceof Namespace)) throw Fault.runtime("cannot assign attribute on non-namespace object");
    return ns;
  }

  private macro(node: A.Macro | A.CallBlock, name: string, closure: Scope, callerScoped = false): Macro {
    const escapes = this.autoescape;
    return new Macro(name, node.params, macroUses(node), (bound: Bound) =>
      this.nested(() => {
        const atCall = this.autoescape;
        this.autoescape = escapes;
        try {
          const v = this.macroBody(node, bound, callerScoped ? this.callScope : closure);
          // Macro._invoke: the result is Markup when the caller's context autoescapes.
          return atCall && typeof v === "string" ? new Markup(v) : v;
        } finally {
          this.autoescape = atCall;
        }
      }),
    );
  }

  private macroBody(node: A.Macro | A.CallBlock, bound: Bound, parent: Scope): Value {
    const s = this.frame(node, parent);
    node.params.forEach((p, i) => {
      let v = bound.values[i];
      if (v === undefined) v = p.default ? this.expr(p.default, s) : Undefined.hint(`parameter '${p.name}' was not provided`);
      s.set(p.name, v);
    });
    for (const [k, v] of bound.extra) s.set(k, v);
    const out = this.output();
    if (this.debug !== null) this.debug.enter(node, s, this.depth);
    const sig = this.block(node.body, s, out);
    if (this.debug !== null) this.debug.leave();
    if (sig !== NORMAL && this.crossesCalls) throw CROSSING[sig];
    return this.returned(out);
  }

  private returned(out: Output): Value {
    this.lastCall = out;
    return this.capturedValue(out);
  }

  private nested<T>(f: () => T): T {
    if (this.depth >= this.setup.limits.recursion) {
      throw new Fault("limit/recursion", null, `macro calls nested deeper than ${this.setup.limits.recursion}`);
    }
    this.depth++;
    const loops = this.loopsOpen;
    if (!this.crossesCalls) this.loopsOpen = 0;
    try {
      return f();
    } finally {
      this.depth--;
      this.loopsOpen = loops;
    }
  }

  // ------------------------------------------------------------ expressions

  /** The interpreter's hottest path: `this.at = n` goes right before each node's own operation. */
  private expr(n: A.Expr, scope: Scope): Value {
    if (++this.steps > this.nextCheckpoint) this.checkpoint();
    if (this.hasRefusals) this.checkRefusal(n);
    switch (n.kind) {
      case "Name":
        return this.lookup(n.name, scope);
      case "GetAttr": {
        const obj = this.expr(n.object, scope);
        this.at = n;
        return n.numeric ? this.ops.getitem(obj, BigInt(n.attr), this) : this.ops.getattr(obj, n.attr, this);
      }
      case "Const":
      case "Str":
      case "Int":
      case "Float":
        return n.value;
      case "Filter":
        return this.applyFilter(n, n.expr ? this.expr(n.expr, scope) : null, scope);
      case "Test": {
        const v = this.expr(n.expr, scope);
        const a = this.args(n, scope);
        this.at = n;
        const t = own(this.dialect.tests, n.name);
        if (!t) throw this.dialect.unknownTest(n.name);
        return t(this, v, a) !== n.negated;
      }
      case "Binary": {
        const a = this.expr(n.left, scope);
        switch (n.op) {
          case "and":
            if (this.ops.and) return this.ops.and(a, () => this.expr(n.right, scope), this);
            return this.ops.truthy(a) ? this.expr(n.right, scope) : a;
          case "or":
            return this.ops.truthy(a) ? a : this.expr(n.right, scope);
          case "~": {
            const b = this.expr(n.right, scope);
            this.at = n;
            return this.sized(this.ops.concat(a, b, this));
          }
          default: {
            const b = this.expr(n.right, scope);
            this.at = n;
            return this.sized(this.ops.arith(n.op, a, b, this));
          }
        }
      }
      case "Compare": {
        let left = this.expr(n.left, scope);
        for (const o of n.ops) {
          const right = this.expr(o.right, scope);
          this.at = n;
          if (!this.ops.compare(o.op, left, right, this)) return false;
          left = right;
        }
        return true;
      }
      case "Call": {
        const c = n.callee;
        if (c.kind === "GetAttr" && !c.numeric && this.ops.callMethod) {
          if (this.hasRefusals) this.checkRefusal(c);
          const obj = this.expr(c.object, scope);
          const a = this.args(n, scope);
          this.at = n;
          return this.worked(obj, this.sized(this.ops.callMethod(obj, c.attr, a, this)));
        }
        const fn = this.expr(c, scope);
        const a = this.args(n, scope);
        this.at = n;
        return this.worked(null, this.sized(this.call(fn, a)));
      }
      case "GetItem": {
        const obj = this.expr(n.object, scope);
        const ix = n.index;
        if (ix.kind === "Slice") {
          const part = (e: A.Expr | null) => (e ? this.expr(e, scope) : undefined);
          const start = part(ix.startExpr);
          const stop = part(ix.stopExpr);
          const step = part(ix.stepExpr);
          this.at = n;
          return this.sized(this.ops.slice(obj, start, stop, step, this));
        }
        const key = this.expr(ix, scope);
        this.at = n;
        return this.ops.getitem(obj, key, this);
      }
      case "Unary": {
        const v = this.expr(n.operand, scope);
        this.at = n;
        return n.op === "not" ? !this.ops.truthy(v) : n.op === "-" ? this.ops.neg(v, this) : this.ops.pos(v, this);
      }
      case "Conditional":
        if (this.ops.truthy(this.expr(n.test, scope))) return this.expr(n.then, scope);
        if (n.orElse) return this.expr(n.orElse, scope);
        return Undefined.hint(
          `the inline if-expression on line ${this.setup.lines.lineOf(n.start) + 1} evaluated to false and no else section was defined.`,
        );
      case "List":
        return n.items.map((e) => this.expr(e, scope));
      case "Dict": {
        const d = new PyDict();
        const key = this.ops.dictKey ?? ((k: Value) => k);
        for (const p of n.pairs) {
          const k = key(this.expr(p.key, scope));
          const v = this.expr(p.value, scope);
          this.at = n;
          d.set(k, v);
        }
        return d;
      }
      case "Tuple":
        return new Tuple(n.items.map((e) => this.expr(e, scope)));
      case "Slice":
        this.at = n;
        throw Fault.type("a slice is only valid inside []");
      case "ErrorExpr":
        this.at = n;
        throw new Fault("syntax/error", "TemplateSyntaxError", "this expression did not parse");
    }
  }

  private lookup(name: string, scope: Scope): Value {
    const v = scope.get(name);
    if (v !== undefined) {
      this.variableRead?.(v);
      return v;
    }
    const c = this.setup.context.getStr(name);
    if (c !== undefined) return c;
    // A global may be None (llama.cpp's `none` is a variable), so only a missing one is undefined.
    const g = own(this.dialect.globals, name);
    return g !== undefined ? g : Undefined.named(name);
  }

  private applyFilter(n: A.Filter, value: Value, scope: Scope): Value {
    const a = this.args(n, scope);
    this.at = n;
    const f = own(this.dialect.filters, n.name);
    if (!f) throw this.dialect.unknownFilter(n.name, value);
    return this.worked(value, this.sized(f(this, value, a, n)));
  }

  private args(n: A.CallArgs, scope: Scope): CallArgs {
    // Most calls and filters have no arguments: they share one frozen empty CallArgs.
    if (n.args.length === 0 && n.kwargs.length === 0 && !n.starArgs && !n.starKwargs) return NO_ARGS;
    const args: Value[] = n.args.map((e) => this.expr(e, scope));
    let kwargs: Map<string, Value> | null = null;
    if (n.starArgs) args.push(...this.ops.iterate(this.expr(n.starArgs, scope), this));
    for (const k of n.kwargs) (kwargs ??= new Map()).set(k.name, this.expr(k.value, scope));
    if (n.starKwargs) {
      const d = this.expr(n.starKwargs, scope);
      if (!(d instanceof PyDict)) throw Fault.type(`argument after ** must be a mapping, not ${typeName(d)}`);
      for (const [k, v] of d.entries()) {
        if (typeof k !== "string") throw Fault.type("keywords must be strings");
        (kwargs ??= new Map()).set(k, v);
      }
    }
    return { args, kwargs };
  }

  // ------------------------------------------------------------ a debugger's reads (DebugRuntime)

  get context(): PyDict {
    return this.setup.context;
  }

  evaluate(source: string, scope: Scope): Value {
    const own = this.dialect.parse?.(`{{ ${source} }}`);
    if (own && "error" in own) throw new Fault(own.error.code, null, own.error.message);
    const parsed = own ? { template: own.template, problems: [] } : parse(`{{ ${source} }}`);
    const problem = parsed.problems.find((p) => p.severity === "error");
    if (problem) throw new Fault(problem.code, "TemplateSyntaxError", problem.message);
    const [first, ...rest] = parsed.template.body;
    if (first?.kind !== "Output" || rest.length > 0) throw new Fault("syntax/error", "TemplateSyntaxError", "not one expression");
    const at = this.at;
    try {
      return this.expr(first.expr, scope);
    } finally {
      this.at = at;
    }
  }

  truthy(v: Value): boolean {
    return this.ops.truthy(v);
  }

  repr(v: Value): string {
    // what the engine prints around a list's items ("[" "]" in most, nothing in llama.cpp's)
    const empty = this.dialect.str([], this);
    const [open, close] = [empty.slice(0, empty.length >> 1), empty.slice(empty.length >> 1)];
    const s = this.dialect.str([v], this);
    return s.startsWith(open) && s.endsWith(close) ? s.slice(open.length, s.length - close.length) : s;
  }

  // ------------------------------------------------------------ errors

  private checkRefusal(n: A.Node): void {
    const r = this.setup.refusals.get(n.id);
    if (r) {
      this.at = n;
      throw new Fault(r.code, null, r.message);
    }
  }

  /** Gives a fault that ended the render its location: the node whose operation raised it. */
  located(e: unknown): unknown {
    if (e instanceof Fault) {
      e.node ??= this.at;
      return e;
    }
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      const f = new Fault("limit/recursion", null, "template nesting exhausted the interpreter's stack");
      f.node = this.at;
      return f;
    }
    // The host's own ceilings (V8's longest string and array, BigInt size) are reached only by
    // a value far over the output limit that a builtin built without checking: the same error.
    if (
      e instanceof RangeError &&
      /invalid (string|array|typed array) length|array buffer allocation|maximum bigint size/i.test(e.message)
    ) {
      const f = new Fault("limit/output", null, `value exceeds the output limit of ${this.setup.limits.output}`);
      f.node = this.at;
      return f;
    }
    return e;
  }
}
