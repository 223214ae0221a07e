// llama.cpp's value statistics follow a value object wherever it goes unchanged: bound by `set`, by a
// loop or as a macro argument, handed out by `get`, put in a list. Each template below reads the
// tool's name only in such a way; the first is the shape of llama.cpp's functionary-medium-v3.2
// template (`{% if not tools %}{% set tools = [] %}{% endif %}`, then a macro builds the system
// prompt from `tools`). Our probe on the llamacpp dialect must infer what llama.cpp's own caps_get
// infers, checked against the real engine in process.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CAPS_KEYS, probeCaps } from "../../../server/src/analysis/caps/capsProbe";
import { dialectFor } from "../../../server/src/dialects/index";
import { TemplateDocument } from "../../../server/src/document/document";
import { ChatTemplate } from "../../../native/engine/chat";
import "../../helpers/templateGuard";

/** The conversation, with the tool calls' names printed straight from their members. */
const MESSAGES =
  "{% for m in messages %}{{ m.role }}: {{ m.content }}{% if m.tool_calls %}{% for c in m.tool_calls %}" +
  "{{ c.function.name }}({{ c.function.arguments }}){% endfor %}{% endif %}{% endfor %}";

const FUNCTIONARY_SHAPE =
  "{%- macro schema(functions) -%}{%- for function in functions -%}" +
  '{%- if function.get("function") -%}{%- set function = function.get("function") -%}{%- endif -%}' +
  '{%- set function_name = function.get("name") -%}' +
  "{%- if function_name -%}type {{ function_name }};{%- endif -%}" +
  "{%- endfor -%}{%- endmacro -%}" +
  "{%- if not tools -%}{%- set tools = [] -%}{%- endif -%}" +
  "{{ 'system: ' + schema(tools) }}";

const USES_THE_NAME: Record<string, string> = {
  "functionary-medium-v3.2's shape": FUNCTIONARY_SHAPE,
  "a name set from get, then tested": "{% for t in tools %}{% set n = t.get('function').get('name') %}{% if n %}x{% endif %}{% endfor %}",
  "a macro argument, printed in the macro":
    "{% macro m(n) %}{{ n }}{% endmacro %}{% for t in tools %}{{ m(t.get('function').get('name')) }}{% endfor %}",
  "a filter on what get gives": "{% for t in tools %}{{ t.get('function').get('name') | upper }}{% endfor %}",
  "a test on what get gives": "{% for t in tools %}{% if t.get('function').get('name') is string %}y{% endif %}{% endfor %}",
  "a list the template builds, looped over":
    "{% for t in tools %}{% for n in [t.get('function').get('name')] %}{{ n }}{% endfor %}{% endfor %}",
  "a dict the template builds": "{% for t in tools %}{% set d = {'n': t.get('function').get('name')} %}{{ d.n }}{% endfor %}",
  "a name read in a call block's body":
    "{% macro m() %}{{ caller() }}{% endmacro %}{% for t in tools %}{% set n = t.get('function').get('name') %}{% call m() %}{{ n }}{% endcall %}{% endfor %}",
};

// The same name string is in the tool calls: only the tool's own value counts.
const LEAVES_IT: Record<string, string> = {
  "get's result printed as it comes": "{% for t in tools %}{% set f = t.get('function') %}{{ f.get('name') }}{% endfor %}",
  "a macro argument the macro never reads":
    "{% macro m(n) %}x{% endmacro %}{% for t in tools %}{{ m(t.get('function').get('name')) }}{% endfor %}",
  "a tool call's name through a name, after the tool's was printed":
    "{% for t in tools %}{{ t.get('function').get('name') }}{% endfor %}{% for m in messages %}{% for c in m.tool_calls or [] %}{% set n = c.function.name %}{{ n }}{% endfor %}{% endfor %}",
  "another member read through get": "{% for t in tools %}{% set d = t.get('function').get('description') %}{{ d }}{% endfor %}",
};

async function compare(head: string, supportsTools: boolean): Promise<void> {
  const source = head + MESSAGES;
  const real = await (await ChatTemplate.fromSource(source)).caps();
  const { caps } = probeCaps(new TemplateDocument(source), dialectFor("llamacpp")!);
  assert.equal(real.supports_tools, supportsTools);
  assert.deepEqual(Object.fromEntries(CAPS_KEYS.map((k) => [k, caps[k]])), Object.fromEntries(CAPS_KEYS.map((k) => [k, real[k]])));
}

describe("the capability probe follows a value through names, arguments and get, as llama.cpp does", () => {
  for (const [what, head] of Object.entries(USES_THE_NAME)) it(`${what}: supports_tools`, () => compare(head, true));
  for (const [what, head] of Object.entries(LEAVES_IT)) it(`${what}: no supports_tools`, () => compare(head, false));
});
