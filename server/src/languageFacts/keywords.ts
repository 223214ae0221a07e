// The words of the language: statement tags (what may follow `{%`) and the keywords inside
// expressions. `end` names the closing tag of a block statement, for completion and folding.
import { indexByName, type Fact } from "./fact";

export interface TagFact extends Fact {
  /** The end tag of a block statement (`endfor`); absent for single tags. */
  end?: string;
  /** Tags only valid inside a given block (`elif` in `if`, `else` in `if`/`for`). */
  inside?: readonly string[];
}

export const TAGS: readonly TagFact[] = [
  {
    name: "if",
    signature: "{% if test %}…{% elif test %}…{% else %}…{% endif %}",
    end: "endif",
    doc: "Renders the first branch whose test is truthy.",
  },
  { name: "elif", signature: "{% elif test %}", inside: ["if"], doc: "Another branch of an `if`." },
  {
    name: "else",
    signature: "{% else %}",
    inside: ["if", "for"],
    doc: "In an `if`: the branch when no test passed. In a `for`: rendered when the loop ran zero times.",
  },
  {
    name: "for",
    signature: "{% for target in iterable [if filter] [recursive] %}…{% else %}…{% endfor %}",
    end: "endfor",
    doc:
      "Renders the body once per item; `loop` holds the loop's state. Variables `set` in the body do not survive the loop " +
      "(use a `namespace`). The `if` filter skips items without counting them.",
  },
  {
    name: "set",
    signature: "{% set name = value %} · {% set ns.attr = value %} · {% set name | filter %}…{% endset %}",
    end: "endset",
    doc: "Assigns a variable (or a namespace attribute). The block form captures the rendered body, optionally filtered.",
  },
  {
    name: "macro",
    signature: "{% macro name(arg, opt=default) %}…{% endmacro %}",
    end: "endmacro",
    doc: "Defines a reusable fragment, called like a function. Inside, `varargs`, `kwargs` and `caller` are available.",
  },
  {
    name: "call",
    signature: "{% call(args) macro(…) %}…{% endcall %}",
    end: "endcall",
    doc: "Calls a macro, passing the body as `caller()`.",
  },
  { name: "filter", signature: "{% filter name(args) %}…{% endfilter %}", end: "endfilter", doc: "Applies a filter to the rendered body." },
  { name: "with", signature: "{% with name = value %}…{% endwith %}", end: "endwith", doc: "Opens a scope with its own variables." },
  {
    name: "autoescape",
    signature: "{% autoescape true %}…{% endautoescape %}",
    end: "endautoescape",
    doc: "Jinja2: a scope whose printed values are HTML-escaped (macro calls return safe strings). llama.cpp, minja and @huggingface/jinja reject the tag.",
  },
  {
    name: "raw",
    signature: "{% raw %}…{% endraw %}",
    end: "endraw",
    doc: "Outputs the body as written, without interpreting `{{`, `{%` or `{#`.",
  },
  {
    name: "generation",
    signature: "{% generation %}…{% endgeneration %}",
    end: "endgeneration",
    doc:
      "HF transformers: marks the assistant's own tokens (for `return_assistant_tokens_mask` in training). Renders its body unchanged; " +
      "engines without HF's extension may reject the tag.",
  },
  {
    name: "break",
    signature: "{% break %}",
    inside: ["for"],
    doc: "Leaves the innermost loop (the `loopcontrols` extension, enabled by HF).",
  },
  {
    name: "continue",
    signature: "{% continue %}",
    inside: ["for"],
    doc: "Skips to the next iteration (the `loopcontrols` extension, enabled by HF).",
  },
  { name: "print", signature: "{% print expr %}", doc: "Same as `{{ expr }}`." },
  {
    name: "block",
    signature: "{% block name %}…{% endblock %}",
    end: "endblock",
    doc: "Template inheritance: alone, it renders its body. Rarely useful in a chat template.",
  },
  {
    name: "include",
    signature: "{% include 'name' %}",
    doc: "Renders another template. A chat template has no loader, so this fails when rendered.",
  },
  {
    name: "import",
    signature: "{% import 'name' as alias %}",
    doc: "Imports another template's macros. A chat template has no loader, so this fails when rendered.",
  },
  {
    name: "from",
    signature: "{% from 'name' import macro %}",
    doc: "Imports macros from another template. A chat template has no loader, so this fails when rendered.",
  },
  {
    name: "extends",
    signature: "{% extends 'name' %}",
    doc: "Template inheritance. A chat template has no loader, so this fails when rendered.",
  },
];

/** End tags, documented by the tag they close. */
export const END_TAGS: readonly TagFact[] = TAGS.filter((t) => t.end).map((t) => ({
  name: t.end!,
  signature: `{% ${t.end} %}`,
  doc: `Closes \`{% ${t.name} %}\`.`,
}));

export const EXPRESSION_KEYWORDS: readonly Fact[] = [
  { name: "and", doc: "Boolean and: the left operand when it is falsy, else the right one." },
  { name: "or", doc: "Boolean or: the left operand when it is truthy, else the right one." },
  { name: "not", doc: "Boolean negation; `not in` and `is not` negate membership and tests." },
  { name: "in", doc: "Membership: `'tool' in message.role`, `key in dict`." },
  { name: "is", doc: "Applies a test: `x is defined`, `x is not none`, `n is divisibleby 3`." },
  { name: "if", doc: "Conditional expression: `a if test else b` (without `else`, undefined when the test fails)." },
  { name: "else", doc: "The alternative of a conditional expression." },
  { name: "recursive", doc: "Makes a `for` loop recursive: `loop(children)` renders the body for the children." },
  { name: "true", doc: "The boolean true. Jinja2 also accepts `True`; engines disagree on the capitalised spellings." },
  { name: "false", doc: "The boolean false. Jinja2 also accepts `False`; engines disagree on the capitalised spellings." },
  { name: "none", doc: "The null value (Python's `None`). Jinja2 also accepts `None`; engines disagree on the capitalised spellings." },
];

export const TAGS_BY_NAME = indexByName([...TAGS, ...END_TAGS]);
export const EXPRESSION_KEYWORDS_BY_NAME = indexByName(EXPRESSION_KEYWORDS);
