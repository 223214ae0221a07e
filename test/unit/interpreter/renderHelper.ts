// Renders a template string with the jinja2 dialect (the interpreter tests' common entry).
import { jinja2_3_1_6 } from "../../../server/src/dialects/jinja2-3.1.6";
import { TemplateDocument } from "../../../server/src/document/document";
import { parseJson } from "../../../server/src/interpreter/json";
import type { Limits } from "../../../server/src/interpreter/limits";
import { render, type RenderResult } from "../../../server/src/interpreter/render";
import type { PyDict } from "../../../server/src/interpreter/dict";
import type { Dialect } from "../../../server/src/interpreter";

/** `dialect`: jinja2 (3.1.6) unless a test is about another version. */
export function run(
  template: string,
  contextJson = "{}",
  limits?: Partial<Limits>,
  dialect: Dialect = jinja2_3_1_6,
): RenderResult & { doc: TemplateDocument } {
  const doc = new TemplateDocument(template);
  return { doc, ...render(doc, parseJson(contextJson) as PyDict, { dialect, limits }) };
}

/** The template text of the node an error points at. */
export function errorSource(r: ReturnType<typeof run>): string {
  return r.error ? r.doc.text.slice(r.error.start, r.error.end) : "";
}
