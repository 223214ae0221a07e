// Python methods that chat templates call on values (the sandbox allows calling them on the
// immutable types): string methods and the read-only dict methods.
import { indexByName, type Fact } from "./fact";

export const STR_METHODS: readonly Fact[] = [
  { name: "strip", signature: "strip(chars=none)", doc: "The string without leading and trailing whitespace (or `chars`)." },
  { name: "lstrip", signature: "lstrip(chars=none)", doc: "The string without leading whitespace (or `chars`)." },
  { name: "rstrip", signature: "rstrip(chars=none)", doc: "The string without trailing whitespace (or `chars`)." },
  { name: "split", signature: "split(sep=none, maxsplit=-1)", doc: "The list of parts between `sep` (runs of whitespace when none)." },
  { name: "rsplit", signature: "rsplit(sep=none, maxsplit=-1)", doc: "Like `split`, counting `maxsplit` from the right." },
  { name: "splitlines", signature: "splitlines(keepends=false)", doc: "The list of lines." },
  {
    name: "startswith",
    signature: "startswith(prefix)",
    doc: "True when the string starts with `prefix` (or one of a tuple of prefixes).",
  },
  { name: "endswith", signature: "endswith(suffix)", doc: "True when the string ends with `suffix` (or one of a tuple of suffixes)." },
  { name: "find", signature: "find(sub)", doc: "The index of the first `sub`, or -1." },
  { name: "count", signature: "count(sub)", doc: "How many times `sub` occurs." },
  { name: "replace", signature: "replace(old, new, count=-1)", doc: "The string with `old` replaced by `new`." },
  { name: "lower", signature: "lower()", doc: "Lower case." },
  { name: "upper", signature: "upper()", doc: "Upper case." },
  { name: "title", signature: "title()", doc: "Title case." },
  { name: "capitalize", signature: "capitalize()", doc: "First character upper case, the rest lower case." },
  { name: "join", signature: "join(iterable)", doc: "The items of `iterable` joined with this string between them." },
  { name: "format", signature: "format(*args, **kwargs)", doc: "Python `str.format`: `'{}: {}'.format(a, b)`." },
];

export const DICT_METHODS: readonly Fact[] = [
  { name: "get", signature: "get(key, default=none)", doc: "The value for `key`, or `default` when the dict has no such key (no error)." },
  { name: "items", signature: "items()", doc: "The `(key, value)` pairs, in insertion order." },
  { name: "keys", signature: "keys()", doc: "The keys, in insertion order." },
  { name: "values", signature: "values()", doc: "The values, in insertion order." },
];

export const STR_METHODS_BY_NAME = indexByName(STR_METHODS);
export const DICT_METHODS_BY_NAME = indexByName(DICT_METHODS);
