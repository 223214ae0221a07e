// Public types of the language service. Offsets are UTF-16 code units into the template text;
// the LSP layer and the CLI convert them to line/column.
import type { Span } from "./parser/ast";
import type { RelatedSpan } from "./parser/problems";

export type { Span, RelatedSpan };

export const ENGINE_IDS = ["jinja2", "llamacpp", "minja", "hfjinja"] as const;
export type EngineId = (typeof ENGINE_IDS)[number];
/** Checked when no setting or --engines says otherwise; jinja2 is the reference. */
export const DEFAULT_ENGINES: readonly EngineId[] = ["jinja2", "llamacpp", "minja"];

export function isEngineId(s: string): s is EngineId {
  return (ENGINE_IDS as readonly string[]).includes(s);
}

export type Severity = "error" | "warning" | "information" | "hint";

export interface Diagnostic extends Span {
  severity: Severity;
  /** `syntax/…` for parse problems; `<engine>/…` or `compat/…` for engine rules. */
  code: string;
  /** null for syntax problems, which concern the template itself. */
  engine: EngineId | null;
  message: string;
  related?: RelatedSpan[];
}
