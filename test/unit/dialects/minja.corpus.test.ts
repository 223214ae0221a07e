// The minja dialect against google/minja's real output (corpus expected/minja, micro-cases.json):
// bytes where minja rendered; where it raised, an error with minja's message (the part before its
// " at row R, column C" location suffix). `crash (exit -N)` is minja dying: any error.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { minja_021c229 } from "../../../server/src/dialects/minja-021c229";
import { TemplateDocument } from "../../../server/src/document/document";
import { render, type RenderResult } from "../../../server/src/interpreter/render";
import { CORPUS_NOW, corpusCases, microCases } from "../../helpers/renderCorpus";

function check(r: RenderResult, expected: { out: string } | { error: string }): void {
  if ("out" in expected) {
    assert.equal(r.error, null, r.error?.message);
    assert.equal(r.output, expected.out);
  } else {
    assert.ok(r.error, `minja raised ${expected.error}; we rendered`);
    if (!/^crash \(exit -\d+\)$/.test(expected.error)) assert.equal(r.error.message, expected.error.split(" at row ")[0]);
  }
}

describe("minja dialect: every corpus template × scenario matches google/minja 021c229", () => {
  const cases = corpusCases("minja");
  it("finds the corpus", () => assert.ok(cases.length >= 600));
  const docs = new Map<string, TemplateDocument>();
  for (const c of cases) {
    it(`${c.template} × ${c.scenario}`, () => {
      let doc = docs.get(c.template);
      if (!doc) docs.set(c.template, (doc = new TemplateDocument(c.source)));
      check(render(doc, c.context, { dialect: minja_021c229, now: CORPUS_NOW }), c.expected);
    });
  }
});

describe("minja dialect: every micro case", () => {
  for (const c of microCases()) {
    it(c.name, () =>
      check(render(new TemplateDocument(c.template), c.context, { dialect: minja_021c229, now: CORPUS_NOW }), c.expected.minja),
    );
  }
});
