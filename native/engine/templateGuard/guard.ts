// llama.cpp's Jinja engine has no limits: a macro that calls itself overflows the stack and kills the
// process, `range(10000000000)` never returns. So before it is given a template, our port of that engine
// (the llamacpp dialect, identical on the whole corpus) renders what it would render, under limits: at
// init the capability probe, the autoparser's conversations and the enable_thinking check (the same for
// every request, so checked once per template text), and for each request the request's own contexts.
// Our render is only a check: its output is thrown away and the native render stays the source of the
// bytes. Errors other than a limit are left to llama.cpp, which raises them in its own words.
import { probeCaps } from "../../../server/src/analysis/caps/capsProbe";
import type { Dialect } from "../../../server/src/dialects/dialect";
import { llamacpp_0_5_0 } from "../../../server/src/dialects/llamacpp-v0.5.0";
import { TemplateDocument } from "../../../server/src/document";
import type { Limits } from "../../../server/src/interpreter/limits";
import { render } from "../../../server/src/interpreter/render";
import { LineIndex } from "../../../server/src/parser/lineIndex";
import { EngineError, TemplateLimitError } from "../errors";
import { requestContexts, type ServedTemplate, type TemplateInputs } from "./chatLayerContext";
import { fixedRenders } from "./fixedRenders";
import { guardLimits, MAX_INPUT_DEPTH } from "./limits";
import { deepestPoint, jsonDepth } from "./nesting";
import type { ServedTemplates } from "./servedTemplates";

/** llama.cpp's engine as its chat layer feeds it: JSON values as they are (no node-llama-cpp input conversion). */
const CHAT_LAYER: Dialect = { ...llamacpp_0_5_0, context: undefined };

const LIMIT_NAMES: Record<string, TemplateLimitError["limit"]> = { "limit/steps": "steps", "limit/output": "output", "limit/recursion": "recursion" };

interface Checked {
  doc: TemplateDocument;
  served: ServedTemplate;
}

const isStackOverflow = (e: unknown) => e instanceof RangeError && /call stack/i.test(e.message);

function refusal(lines: LineIndex, limit: TemplateLimitError["limit"], offset: number, why: string, what: string | null): TemplateLimitError {
  const p = lines.positionAt(offset);
  const [line, column] = [p.line + 1, p.character + 1];
  return new TemplateLimitError(
    limit,
    line,
    column,
    `chat template exceeds the ${limit === "steps" ? "step" : limit} limit at line ${line}, column ${column}: ${why}${what ? ` (rendering ${what})` : ""}; ` +
      "llama.cpp's Jinja engine has no limits and would hang or crash on it, so it is not run",
  );
}

function limitHit(doc: TemplateDocument, e: { code: string; message: string; start: number } | null, what: string): TemplateLimitError | null {
  const limit = e && LIMIT_NAMES[e.code];
  return limit ? refusal(doc.lines, limit, e.start, e.message, what) : null;
}

/** Our render of one context; throws the refusal when it hits a limit. */
function check(doc: TemplateDocument, context: Record<string, unknown>, limits: Limits, what: string): void {
  const hit = limitHit(doc, render(doc, context, { dialect: CHAT_LAYER, limits }).error, what);
  if (hit) throw hit;
}

/** Input JSON the guard can convert without overflowing its stack; an invalid_argument otherwise. */
function checkedInput(json: string, what: string): unknown {
  const depth = jsonDepth(json);
  if (depth > MAX_INPUT_DEPTH) throw new EngineError("invalid_argument", `values in ${what} nest ${depth} levels deep; a chat template is checked against at most ${MAX_INPUT_DEPTH} levels`);
  return JSON.parse(json);
}

const DOCS_KEPT = 32;
const docs = new Map<string, TemplateDocument | null>();

/** The template parsed as llama.cpp parses it; null when it does not parse (llama.cpp reports that itself). */
function parsed(source: string): TemplateDocument | null {
  let doc = docs.get(source);
  if (doc === undefined) {
    try {
      doc = new TemplateDocument(source);
      if ("error" in CHAT_LAYER.parse!(source)) doc = null;
    } catch (e) {
      if (!isStackOverflow(e)) throw e;
      // llama.cpp's parser recurses too, on a stack of its own: past a few thousand levels it crashes
      throw refusal(new LineIndex(source), "nesting", deepestPoint(source), "it nests too deeply to parse", null);
    }
    if (docs.size >= DOCS_KEPT) docs.delete(docs.keys().next().value!);
    docs.set(source, doc);
  }
  return doc;
}

/** Every render llama.cpp makes of a template whatever the request; null when it does not parse. */
function checked(source: string | null, tokens: { bos: string; eos: string }): Checked | null {
  const doc = source === null ? null : parsed(source);
  if (doc === null || source === null) return null;
  const probe = probeCaps(doc, CHAT_LAYER, { limits: guardLimits(0) });
  for (const e of probe.errors) {
    const hit = limitHit(doc, e, `llama.cpp's capability probe ${e.probe}`);
    if (hit) throw hit;
  }
  const served: ServedTemplate = { source, caps: probe.caps, ...tokens };
  for (const r of fixedRenders(served, new Date())) check(doc, r.context, guardLimits(0), r.what);
  return { doc, served };
}

const CACHE_SIZE = 32;
const cache = new Map<string, TemplateGuard | TemplateLimitError>();

export class TemplateGuard {
  private constructor(
    private readonly byDefault: Checked | null,
    private readonly withTools: Checked | null,
  ) {}

  /**
   * The checks of these templates that hold for every request; throws TemplateLimitError. Remembered per
   * text, so a template served again (a reload, /chat/parse with the same source) is not checked again.
   */
  static of(served: ServedTemplates, tokens: { bos: string; eos: string }): TemplateGuard {
    const key = JSON.stringify([served.default, served.toolUse, tokens.bos, tokens.eos]);
    let r = cache.get(key);
    if (r) {
      cache.delete(key);
    } else {
      try {
        const byDefault = checked(served.default, tokens);
        // a tool_use variant that does not parse is ignored by llama.cpp
        r = new TemplateGuard(byDefault, checked(served.toolUse, tokens));
      } catch (e) {
        if (!(e instanceof TemplateLimitError)) throw e;
        r = e;
      }
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(key, r);
    if (r instanceof TemplateLimitError) throw r;
    return r;
  }

  /** Renders what llama.cpp will render for this request (ChatTemplates::template_inputs); throws TemplateLimitError. */
  checkRequest(inputsJson: string): void {
    const inputs = checkedInput(inputsJson, "the request") as TemplateInputs;
    const t = inputs.tools && this.withTools ? this.withTools : this.byDefault;
    if (!t) return;
    for (const context of requestContexts(t.served, inputs, new Date()) ?? []) check(t.doc, context, guardLimits(inputsJson.length), "the request");
  }
}

/** renderTemplate's check: the template with these variables (as JSON); throws TemplateLimitError. */
export function checkRender(source: string, variablesJson: string): void {
  const doc = parsed(source);
  if (doc) check(doc, checkedInput(variablesJson, "the template variables") as Record<string, unknown>, guardLimits(variablesJson.length), "the template variables");
}
