// llama.cpp's Jinja engine has no limits: a macro that calls itself overflows the stack and kills the
// process, `range(10000000000)` never returns, `divisibleby(0)` raises SIGFPE. So before it is given a
// template, our port of that engine (the llamacpp dialect, identical on the whole corpus) renders what it
// would render, under limits: at init the capability probe, the autoparser's conversations and the
// enable_thinking check (the same for every request, so checked once per template text), and for each
// request the request's own contexts. Our render is only a check: its output is thrown away and the native
// render stays the source of the bytes. What the check cannot vouch for is refused (refusals.ts); errors our
// port models as llama.cpp's own are left to llama.cpp, which raises them in its own words.
import { probeCaps, requestContexts, type ServedTemplate, type TemplateInputs } from "../analysis";
import { type Dialect, type Limits, render } from "../interpreter";
import { llamaServer_0_5_0 } from "../dialects";
import { TemplateDocument } from "../document";
import { LineIndex } from "../parser";
import { fixedRenders } from "./fixedRenders";
import { guardLimits, MAX_INPUT_DEPTH } from "./limits";
import { deepestPoint, jsonDepth } from "./nesting";
import { checkFailed, limitRefusal, Refused, verdict } from "./refusals";
import type { ServedTemplates } from "./servedTemplates";

/** llama.cpp's engine as its chat layer feeds it: JSON values as they are (no node-llama-cpp input conversion). */
const CHAT_LAYER: Dialect = llamaServer_0_5_0;

interface Checked {
  doc: TemplateDocument;
  served: ServedTemplate;
}

const isStackOverflow = (e: unknown) => e instanceof RangeError && /call stack/i.test(e.message);
/** `run`, with anything it throws other than a refusal made a refusal: the check failed. */
function vouching<T>(what: string | null, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof Refused) throw e;
    throw new Refused(checkFailed(e instanceof Error ? e.message : String(e), what));
  }
}

/** Our render of one context; throws the refusal when the guard cannot vouch for how it ended. */
function check(doc: TemplateDocument, context: Record<string, unknown>, limits: Limits, what: string): void {
  const refused = verdict(doc.lines, vouching(what, () => render(doc, context, { dialect: CHAT_LAYER, limits })).error, what);
  if (refused) throw new Refused(refused);
}

/** Input JSON the guard can convert without overflowing its stack; an "invalid" refusal otherwise. */
function checkedInput(json: string, what: string): unknown {
  const depth = jsonDepth(json);
  if (depth > MAX_INPUT_DEPTH)
    throw new Refused({
      kind: "invalid",
      message: `values in ${what} nest ${depth} levels deep; a chat template is checked against at most ${MAX_INPUT_DEPTH} levels`,
    });
  return JSON.parse(json);
}

const DOCS_KEPT = 32;
const docs = new Map<string, TemplateDocument | null>();

/** llama.cpp's parser recurses too, on a stack of its own: past a few thousand levels it crashes. */
function tooDeep(source: string): Refused {
  return new Refused(limitRefusal(new LineIndex(source), "nesting", deepestPoint(source), "it nests too deeply to parse", null));
}

/** The template parsed as llama.cpp parses it; null when it does not parse (llama.cpp reports that itself). */
function parsed(source: string): TemplateDocument | null {
  let doc = docs.get(source);
  if (doc === undefined) {
    try {
      doc = new TemplateDocument(source);
      const own = CHAT_LAYER.parse!(source);
      // Nesting past our parser's limits (parser/nesting.ts) is refused too, not left to llama.cpp.
      if ("error" in own && own.error.code === "syntax/nesting") throw tooDeep(source);
      if ("error" in own) doc = null;
    } catch (e) {
      if (!isStackOverflow(e)) throw e;
      throw tooDeep(source);
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
    const refused = verdict(doc.lines, e, `llama.cpp's capability probe ${e.probe}`);
    if (refused) throw new Refused(refused);
  }
  const served: ServedTemplate = { source, caps: probe.caps, ...tokens };
  for (const r of fixedRenders(served, new Date())) check(doc, r.context, guardLimits(0), r.what);
  return { doc, served };
}

const CACHE_SIZE = 32;
const cache = new Map<string, CheckedTemplates | Refused>();

/** A template's checks that hold for every request, and the check of each request's renders. */
export class CheckedTemplates {
  private constructor(
    private readonly byDefault: Checked | null,
    private readonly withTools: Checked | null,
  ) {}

  /**
   * The checks of these templates that hold for every request; throws Refused. Remembered per text, so a template served again (a reload, /chat/parse with the
   * same source) is not checked again.
   */
  static of(served: ServedTemplates, tokens: { bos: string; eos: string }): CheckedTemplates {
    const key = JSON.stringify([served.default, served.toolUse, tokens.bos, tokens.eos]);
    let r = cache.get(key);
    if (r) {
      cache.delete(key);
    } else {
      try {
        const byDefault = vouching(null, () => checked(served.default, tokens));
        // a tool_use variant that does not parse is ignored by llama.cpp
        r = new CheckedTemplates(
          byDefault,
          vouching(null, () => checked(served.toolUse, tokens)),
        );
      } catch (e) {
        if (!(e instanceof Refused)) throw e;
        r = e;
      }
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(key, r);
    if (r instanceof Refused) throw r;
    return r;
  }

  /** Renders what llama.cpp will render for this request (ChatTemplates::template_inputs); throws Refused. */
  checkRequest(inputsJson: string): void {
    const inputs = checkedInput(inputsJson, "the request") as TemplateInputs;
    const t = inputs.tools && this.withTools ? this.withTools : this.byDefault;
    if (!t) return;
    for (const context of requestContexts(t.served, inputs, new Date()) ?? [])
      check(t.doc, context, guardLimits(inputsJson.length), "the request");
  }
}

/** renderTemplate's check: the template with these variables (as JSON); throws Refused. */
export function checkRender(source: string, variablesJson: string): void {
  const doc = vouching(null, () => parsed(source));
  if (doc)
    check(
      doc,
      checkedInput(variablesJson, "the template variables") as Record<string, unknown>,
      guardLimits(variablesJson.length),
      "the template variables",
    );
}
