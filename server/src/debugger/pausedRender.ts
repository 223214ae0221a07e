// The debugger inside the render's worker thread: the interpreter's DebugHook. It keeps the call stack (the
// template and each macro or caller body running), decides where to stop (breakpoints with their conditions,
// hit counts and log messages, stepping, a pause asked for, the engine's error), and while stopped it blocks the
// thread and answers the adapter's commands synchronously (Atomics.wait + receiveMessageOnPort).
import { receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import type { TemplateDocument } from "../document";
import { type DebugHook, type DebugRuntime, type Output, type Scope, scopeChain, type Value } from "../interpreter";
import type * as A from "../parser";
import type { BreakpointSpec, Command, ExceptionFilters, FrameInfo, Query, Report, ScopeInfo, StepKind, StopReason } from "./protocol";
import { VariableStore } from "./variables";

interface Frame {
  name: string;
  /** The interpreter's macro-call depth its statements run at. */
  depth: number;
  /** Where it is: the statement running, or the body's opening tag before its first statement. */
  at: A.Span;
  /** Null only before the template's first statement. */
  scope: Scope | null;
  /** A macro's arguments (the scope its body starts with); null for the template. */
  args: Scope | null;
  /** The buffer its statements write to. */
  out: Output | null;
}

/** Jinja2's output, and whether it is whole (a render that threw gives what it wrote up to the error). */
export interface Reference {
  output: string;
  complete: boolean;
}

interface Breakpoint extends BreakpointSpec {
  hits: number;
}

export interface PausedRenderSetup {
  doc: TemplateDocument;
  stopOnEntry: boolean;
  exceptions: ExceptionFilters;
  breakpoints: readonly BreakpointSpec[];
  /** What Jinja2 renders for the same context (computed when first needed), or null where the engine is Jinja2. */
  reference: (() => Reference) | null;
  signal: Int32Array;
  port: MessagePort;
  report: (r: Report) => void;
}

export class PausedRender implements DebugHook {
  private rt: DebugRuntime | null = null;
  private vars: VariableStore | null = null;
  private root: Output | null = null;
  private frames: Frame[] = [];
  private step: { how: StepKind; base: number };
  private entryPending: boolean;
  private pauseAsked = false;
  private breakpoints = new Map<number, Breakpoint>();
  exceptions: ExceptionFilters;
  private reference: Reference | null = null;
  /** How much of the output matches Jinja2's; -1 once it differed (a render stops there once). */
  private matched = 0;
  /** Where the engine threw or its output differed, while stopped there. */
  private errorAt: A.Span | null = null;
  /** How much of the output the debug console has been shown. */
  private shown = 0;

  constructor(private readonly s: PausedRenderSetup) {
    this.step = { how: s.stopOnEntry ? "stepIn" : "continue", base: 0 };
    this.entryPending = s.stopOnEntry;
    this.exceptions = s.exceptions;
    this.setBreakpoints(s.breakpoints);
  }

  // ------------------------------------------------------------ the hook

  attach(runtime: DebugRuntime, output: Output): void {
    this.rt = runtime;
    this.vars = new VariableStore(runtime);
    this.root = output;
    const t = this.s.doc.template;
    this.frames = [{ name: "template", depth: 0, at: t, scope: null, args: null, out: output }];
  }

  statement(node: A.Stmt, scope: Scope, out: Output, depth: number): void {
    const frames = this.frames;
    while (frames.length > 1 && frames[frames.length - 1].depth > depth) frames.pop();
    const f = frames[frames.length - 1];
    // a block is shown at its opening tag, not as the whole block
    f.at = (node as Partial<A.Block>).openTag ?? node;
    const start = f.at.start;
    f.scope = scope;
    f.out = out;
    if (Atomics.load(this.s.signal, 0) !== 0) this.drain(false);
    if (this.exceptions.diverges && this.matched >= 0) this.checkDivergence(this.root!.toString(), false);
    const reason = this.stopHere(start, scope);
    if (reason !== null) this.stop(reason);
  }

  enter(node: A.Macro | A.CallBlock, scope: Scope, depth: number): void {
    const frames = this.frames;
    while (frames.length > 1 && frames[frames.length - 1].depth >= depth) frames.pop();
    const name = node.kind === "Macro" ? node.name : "caller";
    frames.push({ name, depth, at: node.openTag, scope, args: scope, out: null });
  }

  leave(): void {
    if (this.frames.length > 1) this.frames.pop();
  }

  // ------------------------------------------------------------ where to stop

  private stopHere(start: number, scope: Scope): StopReason | null {
    if (this.pauseAsked) {
      this.pauseAsked = false;
      return "pause";
    }
    const bp = this.breakpoints.get(start);
    if (bp !== undefined && this.hit(bp, scope)) {
      if (bp.logMessage === undefined) return "breakpoint";
      this.s.report({ type: "output", category: "console", text: this.logText(bp.logMessage, scope) + "\n" });
    }
    const depth = this.frames.length;
    const { how, base } = this.step;
    if (how === "stepIn" || (how === "next" && depth <= base) || (how === "stepOut" && depth < base)) {
      if (this.entryPending) {
        this.entryPending = false;
        return "entry";
      }
      return "step";
    }
    return null;
  }

  /** A breakpoint's condition (a Jinja expression in this engine) and hit count; a condition that fails stops. */
  private hit(bp: Breakpoint, scope: Scope): boolean {
    if (bp.condition) {
      try {
        if (!this.rt!.truthy(this.rt!.evaluate(bp.condition, scope))) return false;
      } catch (e) {
        this.s.report({ type: "output", category: "stderr", text: `breakpoint condition '${bp.condition}': ${(e as Error).message}\n` });
        return true;
      }
    }
    bp.hits++;
    return bp.hitCondition ? hitCountReached(bp.hitCondition, bp.hits) : true;
  }

  /** A log message with each `{expression}` replaced by what the engine prints for it. */
  private logText(message: string, scope: Scope): string {
    return message.replace(/\{([^{}]+)\}/g, (_, expr: string) => {
      try {
        return this.rt!.str(this.rt!.evaluate(expr, scope));
      } catch (e) {
        return `<${(e as Error).message}>`;
      }
    });
  }

  // ------------------------------------------------------------ stopped

  /** Reports the stop and serves commands until one resumes the render. */
  private stop(reason: StopReason, text?: string): void {
    this.showOutput();
    this.s.report({ type: "stopped", reason, ...(text !== undefined ? { text } : {}) });
    while (!this.drain(true)) Atomics.wait(this.s.signal, 0, 0);
    this.vars!.clear();
  }

  /** Stops where the engine threw (the render has returned its error), if asked to. */
  stopAtError(at: A.Span, message: string): void {
    if (this.exceptions.error && this.rt !== null) this.stopAt(at, message);
  }

  /** The render has ended with `output`: a difference from Jinja2's not seen yet (at its very end) stops here. */
  finished(output: string): void {
    if (this.exceptions.diverges && this.matched >= 0 && this.rt !== null) this.checkDivergence(output, true);
  }

  private stopAt(at: A.Span, message: string): void {
    this.errorAt = at;
    this.stop("exception", message);
    this.errorAt = null;
  }

  /** Compares what was written since the last check with Jinja2's output; stops at the first difference. */
  private checkDivergence(text: string, ended: boolean): void {
    if (this.s.reference === null) return;
    const ref = (this.reference ??= this.s.reference());
    const jinja = ref.output;
    let i = this.matched;
    const n = Math.min(text.length, jinja.length);
    while (i < n && text.charCodeAt(i) === jinja.charCodeAt(i)) i++;
    this.matched = i;
    const differs = i < text.length ? i < jinja.length || ref.complete : ended && i < jinja.length;
    if (!differs) return;
    this.matched = -1;
    const quote = (s: string) => JSON.stringify(s.slice(i, i + 40));
    const message = `the output differs from Jinja2's at character ${i}: this engine wrote ${quote(text)}, Jinja2 ${quote(jinja)}`;
    // the statement that wrote the first differing character (or, past the end of this engine's output, the last one)
    const chunks = this.root!.chunks;
    const c = chunks.find((k) => k.start <= i && i < k.end) ?? chunks[chunks.length - 1];
    this.stopAt(c ? { start: c.sourceStart, end: c.sourceEnd } : this.frames[this.frames.length - 1].at, message);
  }

  /** The output written since the console was last shown it. */
  showOutput(final?: string): void {
    const text = final ?? this.root?.toString() ?? "";
    if (text.length > this.shown) this.s.report({ type: "output", category: "stdout", text: text.slice(this.shown) });
    this.shown = text.length;
  }

  /** Handles the commands waiting; true when one resumed the render (only a stopped render resumes). */
  private drain(stopped: boolean): boolean {
    Atomics.store(this.s.signal, 0, 0);
    let resumed = false;
    for (let m = receiveMessageOnPort(this.s.port); m !== undefined; m = receiveMessageOnPort(this.s.port)) {
      const c = m.message as Command;
      switch (c.type) {
        case "query":
          this.answer(c.id, c.query, stopped);
          break;
        case "breakpoints":
          this.setBreakpoints(c.breakpoints);
          break;
        case "exceptions":
          this.exceptions = c.filters;
          break;
        case "pause":
          if (!stopped) this.pauseAsked = true;
          break;
        case "resume":
          if (stopped && !resumed) {
            this.step = { how: c.how, base: this.frames.length };
            resumed = true;
          }
          break;
      }
    }
    return resumed;
  }

  private setBreakpoints(specs: readonly BreakpointSpec[]): void {
    const old = this.breakpoints;
    this.breakpoints = new Map(specs.map((b) => [b.offset, { ...b, hits: old.get(b.offset)?.hits ?? 0 }]));
  }

  private answer(id: number, q: Query, stopped: boolean): void {
    if (!stopped) {
      this.s.report({ type: "answer", id, error: "the render is running" });
      return;
    }
    try {
      this.s.report({ type: "answer", id, body: this.query(q) });
    } catch (e) {
      this.s.report({ type: "answer", id, error: (e as Error).message });
    }
  }

  private query(q: Query): unknown {
    switch (q.kind) {
      case "stackTrace":
        return this.stackTrace();
      case "scopes":
        return this.scopes(this.frame(q.frameId));
      case "variables":
        return this.vars!.variables(q.ref);
      case "evaluate": {
        const scope = this.frame(q.frameId ?? 0).scope;
        if (scope === null) throw new Error("the template has not started");
        const v = this.rt!.evaluate(q.expression, scope);
        const shown = this.vars!.variable("", v);
        return { result: shown.value, type: shown.type, variablesReference: shown.variablesReference };
      }
    }
  }

  /** Frame 0 is the innermost. */
  private frame(id: number): Frame {
    const f = this.frames[this.frames.length - 1 - id];
    if (!f) throw new Error(`no frame ${id}`);
    return f;
  }

  private stackTrace(): FrameInfo[] {
    const lines = this.s.doc.lines;
    return this.frames
      .map((f, i): FrameInfo => {
        const at = i === this.frames.length - 1 && this.errorAt ? this.errorAt : f.at;
        const from = lines.positionAt(at.start);
        const to = lines.positionAt(at.end);
        return {
          id: this.frames.length - 1 - i,
          name: f.name,
          line: from.line + 1,
          column: from.character + 1,
          endLine: to.line + 1,
          endColumn: to.character + 1,
        };
      })
      .reverse();
  }

  private scopes(f: Frame): ScopeInfo[] {
    const vars = this.vars!;
    const scopes: ScopeInfo[] = [];
    if (f.args !== null)
      scopes.push({ name: "Macro arguments", variablesReference: vars.names(f.args.entries()), presentationHint: "arguments" });
    scopes.push({ name: "Locals", variablesReference: vars.names(visibleNames(f.scope)), presentationHint: "locals" });
    const context = [...this.rt!.context.entries()].map(([k, v]): [string, Value] => [String(k), v]);
    scopes.push({ name: "Template context", variablesReference: vars.names(context) });
    const output: [string, Value][] = [["rendered", this.root!.toString()]];
    if (f.out !== null && f.out !== this.root) output.push(["buffer", f.out.toString()]);
    scopes.push({ name: "Output so far", variablesReference: vars.names(output) });
    return scopes;
  }
}

/** The names a statement sees in its scope chain, innermost first (an inner `set` hides an outer one). */
function visibleNames(scope: Scope | null): [string, Value][] {
  if (scope === null) return [];
  const seen = new Map<string, Value>();
  for (const s of scopeChain(scope)) for (const [k, v] of s.entries()) if (!seen.has(k)) seen.set(k, v);
  return [...seen];
}

/** VS Code's hit conditions: `5` or `>= 5` (from the fifth hit on), `> 5`, `== 5`, `< 5`, `<= 5`, `% 5` (every fifth). */
export function hitCountReached(condition: string, hits: number): boolean {
  const m = /^\s*(>=|<=|==|>|<|%)?\s*(\d+)\s*$/.exec(condition);
  if (!m) return true;
  const n = Number(m[2]);
  switch (m[1]) {
    case ">":
      return hits > n;
    case "==":
      return hits === n;
    case "<":
      return hits < n;
    case "<=":
      return hits <= n;
    case "%":
      return n > 0 && hits % n === 0;
    default:
      return hits >= n;
  }
}
