// Checks of a template against the model it serves (a template opened from a GGUF, or checked with a
// model's tokenizer): what renders fine in every engine and still cannot work with these weights —
// special tokens the vocabulary lacks (tokenized as plain text pieces the model never learned), finished
// assistant turns without the token that ends generation, a BOS the tokenizer adds again, an
// add_generation_prompt that changes nothing, an empty prompt. Rendered in the reference dialect with
// the sample scenarios, the model's own bos/eos texts in the context.
import type { Diagnostic, Span, TemplateDocument } from "../../document";
import { type Chunk, PyDict, render, type RenderResult } from "../../interpreter";
import { type Scenario, scenarioContext } from "../scenario";
import { walk } from "../../parser";
import { referenceDialect } from "../engineChecks";
import { BUILTIN_SCENARIOS, CHECK_LIMITS, CHECK_NOW } from "../scenarios";
import type { ModelTokenizer } from "./modelTokenizer";

/** Strings shaped like special tokens in the common chat formats. */
const SPECIAL_SHAPES =
  /<\|[^<>|\s]{1,64}\|>|<｜[^<>｜\n]{1,64}｜>|<\/?(?:start_of_turn|end_of_turn|im_start|im_end|s|bos|eos)>|\[\/?(?:INST|SYSTEM_PROMPT|TOOL_CALLS|AVAILABLE_TOOLS|TOOL_RESULTS)\]/g;

function renderWith(doc: TemplateDocument, s: Scenario, tok: ModelTokenizer, addGenerationPrompt?: boolean): RenderResult {
  const ctx = scenarioContext(s);
  if (tok.bos !== null) ctx.set("bos_token", tok.bos);
  if (tok.eos !== null) ctx.set("eos_token", tok.eos);
  if (addGenerationPrompt !== undefined) ctx.set("add_generation_prompt", addGenerationPrompt);
  return render(doc, ctx, { dialect: referenceDialect(), now: CHECK_NOW, limits: CHECK_LIMITS });
}

/** Where the output at `offset` came from: the exact spelling of `needle` when the template writes it literally there. */
function sourceAt(doc: TemplateDocument, chunks: readonly Chunk[], offset: number, needle = ""): Span | null {
  const c = chunks.find((x) => x.start <= offset && offset < x.end);
  if (!c) return null;
  const at = needle ? doc.text.slice(c.sourceStart, c.sourceEnd).indexOf(needle) : -1;
  return at >= 0 ? { start: c.sourceStart + at, end: c.sourceStart + at + needle.length } : { start: c.sourceStart, end: c.sourceEnd };
}

const finding = (span: Span, severity: Diagnostic["severity"], code: string, message: string): Diagnostic => ({
  start: span.start,
  end: span.end,
  severity,
  code,
  engine: null,
  message,
});

function firstUse(doc: TemplateDocument, name: string): Span {
  let at: Span | null = null;
  walk(doc.template, (n) => {
    if (!at && n.kind === "Name" && n.name === name) at = { start: n.start, end: n.end };
  });
  return at ?? { start: 0, end: 0 };
}

export function modelFindings(doc: TemplateDocument, tok: ModelTokenizer): Diagnostic[] {
  if (doc.problems.some((p) => p.severity === "error")) return [];
  const out: Diagnostic[] = [];
  const missing = new Map<string, Span>();
  let anyOutput = false;
  let rendered = 0;
  for (const s of BUILTIN_SCENARIOS) {
    const r = renderWith(doc, s, tok);
    if (r.error) continue;
    rendered++;
    if (r.output) anyOutput = true;
    for (const m of r.output.matchAll(SPECIAL_SHAPES)) {
      if (tok.tokens.has(m[0]) || missing.has(m[0])) continue;
      missing.set(m[0], sourceAt(doc, r.chunks, m.index!, m[0]) ?? { start: 0, end: 0 });
    }
    const messages = s.data.get("messages");
    const finishedTurn = (Array.isArray(messages) ? messages.slice(0, -1) : []).find(
      (m) => m instanceof PyDict && m.get("role") === "assistant" && typeof m.get("content") === "string" && m.get("content"),
    );
    const finished = finishedTurn instanceof PyDict ? { content: finishedTurn.get("content") } : undefined;
    if (
      finished &&
      r.output &&
      tok.endOfGeneration.length &&
      !tok.endOfGeneration.some((e) => r.output.includes(e)) &&
      !out.some((d) => d.code === "model/no-end-of-generation")
    ) {
      const at = sourceAt(doc, r.chunks, r.output.indexOf(finished.content as string)) ?? { start: 0, end: 0 };
      out.push(
        finding(
          at,
          "warning",
          "model/no-end-of-generation",
          `a finished assistant turn is not closed with ${tok.endOfGeneration.map((e) => `'${e}'`).join(" or ")} (in scenario '${s.name}'): the model learned to end its turns with it, and a history without it teaches it to run on`,
        ),
      );
    }
    if (s.name === "basic") {
      if (tok.addsBos && tok.bos && r.output.startsWith(tok.bos)) {
        out.push(
          finding(
            sourceAt(doc, r.chunks, 0) ?? { start: 0, end: 0 },
            "warning",
            "model/double-bos",
            `the prompt starts with '${tok.bos}' and this model's tokenizer adds BOS itself (add_bos_token): the model sees two`,
          ),
        );
      }
      // the scenario asks for the prompt already: its render is the "with" side
      const withPrompt = s.data.get("add_generation_prompt") === true ? r : renderWith(doc, s, tok, true);
      const without = renderWith(doc, s, tok, false);
      if (!withPrompt.error && !without.error && withPrompt.output === without.output) {
        out.push(
          finding(
            firstUse(doc, "add_generation_prompt"),
            "warning",
            "model/generation-prompt-ignored",
            "add_generation_prompt changes nothing: the prompt is the same with and without it, so a server cannot ask for (or leave out) the assistant's opening",
          ),
        );
      }
    }
  }
  for (const [token, at] of missing) {
    out.push(
      finding(
        at,
        "error",
        "model/unknown-special-token",
        `emits '${token}', which this model's vocabulary does not have: it is tokenized as plain text pieces the model never learned as a marker`,
      ),
    );
  }
  if (rendered > 0 && !anyOutput)
    out.push(
      finding({ start: 0, end: doc.text.length }, "error", "model/empty-render", "renders an empty prompt for every sample conversation"),
    );
  return out.sort((a, b) => a.start - b.start);
}
