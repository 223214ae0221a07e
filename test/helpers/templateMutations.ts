// Seeded mutations of chat templates for fuzzing: what a clumsy edit or a hostile paste does to a document.
// Each mutation deletes, duplicates or inserts at a random place: tag openers and closers, block statements
// left unclosed, deep nesting, and whole hostile templates from the catalogue.
import { HOSTILE_TEMPLATES } from "./hostileTemplates";
import { pick } from "./random";

type Rng = () => number;

const FRAGMENTS = [
  "{%",
  "{{",
  "%}",
  "}}",
  "{#",
  "#}",
  "{%-",
  "-%}",
  "{% if x %}",
  "{% for m in messages %}",
  "{% endfor %}",
  "{% endif %}",
  "{% macro f(a) %}",
  "{% endmacro %}",
  "{% set ns = namespace(x=1) %}",
  "|tojson",
  "|join(', ')",
  "[",
  "]",
  "(",
  ")",
  "'",
  '"',
  "\\",
  "\n",
  "\u{1F600}",
  "\u0000",
];
// the catalogue's templates small enough to paste many times over (the 10 MB ones have tests of their own)
const BOMBS = HOSTILE_TEMPLATES.filter((h) => h.template.length <= 100_000).map((h) => h.template);

const nesting = (r: Rng): string => {
  const n = 1 + Math.floor(r() * 400);
  return pick(r, [
    () => "{% if true %}".repeat(n) + "x" + "{% endif %}".repeat(Math.floor(r() * n)),
    () => `{{ ${"(".repeat(n)}1${")".repeat(Math.floor(r() * n))} }}`,
    () => `{{ ${"[".repeat(n)}${"]".repeat(n)} }}`,
    () => `{{ x${"|string".repeat(n)} }}`,
  ])();
};

/** One mutation of `text` at a random place. */
function mutateOnce(text: string, r: Rng): string {
  const at = Math.floor(r() * (text.length + 1));
  const span = 1 + Math.floor(r() * 40);
  const kind = r();
  if (kind < 0.25) return text.slice(0, at) + text.slice(at + span);
  if (kind < 0.45) return text.slice(0, at) + text.slice(at, at + span).repeat(2 + Math.floor(r() * 3)) + text.slice(at);
  if (kind < 0.75) return text.slice(0, at) + pick(r, FRAGMENTS) + text.slice(at);
  if (kind < 0.9) return text.slice(0, at) + nesting(r) + text.slice(at);
  return text.slice(0, at) + pick(r, BOMBS) + text.slice(at);
}

/** One to four mutations of `text`. */
export function mutate(text: string, r: Rng): string {
  let t = text;
  for (let n = 1 + Math.floor(r() * 4); n > 0; n--) t = mutateOnce(t, r);
  return t;
}
