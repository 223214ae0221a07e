// minja's whitespace control, recomputed from the source of one text run (Parser::parseTemplate, the
// TextTemplateToken branch, with trim_blocks and lstrip_blocks on). It differs from Jinja2 in two
// ways that real templates hit: lstrip_blocks also strips before `{{` (corpus
// ByteDance-Seed-OSS/tools-offered), and newlines are kept as written (no \r\n normalisation).
import type * as A from "../../parser";

// std::regex `\s` in the C locale: ASCII whitespace only.
const TRAILING_SPACE = /[ \t\n\v\f\r]+$/;
const LEADING_SPACE = /^[ \t\n\v\f\r]+/;

export function minjaText(node: A.Text, source: string): string {
  // The front end leaves a template's final newline out of the last text run (Jinja2's
  // keep_trailing_newline=False); minja removes it itself in step 3, so give it back.
  let t = source.slice(node.start, node.after ? node.end : source.length);

  // 1. Towards the next tag: `-` strips all trailing whitespace, else lstrip_blocks drops the
  //    spaces/tabs after the last newline (or all of them when this is the first token).
  if (node.after?.sign === "-") {
    t = t.replace(TRAILING_SPACE, "");
  } else if (node.after) {
    let i = t.length;
    while (i > 0 && (t[i - 1] === " " || t[i - 1] === "\t")) i--;
    if ((i === 0 && !node.before) || (i > 0 && t[i - 1] === "\n")) t = t.slice(0, i);
  }
  // 2. After the previous tag: `-` strips all leading whitespace, else trim_blocks drops one
  //    newline after a block or comment tag (not after `}}`).
  if (node.before?.sign === "-") {
    t = t.replace(LEADING_SPACE, "");
  } else if (node.before && node.before.type !== "variable" && t.startsWith("\n")) {
    t = t.slice(1);
  }
  // 3. The last token loses one trailing newline (keep_trailing_newline=false).
  if (!node.after) t = t.replace(/\r?\n$/, "");
  return t;
}
