// Jinja2 3.1's builtin tests (jinja2.tests.TESTS), used as `x is name` / `x is not name(arg)`.
// Signatures leave out the tested value; a test with one argument also takes it without
// parentheses (`x is divisibleby 3`).
import { indexByName, type Fact } from "./fact";

const alias = (name: string, of: string, signature = `${name}(other)`): Fact => ({ name, signature, doc: `Alias of \`${of}\`.` });

export const TESTS: readonly Fact[] = [
  { name: "boolean", doc: "The value is `true` or `false`." },
  { name: "callable", doc: "The value can be called (a macro, a function, a method)." },
  { name: "defined", doc: "The variable or attribute exists. Chat templates test optional inputs with it: `tools is defined`." },
  { name: "divisibleby", signature: "divisibleby(num)", doc: "The value is divisible by `num`." },
  { name: "eq", signature: "eq(other)", doc: "Same as `==`." },
  alias("equalto", "eq"),
  { name: "escaped", doc: "The value is marked safe (escaped markup)." },
  { name: "even", doc: "The value is an even integer." },
  { name: "false", doc: "The value is the boolean `false`." },
  { name: "filter", doc: "A filter of that name exists: `'tojson' is filter`." },
  { name: "float", doc: "The value is a float." },
  { name: "ge", signature: "ge(other)", doc: "Same as `>=`." },
  { name: "gt", signature: "gt(other)", doc: "Same as `>`." },
  alias("greaterthan", "gt"),
  { name: "in", signature: "in(seq)", doc: "The value is in `seq` (same as the `in` operator)." },
  { name: "integer", doc: "The value is an integer (booleans are not)." },
  { name: "iterable", doc: "The value can be iterated over (strings, lists, dicts)." },
  { name: "le", signature: "le(other)", doc: "Same as `<=`." },
  alias("lessthan", "lt"),
  { name: "lower", doc: "The string is all lower case." },
  { name: "lt", signature: "lt(other)", doc: "Same as `<`." },
  { name: "mapping", doc: "The value is a dict. Chat templates tell structured `content` or `arguments` from strings with it." },
  { name: "ne", signature: "ne(other)", doc: "Same as `!=`." },
  { name: "none", doc: "The value is `none`." },
  { name: "number", doc: "The value is an int, a float (or a bool, which Python counts as a number)." },
  { name: "odd", doc: "The value is an odd integer." },
  { name: "sameas", signature: "sameas(other)", doc: "The value is the very same object as `other` (Python `is`)." },
  { name: "sequence", doc: "The value is a sequence: a list, a tuple, a string, or a dict." },
  { name: "string", doc: "The value is a string." },
  { name: "test", doc: "A test of that name exists: `'mapping' is test`." },
  { name: "true", doc: "The value is the boolean `true`." },
  { name: "undefined", doc: "The variable or attribute does not exist (the opposite of `defined`)." },
  { name: "upper", doc: "The string is all upper case." },
  { name: "==", signature: "==(other)", doc: "Same as `eq`; used as `select('==', x)`." },
  { name: "!=", signature: "!=(other)", doc: "Same as `ne`." },
  { name: "<", signature: "<(other)", doc: "Same as `lt`." },
  { name: "<=", signature: "<=(other)", doc: "Same as `le`." },
  { name: ">", signature: ">(other)", doc: "Same as `gt`." },
  { name: ">=", signature: ">=(other)", doc: "Same as `ge`." },
];

export const TESTS_BY_NAME = indexByName(TESTS);
