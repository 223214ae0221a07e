// @huggingface/jinja's whitespace control, recomputed from the source of one text run. The engine
// applies regexes to the whole source before it tokenizes (lexer.ts preprocess): the template's last
// "\n" goes, `^[ \t]*` goes before `{%`/`{#` at a line start (not before `{{`), one "\n" goes after
// `%}`/`#}`; then `{%-` and `-%}` strip with JavaScript's trimEnd/trimStart.
import type * as A from "../../parser";

/** JS `^` in multiline mode: the start of the input or after a line terminator. */
function atLineStart(source: string, i: number): boolean {
  return i === 0 || "\n\r\u2028\u2029".includes(source[i - 1]);
}

const opensBlock = (e: A.TagEdge | null) => e !== null && e.type !== "variable";

export function hfText(node: A.Text, source: string): string {
  // The front end leaves Jinja2's final newline out of the last run; the engine removes only "\n".
  let t = source.slice(node.start, node.after ? node.end : source.length);
  if (!node.after && t.endsWith("\n")) t = t.slice(0, -1);
  if (opensBlock(node.after)) {
    const spaces = /[ \t]*$/.exec(t)![0].length;
    if (atLineStart(source, node.end - spaces)) t = t.slice(0, t.length - spaces);
  }
  if (opensBlock(node.before) && t.startsWith("\n")) t = t.slice(1);
  if (node.after?.sign === "-") t = t.trimEnd();
  if (node.before?.sign === "-") t = t.trimStart();
  return t;
}
