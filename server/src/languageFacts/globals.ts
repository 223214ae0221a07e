// Functions every chat template can call: Jinja2's default namespace (jinja2.defaults.DEFAULT_NAMESPACE)
// and the two HF transformers adds to its chat-template environment.
import { indexByName, type Fact } from "./fact";

export const GLOBALS: readonly Fact[] = [
  {
    name: "range",
    signature: "range([start,] stop[, step])",
    doc: "The integers from `start` (default 0) up to, not including, `stop`. The sandbox refuses ranges longer than 100000 items.",
  },
  { name: "dict", signature: "dict(**items)", doc: "A dict of the keyword arguments: `dict(role='user', content=x)`." },
  {
    name: "namespace",
    signature: "namespace(**attrs)",
    doc:
      "A mutable object whose attributes survive loop scopes: `{% set ns = namespace(found=false) %}` … " +
      "`{% set ns.found = true %}` inside a `for` is still set after it (a plain `set` inside a loop is not).",
  },
  { name: "lipsum", signature: "lipsum(n=5, html=true, min=20, max=100)", doc: "Lorem-ipsum placeholder text of `n` paragraphs." },
  {
    name: "cycler",
    signature: "cycler(*items)",
    doc: "An object that cycles through the items: `.next()` returns the next one, `.current` the current one, `.reset()` starts over.",
  },
  {
    name: "joiner",
    signature: "joiner(sep=', ')",
    doc: "A callable that returns `''` the first time and `sep` after that, for separators between items.",
  },
  {
    name: "raise_exception",
    signature: "raise_exception(message)",
    doc:
      "HF transformers: aborts rendering with `TemplateError(message)`. Templates call it to reject inputs they cannot format " +
      "(roles out of order, a system message in the wrong place).",
  },
  {
    name: "strftime_now",
    signature: "strftime_now(format)",
    doc: "HF transformers: the current local time formatted with Python's `strftime`, e.g. `strftime_now('%d %b %Y')`; renders differ by date.",
  },
];

export const GLOBALS_BY_NAME = indexByName(GLOBALS);
