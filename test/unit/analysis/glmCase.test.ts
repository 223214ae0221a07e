// The case this product starts from: a GLM-style template with `m.content.0.…` (minja refuses to
// parse it) and a `'function' in tool` member test (llama.cpp's engine throws on `'function' in None`,
// and a probe that passes null tools trips on it). `fix` must clear both without changing a byte of
// what real Python Jinja2 renders.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fixAll } from "../../../server/src/analysis/fixes/quickFixes";
import { dialectsOf } from "../../../server/src/analysis/engineChecks";
import builtinScenariosJson from "../../../templates/scenarios.json";
import { BUILTIN_SCENARIOS } from "../../../server/src/analysis/scenarios";
import { TemplateDocument } from "../../../server/src/document/document";
import { DEFAULT_SPECIAL_TOKENS } from "../../../server/src/analysis/scenario";
import { validate } from "../../../server/src/services/diagnostics";
import { DEFAULT_ENGINES } from "../../../server/src/dialects";
import { fixture } from "../../helpers/cli";
import { hasPythonJinja2 } from "../../helpers/python";
import { renderWithPythonJinja2 } from "../../helpers/pythonJinja";

const text = readFileSync(fixture("glm-style.jinja"), "utf8");
const doc = new TemplateDocument(text);
const lineOf = (offset: number) => doc.lines.positionAt(offset).line + 1;
const lines = text.split("\n");

describe("the GLM case", () => {
  const diagnostics = validate(doc);

  it("minja: an error on each line with x.0", () => {
    const dotZero = lines.flatMap((l, i) => (/\.0\./.test(l) ? [i + 1] : []));
    assert.equal(dotZero.length, 3);
    for (const line of dotZero) {
      const d = diagnostics.find((x) => x.engine === "minja" && x.severity === "error" && lineOf(x.start) === line);
      assert.ok(d, `a minja error on line ${line}`);
      assert.match(text.slice(d.start, d.end), /\.0$/);
    }
  });

  it("llama.cpp: a diagnostic on the member test that a null-tools probe trips on", () => {
    const d = diagnostics.filter((x) => x.engine === "llamacpp");
    assert.deepEqual(
      d.map((x) => [x.code, text.slice(x.start, x.end)]),
      [["llamacpp/null-tools-probe", "'function' in tool"]],
    );
    assert.match(d[0].message, /Cannot perform operation on null values/);
  });

  it("nothing for Jinja2", () => {
    assert.deepEqual(
      diagnostics.filter((x) => x.engine === "jinja2" || x.engine === null),
      [],
    );
  });

  describe("fix", () => {
    const { text: fixedText } = fixAll(doc, dialectsOf(DEFAULT_ENGINES), BUILTIN_SCENARIOS, { nullToolsProbe: true });

    it("rewrites x.0 to x[0] and skips null tools", () => {
      assert.doesNotMatch(fixedText, /\.0\./);
      assert.match(fixedText, /\{% for tool in tools if tool %\}/);
      assert.match(fixedText, /m\.content\[0\]\.output/);
    });

    it("leaves no minja or llama.cpp error", () => {
      const after = validate(new TemplateDocument(fixedText));
      assert.deepEqual(
        after.filter((d) => d.severity === "error"),
        [],
      );
      assert.deepEqual(
        after.filter((d) => d.engine === "llamacpp" && d.code === "llamacpp/null-tools-probe"),
        [],
      );
    });

    const typedTool = {
      messages: [
        { role: "user", content: [{ type: "text", text: "What is 6 * 7?" }] },
        { role: "assistant", content: "", tool_calls: [{ type: "function", function: { name: "calc", arguments: { expr: "6 * 7" } } }] },
        { role: "tool", content: [{ type: "tool_result", output: "42" }] },
      ],
      tools: [{ type: "function", function: { name: "calc", description: "Evaluates ü" } }],
      add_generation_prompt: true,
    };
    it(
      "real Python Jinja2 renders the fixed template byte for byte as the original",
      { skip: !hasPythonJinja2() && "python3 with jinja2 is not installed" },
      () => {
        const contexts = [
          ...BUILTIN_SCENARIOS.map((s) => ({
            name: s.name,
            json: JSON.stringify({ ...DEFAULT_SPECIAL_TOKENS, ...(builtinScenariosJson as Record<string, object>)[s.name] }),
          })),
          { name: "typed tool result", json: JSON.stringify(typedTool) },
        ];
        for (const c of contexts) {
          const { results } = renderWithPythonJinja2([text, fixedText], c.json, [2026, 1, 15, 9, 30]);
          assert.ok("out" in results[0], `${c.name}: the original renders (${JSON.stringify(results[0])})`);
          assert.deepEqual(results[1], results[0], c.name);
        }
      },
    );
  });
});
