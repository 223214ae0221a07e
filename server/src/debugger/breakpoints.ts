// Where a line breakpoint binds: the first statement or output expression that starts on its line, or, for a line
// with none (plain text, a comment, an `{% endif %}`), the first one after it. A statement is placed by its opening
// tag, so a block stops once, where it opens.
import type { TemplateDocument } from "../document";
import { walk, type Node, type Stmt } from "../parser";

const STATEMENT_KINDS = new Set<string>([
  "Output",
  "If",
  "For",
  "Set",
  "SetBlock",
  "Macro",
  "CallBlock",
  "FilterBlock",
  "Raw",
  "Generation",
  "Break",
  "Continue",
  "With",
  "Autoescape",
  "Include",
  "Import",
  "FromImport",
  "Extends",
  "BlockStmt",
  "ErrorStmt",
]);

/** Where the render is placed while a statement runs: a block at its opening tag. */
function statementStart(n: Stmt): number {
  return ((n as { openTag?: { start: number } }).openTag ?? n).start;
}

export interface StatementPlace {
  /** 0-based line of its start. */
  line: number;
  /** Its start offset: the one a paused render matches. */
  offset: number;
}

/** Every statement's place in the template (template text excepted), sorted by offset. */
export function statementPlaces(doc: TemplateDocument): StatementPlace[] {
  const places: StatementPlace[] = [];
  walk(doc.template, (n: Node) => {
    if (!STATEMENT_KINDS.has(n.kind)) return;
    const offset = statementStart(n as Stmt);
    places.push({ line: doc.lines.positionAt(offset).line, offset });
  });
  return places.sort((a, b) => a.offset - b.offset);
}

/** The statement a breakpoint on `line` (0-based) binds to, or null when none starts on or after it. */
export function bindBreakpoint(places: readonly StatementPlace[], line: number): StatementPlace | null {
  return places.find((p) => p.line >= line) ?? null;
}
