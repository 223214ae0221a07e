// Fix all (`source.fixAll`, what `editor.codeActionsOnSave` asks for): every safe fix for the engines' findings,
// the same set `chat-template fix` applies (analysis fixAll), as one edit over the span the fixes changed, so
// the rest of the document (and the cursor in it) is left alone.
import { BUILTIN_SCENARIOS, dialectsOf, fixAll, type TextEdit } from "../analysis";
import type { TemplateDocument } from "../document";
import type { ValidationOptions } from "./diagnostics";

export interface FixAllAction {
  title: string;
  kind: "source.fixAll";
  edits: TextEdit[];
  /** The title of each fix applied, in order. */
  applied: string[];
}

/** The fix-all action, or null when no safe fix applies (nothing to fix, or a security finding refuses them all). */
export function getFixAll(doc: TemplateDocument, options: ValidationOptions): FixAllAction | null {
  const scenarios = options.scenarios ?? BUILTIN_SCENARIOS;
  const { text, applied } = fixAll(doc, dialectsOf(options.engines), scenarios, { nullToolsProbe: options.nullToolsProbe ?? true });
  if (text === doc.text) return null;
  const before = doc.text;
  let start = 0;
  while (start < before.length && start < text.length && before[start] === text[start]) start++;
  let tail = 0;
  while (tail < before.length - start && tail < text.length - start && before[before.length - 1 - tail] === text[text.length - 1 - tail])
    tail++;
  const edit = { start, end: before.length - tail, newText: text.slice(start, text.length - tail) };
  const title = applied.length === 1 ? `Fix all: ${applied[0]}` : `Fix all: ${applied.length} safe fixes`;
  return { title, kind: "source.fixAll", edits: [edit], applied };
}
