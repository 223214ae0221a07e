// Jinja2 3.1's builtin filters (jinja2.filters.FILTERS) as HF transformers' chat-template
// environment has them: the same set, with `tojson` replaced by HF's own. Signatures leave out the
// filtered value (`x | indent(2)` is `indent(x, 2)`).
import { indexByName, type Fact } from "./fact";

export const FILTERS: readonly Fact[] = [
  { name: "abs", signature: "abs", doc: "The absolute value of a number." },
  {
    name: "attr",
    signature: "attr(name)",
    doc: "The attribute `name` of the value, without falling back to an item lookup (`x.name` tries both).",
  },
  {
    name: "batch",
    signature: "batch(linecount, fill_with=none)",
    doc: "Splits a sequence into lists of `linecount` items; the last one is padded with `fill_with` when given.",
  },
  { name: "capitalize", signature: "capitalize", doc: "First character upper case, the rest lower case." },
  { name: "center", signature: "center(width=80)", doc: "Centers the string in a field of `width` characters." },
  { name: "count", signature: "count", doc: "Alias of `length`." },
  { name: "d", signature: "d(default_value='', boolean=false)", doc: "Alias of `default`." },
  {
    name: "default",
    signature: "default(default_value='', boolean=false)",
    doc: "The value, or `default_value` when it is undefined. With `boolean=true` also when it is falsy (empty string, `none`, `0`).",
  },
  {
    name: "dictsort",
    signature: "dictsort(case_sensitive=false, by='key', reverse=false)",
    doc: "The `(key, value)` pairs of a dict, sorted by key (or by value with `by='value'`).",
  },
  { name: "e", signature: "e", doc: "Alias of `escape`." },
  { name: "escape", signature: "escape", doc: "HTML-escapes `&`, `<`, `>`, `'` and `\"` (returns markup, so it is not escaped twice)." },
  {
    name: "filesizeformat",
    signature: "filesizeformat(binary=false)",
    doc: "A byte count as a human-readable size (`13.0 kB`; `binary=true` gives KiB, MiB).",
  },
  { name: "first", signature: "first", doc: "The first item of a sequence (undefined when it is empty)." },
  { name: "float", signature: "float(default=0.0)", doc: "Converts to a float; `default` when that fails." },
  { name: "forceescape", signature: "forceescape", doc: "HTML-escapes even values already marked safe." },
  { name: "format", signature: "format(*args, **kwargs)", doc: "Python `%`-formatting: `'%s: %d' | format(name, n)`." },
  {
    name: "groupby",
    signature: "groupby(attribute, default=none, case_sensitive=false)",
    doc: "Groups items by an attribute (dotted paths allowed); yields `(grouper, list)` pairs sorted by the grouper.",
  },
  {
    name: "indent",
    signature: "indent(width=4, first=false, blank=false)",
    doc: "Indents every line but the first by `width` spaces (or by the string `width`); `first=true` indents the first line too, `blank=true` also blank lines.",
  },
  {
    name: "int",
    signature: "int(default=0, base=10)",
    doc: "Converts to an int (strings in `base`, or with a `0x`/`0o`/`0b` prefix when `base=0`); `default` when that fails.",
  },
  {
    name: "items",
    signature: "items",
    doc: "The `(key, value)` pairs of a dict, like `dict.items()` but empty for undefined (Jinja2 ≥ 3.1).",
  },
  {
    name: "join",
    signature: "join(d='', attribute=none)",
    doc: "Concatenates the items (as strings) with `d` between them; `attribute` joins that attribute of each item.",
  },
  { name: "last", signature: "last", doc: "The last item of a sequence (undefined when it is empty)." },
  { name: "length", signature: "length", doc: "The number of items of a sequence or dict, or of characters of a string." },
  { name: "list", signature: "list", doc: "Converts to a list (a string becomes a list of characters)." },
  { name: "lower", signature: "lower", doc: "Lower case." },
  {
    name: "map",
    signature: "map(filter, *args) | map(attribute=name, default=none)",
    doc: "Applies a filter to every item, or picks an attribute of every item: `tools | map(attribute='function') | list`.",
  },
  {
    name: "max",
    signature: "max(case_sensitive=false, attribute=none)",
    doc: "The largest item (or the item with the largest `attribute`).",
  },
  {
    name: "min",
    signature: "min(case_sensitive=false, attribute=none)",
    doc: "The smallest item (or the item with the smallest `attribute`).",
  },
  { name: "pprint", signature: "pprint", doc: "Python's pretty-printed representation of the value." },
  { name: "random", signature: "random", doc: "A random item of the sequence; renders differ from run to run." },
  { name: "reject", signature: "reject(test, *args)", doc: "The items for which the test fails: `values | reject('none')`." },
  {
    name: "rejectattr",
    signature: "rejectattr(attribute, test, *args)",
    doc: "The items whose attribute fails the test (or is falsy when no test is given).",
  },
  {
    name: "replace",
    signature: "replace(old, new, count=none)",
    doc: "Replaces every occurrence of `old` by `new` (the first `count` only when given).",
  },
  { name: "reverse", signature: "reverse", doc: "The sequence (or string) in reverse order." },
  {
    name: "round",
    signature: "round(precision=0, method='common')",
    doc: "Rounds to `precision` digits; `method` is `common`, `ceil` or `floor`. Always returns a float.",
  },
  { name: "safe", signature: "safe", doc: "Marks the string safe, so autoescaping leaves it alone (chat templates do not autoescape)." },
  { name: "select", signature: "select(test, *args)", doc: "The items for which the test passes (truthy items when no test is given)." },
  {
    name: "selectattr",
    signature: "selectattr(attribute, test, *args)",
    doc: "The items whose attribute passes the test (or is truthy): `messages | selectattr('role', 'equalto', 'system')`.",
  },
  { name: "slice", signature: "slice(slices, fill_with=none)", doc: "Splits the sequence into `slices` lists of about equal length." },
  {
    name: "sort",
    signature: "sort(reverse=false, case_sensitive=false, attribute=none)",
    doc: "The items sorted (by `attribute` when given, comma-separated for several keys).",
  },
  { name: "string", signature: "string", doc: "Converts to a string (`none` becomes `'None'`, `true` becomes `'True'`)." },
  { name: "striptags", signature: "striptags", doc: "Removes SGML/XML tags and collapses whitespace." },
  { name: "sum", signature: "sum(attribute=none, start=0)", doc: "The sum of the items (or of their `attribute`), plus `start`." },
  { name: "title", signature: "title", doc: "Title case: each word starts upper case." },
  {
    name: "tojson",
    signature: "tojson(ensure_ascii=false, indent=none, separators=none, sort_keys=false)",
    doc:
      "JSON of the value. HF transformers replaces Jinja2's filter by plain `json.dumps` with these options: no HTML escaping, " +
      "non-ASCII kept, keys in insertion order, `', '` and `': '` separators. (Jinja2's own `tojson(indent=none)` escapes `<`, `>`, `&` and `'`.)",
  },
  { name: "trim", signature: "trim(chars=none)", doc: "Strips leading and trailing whitespace (or the given characters)." },
  {
    name: "truncate",
    signature: "truncate(length=255, killwords=false, end='...', leeway=none)",
    doc: "Cuts the string to `length` characters at a word boundary (mid-word with `killwords=true`) and appends `end`.",
  },
  {
    name: "unique",
    signature: "unique(case_sensitive=false, attribute=none)",
    doc: "The items with duplicates removed, in first-seen order.",
  },
  { name: "upper", signature: "upper", doc: "Upper case." },
  { name: "urlencode", signature: "urlencode", doc: "Percent-encodes a string, or a dict / pairs as a query string." },
  {
    name: "urlize",
    signature: "urlize(trim_url_limit=none, nofollow=false, target=none, rel=none, extra_schemes=none)",
    doc: "Turns URLs in the text into HTML links.",
  },
  { name: "wordcount", signature: "wordcount", doc: "The number of words." },
  {
    name: "wordwrap",
    signature: "wordwrap(width=79, break_long_words=true, wrapstring=none, break_on_hyphens=true)",
    doc: "Wraps the text at `width` characters.",
  },
  {
    name: "xmlattr",
    signature: "xmlattr(autospace=true)",
    doc: "Renders a dict as XML/HTML attributes (`none` and undefined values are skipped).",
  },
];

export const FILTERS_BY_NAME = indexByName(FILTERS);
