// What None and Undefined answer to (value.cpp: value_none_t, value_undefined_t::get_builtins).
// This is llama's lenient undefined: most filters on an Undefined return an empty value instead of
// failing ({{ x|length }} is 0, {{ x|upper }} is ''), and None accepts the list filters as [].
// `tojson` is not among Undefined's, so {{ x|tojson }} throws for a missing x.
import { constant, defaultValue, tojson } from "./commonBuiltins";
import type { BuiltinTable } from "./functions";
import { undef } from "./values";

const emptyList = constant(() => []);
const emptyString = constant(() => "");
const zero = constant(() => 0n);
const undefinedValue = constant(() => undef());
const none = constant(() => "None");

export const noneBuiltins: BuiltinTable = {
  default: defaultValue,
  tojson,
  string: none,
  safe: none,
  items: emptyList,
  map: emptyList,
  reject: emptyList,
  rejectattr: emptyList,
  select: emptyList,
  selectattr: emptyList,
  unique: emptyList,
};

export const undefinedBuiltins: BuiltinTable = {
  default: defaultValue,
  capitalize: emptyString,
  first: undefinedValue,
  items: emptyList,
  join: emptyString,
  last: undefinedValue,
  length: zero,
  list: emptyList,
  lower: emptyString,
  map: emptyList,
  max: undefinedValue,
  min: undefinedValue,
  reject: emptyList,
  rejectattr: emptyList,
  replace: emptyString,
  reverse: emptyList,
  safe: emptyString,
  select: emptyList,
  selectattr: emptyList,
  sort: emptyList,
  string: emptyString,
  strip: emptyString,
  sum: zero,
  title: emptyString,
  truncate: emptyString,
  unique: emptyList,
  upper: emptyString,
  wordcount: zero,
};
