import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jinja2_3_1_2 } from "../../../server/src/dialects";
import { TemplateDocument } from "../../../server/src/document/document";
import { render } from "../../../server/src/interpreter/render";
import { CORPUS_NOW, corpusCases, microCases } from "../../helpers/renderCorpus";

describe("jinja2-3.1.2 dialect: every corpus template × scenario is byte-identical to Jinja2 3.1.2", () => {
  const cases = corpusCases("jinja2");
  it("finds the corpus", () => assert.ok(cases.length >= 600));
  const docs = new Map<string, TemplateDocument>();
  for (const c of cases) {
    it(`${c.template} × ${c.scenario}`, () => {
      let doc = docs.get(c.template);
      if (!doc) docs.set(c.template, (doc = new TemplateDocument(c.source)));
      const r = render(doc, c.context, { dialect: jinja2_3_1_2, now: CORPUS_NOW });
      if ("out" in c.expected) {
        assert.equal(r.error, null, r.error?.message);
        assert.equal(r.output, c.expected.out);
      } else {
        assert.ok(r.error, `Jinja2 raised ${c.expected.error}; we rendered`);
        assert.equal(r.error.message, c.expected.error);
      }
    });
  }
});

describe("jinja2-3.1.2 dialect: every micro case (their expectations are Jinja2 3.1.2's)", () => {
  for (const c of microCases()) {
    it(c.name, () => {
      const r = render(new TemplateDocument(c.template), c.context, { dialect: jinja2_3_1_2, now: CORPUS_NOW });
      const exp = c.expected.jinja2;
      if ("out" in exp) {
        assert.equal(r.error, null, r.error?.message);
        assert.equal(r.output, exp.out);
      } else {
        assert.ok(r.error, `Jinja2 raised ${exp.error}`);
        assert.equal(r.error.message, exp.error);
      }
    });
  }
});
