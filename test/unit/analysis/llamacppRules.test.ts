// The llama.cpp rules the checker reports, each held to llama.cpp's real engine (node-llama-cpp's
// addon): where we say it throws, it throws; where we say it renders differently, it does.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { engineFindings } from "../../../server/src/analysis/engineChecks";
import { fromJS } from "../../../server/src/interpreter/json";
import type { PyDict } from "../../../server/src/interpreter/dict";
import type { Scenario } from "../../../server/src/analysis/scenario";
import { dialectFor } from "../../../server/src/dialects/index";
import { TemplateDocument } from "../../../server/src/document/document";
import { render } from "../../../server/src/interpreter/render";
import { renderRealLlamaCpp } from "../../helpers/realLlamaCpp";

const jinja2 = dialectFor("jinja2")!;
const llamacpp = dialectFor("llamacpp")!;
const context = { xs: [{ a: 1 }, { a: 2 }], name: "World", x: null };
const scenarios: Scenario[] = [{ name: "sample", data: fromJS(context) as PyDict }];

function llamaFindings(text: string) {
  const doc = new TemplateDocument(text);
  return engineFindings(doc, [jinja2, llamacpp], scenarios, { nullToolsProbe: false }).map((f) => ({
    ...f,
    text: text.slice(f.start, f.end),
  }));
}

const THROWS: [string, string, string][] = [
  ["floor division", "{{ 7 // 2 }}", "7 // 2"],
  ["power", "{{ 2 ** 3 }}", "2 ** 3"],
  ["%-formatting a string", "{{ 'Hello %s!' % name }}", "'Hello %s!' % name"],
  ["a recursive loop", "{% for x in xs recursive %}{{ x.a }}{% endfor %}", "{% for x in xs recursive %}{{ x.a }}{% endfor %}"],
  ["raw", "{% raw %}{{ x }}{% endraw %}", "{% raw %}{{ x }}{% endraw %}"],
  ["loop.cycle", "{% for x in xs %}{{ loop.cycle('odd', 'even') }}{% endfor %}", "loop.cycle('odd', 'even')"],
  ["unique", "{{ xs | map(attribute='a') | unique | join(',') }}", "unique"],
  ["groupby", "{% for g in xs | groupby('a') %}{{ g.grouper }}{% endfor %}", "groupby"],
  ["cycler", "{% set c = cycler('a', 'b') %}{{ c.next() }}", "cycler"],
];

describe("llama.cpp rules, checked against the real engine", () => {
  for (const [what, text, at] of THROWS) {
    it(`${what}: an error on \`${at}\`, and llama.cpp does throw while Jinja2 renders`, () => {
      const f = llamaFindings(text);
      const errors = f.filter((x) => x.engine === "llamacpp" && x.severity === "error" && !x.code.endsWith("/probe-throws"));
      assert.deepEqual(
        errors.map((x) => x.text),
        [at],
        JSON.stringify(f),
      );
      assert.match(errors[0].message, /llama\.cpp/);
      assert.ok("error" in renderRealLlamaCpp(text, context), "the real engine throws");
      assert.equal(render(new TemplateDocument(text), context, { dialect: jinja2 }).error, null, "Jinja2 renders it");
      assert.ok(!f.some((x) => x.engine === "jinja2"), "nothing for Jinja2");
    });
  }

  it("x.0 renders in llama.cpp v0.5.0 (it threw at b10236): no finding there", () => {
    const text = "{{ xs.0.a }}";
    assert.deepEqual(
      llamaFindings(text).filter((x) => x.engine === "llamacpp" && x.severity !== "information"),
      [],
    );
    assert.deepEqual(renderRealLlamaCpp(text, context), { out: "1" });
  });

  const PRINTS: [string, string, RegExp, string][] = [
    ["None", "[{{ x }}]", /None prints as '' in llama\.cpp, 'None' in Jinja2/, "[]"],
    ["a float", "[{{ 0.1 + 0.2 }}]", /a float prints as '0\.3' in llama\.cpp, '0\.30000000000000004' in Jinja2/, "[0.3]"],
    ["a list", "[{{ xs | map(attribute='a') | list }}]", /a list prints as '12' in llama\.cpp, '\[1, 2\]' in Jinja2/, "[12]"],
    ["a dict", "[{{ xs[0] }}]", /a dict prints as '' in llama\.cpp, "\{'a': 1\}" in Jinja2/, "[]"],
  ];
  for (const [what, text, cause, real] of PRINTS) {
    it(`${what} prints differently: a warning on the {{ }} with that cause, and the real engine prints ${real}`, () => {
      const d = llamaFindings(text).filter((x) => x.code === "llamacpp/renders-differently");
      assert.equal(d.length, 1, JSON.stringify(d));
      assert.equal(d[0].text, text.slice(1, -1));
      assert.match(d[0].message, cause);
      assert.deepEqual(renderRealLlamaCpp(text, context), { out: real });
    });
  }
});
