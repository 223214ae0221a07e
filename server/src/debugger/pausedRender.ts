// The debugger inside the render's worker thread: the interpreter's DebugHook. It keeps the call stack (the
// template and each macro or caller body running), decides where to stop (breakpoints with their conditions,
// hit counts and log messages, stepping, a pause asked for, the engine's error), and while stopped it blocks the
// thread and answers the adapter's commands synchronously (Atomics.wait + receiveMessageOnPort).
import { receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import type { TemplateDocument } from "../document";
import { type DebugHook, type DebugRuntime, type Output, type Scope, scopeChain, type Value } from "../interpreter";
import type * as A from "../parser";
import type { BreakpointSpec, Command, FrameInfo, Query, Report, ScopeInfo, StepKind, StopReason } from "./protocol";
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

interface Breakpoint extends BreakpointSpec {
  hits: number;
}

export interface PausedRenderSetup {
  doc: TemplateDocument;
  stopOnEntry: boolean;
  stopOnError: boolean;
  breakpoints: readonly BreakpointSpec[];
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
  stopOnError: boolean;
  /** Where the engine threw, while stopped there. */
  private errorAt: A.Span | null = null;
  /** How much of the output the debug console has been shown. */
  private shown = 0;

  constructor(private readonly s: PausedRenderSetup) {
    this.step = { how: s.stopOnEntry ? "stepIn" : "continue", base: 0 };
    this.entryPending = s.stopOnEntry;
    this.stopOnError = s.stopOnError;
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
    if (!this.stopOnError || this.rt === null) return;
    this.errorAt = at;
    this.stop("exception", message);
    this.errorAt = null;
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
        case "stopOnError":
          this.stopOnError = c.on;
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
