// The render API the CLI, the language server and the preview call: one template, one context,
// one dialect → the output, where each chunk of it came from, and the error if there was one
// (with the output produced up to it, which Python's Jinja2 would have thrown away).
import type { Dialect, Refusal, WallClock } from "./dialect";
import type { TemplateDocument } from "../document";
import { renderStarting } from "../progressPipe/renderProgress";
import type * as A from "../parser";
import { PyDict } from "./dict";
import { Fault, type RenderError } from "./errors";
import type { DebugHook } from "./debug";
import { Evaluator } from "./evaluator";
import { fromJS } from "./json";
import { DEFAULT_LIMITS, type Limits } from "./limits";
import { Output, type Chunk } from "./output";
import { walk } from "../parser";

export interface RenderOptions {
  dialect: Dialect;
  /** What strftime_now reports; default: the host's local time at each call. */
  now?: WallClock;
  limits?: Partial<Limits>;
  /** A debugger's hook (see debug.ts). */
  debug?: DebugHook;
}

export interface RenderResult {
  output: string;
  chunks: Chunk[];
  error: RenderError | null;
}

type Prepared =
  | { atParse: { at: A.Span; nodeId: number; refusal: Refusal } }
  | {
      atParse: null;
      /** The tree to run: our parse, or the engine's own (Dialect.parse). */
      template: A.Template;
      atRender: Map<number, Refusal>;
      frameUndefined: ReadonlyMap<number, readonly string[]>;
    };

const NONE: ReadonlyMap<number, readonly string[]> = new Map();
const prepared = new WeakMap<TemplateDocument, Map<Dialect, Prepared>>();
type OwnParse = ReturnType<NonNullable<Dialect["parse"]>>;
const ownParses = new WeakMap<TemplateDocument, Map<NonNullable<Dialect["parse"]>, OwnParse>>();

/**
 * The engine's own parse of a document, made once per parser: the dialects a check instruments, or given a
 * server's flags, are other objects with the same parser, and each parse of a 10 MB template holds 300 MB.
 */
function ownParse(doc: TemplateDocument, parse: NonNullable<Dialect["parse"]>): OwnParse {
  let byParser = ownParses.get(doc);
  if (!byParser) ownParses.set(doc, (byParser = new Map()));
  let own = byParser.get(parse);
  if (!own) byParser.set(parse, (own = parse(doc.text)));
  return own;
}

/** The dialect's refusals for a document, computed once per (document, dialect). */
function prepare(doc: TemplateDocument, dialect: Dialect): Prepared {
  let byDialect = prepared.get(doc);
  if (!byDialect) prepared.set(doc, (byDialect = new Map()));
  let p = byDialect.get(dialect);
  if (!p) {
    const source = doc.text;
    const own = dialect.parse && ownParse(doc, dialect.parse);
    if (own && "error" in own) {
      p = { atParse: { at: own.error, nodeId: -1, refusal: own.error } };
    } else {
      const template = own ? own.template : doc.template;
      let atParse: { at: A.Span; nodeId: number; refusal: Refusal } | null = null;
      const atRender = new Map<number, Refusal>();
      walk(template, (node, ancestors) => {
        const r = dialect.refuse(node, ancestors, dialect, source);
        if (!r) return;
        if (r.when === "parse") atParse ??= { at: node, nodeId: node.id, refusal: r };
        else atRender.set(node.id, r);
      });
      p = atParse ? { atParse } : { template, atParse, atRender, frameUndefined: dialect.frameUndefined?.(template) ?? NONE };
    }
    byDialect.set(dialect, p);
  }
  return p;
}

export function render(doc: TemplateDocument, context: PyDict | Record<string, unknown>, options: RenderOptions): RenderResult {
  const { dialect } = options;
  // An engine with its own parser is not bound by our (Jinja2's) syntax errors.
  const syntax = dialect.parse ? undefined : doc.problems.find((p) => p.severity === "error");
  if (syntax) {
    const f = new Fault(syntax.code, "TemplateSyntaxError", syntax.message);
    return {
      output: "",
      chunks: [],
      error: { code: syntax.code, message: dialect.errorMessage(f), start: syntax.start, end: syntax.end, nodeId: -1 },
    };
  }
  const p = prepare(doc, dialect);
  if (p.atParse) {
    const { at, nodeId, refusal } = p.atParse;
    const f = new Fault(refusal.code, null, refusal.message);
    return {
      output: "",
      chunks: [],
      error: { code: refusal.code, message: dialect.errorMessage(f), start: at.start, end: at.end, nodeId },
    };
  }
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const out = new Output(limits.output, dialect.captured !== undefined);
  const given = context instanceof PyDict ? context : (fromJS(context) as PyDict);
  let engineContext: PyDict;
  try {
    engineContext = dialect.context ? dialect.context(given) : given;
  } catch (e) {
    if (!(e instanceof Fault)) throw e;
    const t = doc.template;
    return { output: "", chunks: [], error: { code: e.code, message: dialect.errorMessage(e), start: t.start, end: t.end, nodeId: t.id } };
  }
  const ev = new Evaluator({
    source: doc.text,
    lines: doc.lines,
    context: engineContext,
    dialect,
    limits,
    now: options.now ? () => options.now! : localNow,
    refusals: p.atRender,
    frameUndefined: p.frameUndefined,
    debug: options.debug,
  });
  let error: RenderError | null = null;
  renderStarting(doc.text);
  try {
    ev.renderTemplate(p.template, out);
  } catch (thrown) {
    const e = ev.located(thrown);
    if (!(e instanceof Fault)) throw e;
    const at = e.node ?? doc.template;
    error = { code: e.code, message: dialect.errorMessage(e), start: at.start, end: at.end, nodeId: at.id };
  }
  return { output: out.toString(), chunks: out.chunks, error };
}

/** This machine's local time as a template's `strftime_now` sees it. */
export function localNow(): WallClock {
  const d = new Date();
  return {
    year: d.getFullYear(),
    month: d.getMonth() + 1,
    day: d.getDate(),
    hour: d.getHours(),
    minute: d.getMinutes(),
    second: d.getSeconds(),
    microsecond: d.getMilliseconds() * 1000,
  };
}

/** Parses `2026-01-15T09:30:00` (date alone, fractions and an offset allowed) as a naive wall clock. */
export function parseWallClock(iso: string): WallClock | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6})\d*)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/.exec(iso);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
  const microsecond = Number((m[7] ?? "").padEnd(6, "0"));
  const check = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null;
  return { year, month, day, hour, minute, second, microsecond };
}
