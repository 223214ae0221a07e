// Whitespace control is lexical, so it is checked against Python Jinja2's own lexer on thousands
// of generated snippets: same template data, byte for byte, as HF transformers configures it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lex } from "../../../server/src/parser/lexer";
import { hasPythonJinja2, runPythonJson } from "../../helpers/python";
import { pick, rng } from "../../helpers/random";

const LEX_DATA = `
import sys, json
from jinja2.sandbox import ImmutableSandboxedEnvironment
env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"])
out = []
for src in json.load(sys.stdin):
    try:
        out.append([t.value for t in env.lexer.tokenize(src) if t.type == "data"])
    except Exception as e:
        out.append(None)
print(json.dumps(out))
`;

const PIECES = [
  " ",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "\r",
  "\n\n",
  "x",
  "ab ",
  " \u00a0 ",
  "\u2003",
  "{% if a %}",
  "{%- if a %}",
  "{% if a -%}",
  "{%+ if a %}",
  "{% if a +%}",
  "{%- if a -%}",
  "{% endif %}",
  "{%- endif -%}",
  "{%+ endif %}",
  "{{ x }}",
  "{{- x }}",
  "{{ x -}}",
  "{{- x -}}",
  "{{+ x }}",
  "{# c #}",
  "{#- c #}",
  "{# c -#}",
  "{#+ c #}",
  "{# c +#}",
  "{% raw %} r {% endraw %}",
  "{%- raw -%}\n r \n{%- endraw -%}",
  "{% raw %}\n{% endraw %}\n",
];

function generate(seed: number): string {
  const r = rng(seed);
  const n = 1 + Math.floor(r() * 12);
  let s = "";
  for (let i = 0; i < n; i++) s += pick(r, PIECES);
  return s;
}

function ours(src: string): string[] {
  return lex(src)
    .tokens.filter((t) => t.type === "text" && t.value !== "")
    .map((t) => t.value);
}

describe("whitespace control matches Python Jinja2's lexer", { skip: !hasPythonJinja2() && "python3 with jinja2 is not installed" }, () => {
  it("on 3000 generated snippets", () => {
    const sources = Array.from({ length: 3000 }, (_, i) => generate(i + 1));
    const expected = runPythonJson<(string[] | null)[]>(LEX_DATA, sources);
    let compared = 0;
    for (let i = 0; i < sources.length; i++) {
      if (expected[i] === null) continue;
      compared++;
      assert.deepEqual(ours(sources[i]), expected[i], `template ${JSON.stringify(sources[i])}`);
    }
    assert.ok(compared > 2500, `only ${compared} snippets were lexable by Jinja2`);
  });
});

describe("whitespace control (fixed cases)", () => {
  const cases: [string, string[]][] = [
    ["a\n  {% if x %}\nb\n{% endif %}\n", ["a\n", "b\n"]],
    ["a  {%- if x %}b{% endif %}", ["a", "b"]],
    ["{% if x -%}  \n b{% endif %}", ["b"]],
    ["  {%+ if x %}b{% endif %}", ["  ", "b"]],
    ["{{ x }}  {% if y %}", ["  "]],
    ["x\r\n{% if y %}\r\n z", ["x\n", " z"]],
    ["end\n", ["end"]],
  ];
  for (const [src, want] of cases) it(JSON.stringify(src), () => assert.deepEqual(ours(src), want));
});
