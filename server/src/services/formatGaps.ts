// What Jinja2 emits for the text between two units (tags, comments, raw blocks), for the formatter's first proof:
// a whitespace edit is harmless for every input when the text it touches still emits the same characters, which
// happens only where the whitespace control drops it (trim_blocks eats the newline after a statement,
// lstrip_blocks the blanks before one at a line start, `-` every blank on its side). The lexer decides, on the
// gap alone between stand-ins for its two units (a unit's contents never change what is trimmed beside it).
import { lex } from "../parser";
import type { Gap, Unit } from "./formatLayout";

/** A unit that ends as `u` ends. */
function endingLike(text: string, u: Unit | null): string {
  if (!u) return "";
  const close = text.slice(u.close.start, u.close.end);
  switch (u.kind) {
    case "variable":
      return `{{ x ${close}`;
    case "block":
      return `{% x ${close}`;
    case "comment":
      return `{# ${close.slice(close.length - 3)}`;
    case "raw":
      return `{% raw %}${close}`;
  }
}

/** A unit that starts as `u` starts. */
function startingLike(text: string, u: Unit | null): string {
  if (!u) return "";
  const open = text.slice(u.open.start, u.open.end);
  switch (u.kind) {
    case "variable":
      return `${open} x }}`;
    case "block":
      return `${open} x %}`;
    case "comment":
      return `${open.slice(0, 3)} #}`;
    case "raw":
      return `${open}{% endraw %}`;
  }
}

/** What the template emits for `gap` when its source is `content`. */
export function emittedText(text: string, gap: Gap, content: string): string {
  let out = "";
  for (const t of lex(endingLike(text, gap.before) + content + startingLike(text, gap.after)).tokens)
    if (t.type === "text") out += t.text!.value;
  return out;
}
