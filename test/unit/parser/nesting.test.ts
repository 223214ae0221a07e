import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dialectFor, registeredEngines } from "../../../server/src/dialects/index";
import { getLanguageService } from "../../../server/src/services/languageService";
import { render } from "../../../server/src/interpreter/render";
import { MAX_DEPTH, MAX_NESTING } from "../../../server/src/parser/nesting";
import { HOSTILE_TEMPLATES } from "../../helpers/hostileTemplates";

const ls = getLanguageService();
const deep = (open: string, inner: string, close: string, n: number) => open.repeat(n) + inner + close.repeat(n);

describe("nesting: a limit with an error where it is crossed, never a stack overflow", () => {
  for (const t of HOSTILE_TEMPLATES.filter((h) => h.parseNesting)) {
    it(t.name, () => {
      const doc = ls.parseTemplate(t.template);
      const p = doc.problems.find((x) => x.code === "syntax/nesting");
      assert.ok(p, `a nesting problem among ${JSON.stringify(doc.problems.slice(0, 3))}`);
      assert.ok(p.start > 0 && p.end <= t.template.length, "located inside the template");
      // Every engine, ours and the one with its own parser (llamacpp), refuses it the same way.
      for (const engine of registeredEngines()) {
        const r = render(doc, {}, { dialect: dialectFor(engine)! });
        assert.equal(r.error?.code, "syntax/nesting", engine);
      }
      // The editor features read the (bounded) tree without overflowing either.
      ls.getSemanticTokens(doc);
      ls.findDocumentSymbols(doc);
      ls.getFoldingRanges(doc);
      ls.doHover(doc, Math.floor(t.template.length / 2));
      ls.doComplete(doc, Math.floor(t.template.length / 2));
      ls.doValidation(doc, { engines: registeredEngines() });
    });
  }

  it("blocks: one error, at the deepest block, and nothing after it is reported", () => {
    const text = deep("{% if true %}", "x", "{% endif %}", MAX_NESTING + 50);
    const doc = ls.parseTemplate(text);
    assert.deepEqual(
      doc.problems.map((p) => [p.code, p.start]),
      [["syntax/nesting", "{% if true %}".length * (MAX_NESTING + 49)]],
    );
  });

  it("brackets: the error is at the deepest bracket", () => {
    const text = `{{ ${deep("(", "1", ")", MAX_NESTING + 50)} }} {{ ${deep("[", "1", "]", MAX_NESTING + 1)} }}`;
    const [p, q] = ls.parseTemplate(text).problems;
    assert.deepEqual([p.code, p.start], ["syntax/nesting", 3 + MAX_NESTING + 49]);
    assert.deepEqual([q.code, text.slice(q.start, q.end + 1)], ["syntax/nesting", "[1"]);
  });

  it("llama.cpp's own parser reports the same deepest point", () => {
    for (const text of [deep("{% if true %}", "x", "{% endif %}", MAX_NESTING + 50), `{{ ${deep("(", "1", ")", MAX_NESTING + 50)} }}`]) {
      const doc = ls.parseTemplate(text);
      const r = render(doc, {}, { dialect: dialectFor("llamacpp")! });
      assert.deepEqual([r.error?.code, r.error?.start], ["syntax/nesting", doc.problems[0].start]);
    }
  });

  it("chains: the error is at the deepest node of the part past MAX_DEPTH", () => {
    const text = `{{ a${".b".repeat(MAX_DEPTH + 10)} }}`;
    const p = ls.parseTemplate(text).problems[0];
    assert.equal(p.code, "syntax/nesting");
    assert.equal(text.slice(p.start, p.end), "a");
  });

  it("what Jinja2 itself renders (80 brackets, 90 blocks, 300 filters) is within the limits", () => {
    for (const text of [
      `{{ ${deep("(", "1", ")", 80)} }}`,
      deep("{% if true %}", "x", "{% endif %}", 90),
      `{{ 1${"|string".repeat(300)} }}`,
    ]) {
      const doc = ls.parseTemplate(text);
      assert.deepEqual(doc.problems, []);
      for (const engine of registeredEngines()) assert.equal(render(doc, {}, { dialect: dialectFor(engine)! }).error, null, engine);
    }
  });
});
