import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { llamacpp_0_5_0 } from "../../../../server/src/dialects/llamacpp-v0.5.0";
import { TemplateDocument } from "../../../../server/src/document/document";
import { render } from "../../../../server/src/interpreter/render";
import type { WallClock } from "../../../../server/src/interpreter/dialect";
import { llamaCppErrorCause } from "../../../helpers/realLlamaCpp";
import { corpusCases, microCases } from "../../../helpers/renderCorpus";

// The corpus's llama.cpp renders read the real clock (on 2026-12-02, corpus/README.md); ours pin a
// different day, so the date strings the corpus templates print (%Y-%m-%d, %d %b %Y, %B %d, %Y) are
// masked on both sides — the pin being a different day proves the masking, not luck, matches them.
const NOW: WallClock = { year: 2027, month: 3, day: 9, hour: 8, minute: 5, second: 0, microsecond: 0 };
const DATE = /\b\d{4}-\d\d-\d\d\b|\b\d\d [A-Z][a-z]{2} \d{4}\b|\b[A-Z][a-z]+ \d\d, \d{4}\b/g;
const mask = (s: string) => s.replace(DATE, "<date>");

describe("llamacpp dialect: every corpus template × scenario matches llama.cpp v0.5.0", () => {
  const cases = corpusCases("llamacpp");
  it("finds the corpus", () => assert.ok(cases.length >= 600));
  it("masks only date strings, and the pinned day differs from the corpus's", () => {
    assert.equal(mask("Today: 2026-12-02, 02 Dec 2026, December 02, 2026; id 12345678"), "Today: <date>, <date>, <date>; id 12345678");
    assert.ok(cases.some((c) => "out" in c.expected && c.expected.out.includes("2026-12-02")));
  });
  const docs = new Map<string, TemplateDocument>();
  for (const c of cases) {
    it(`${c.template} × ${c.scenario}`, () => {
      let doc = docs.get(c.template);
      if (!doc) docs.set(c.template, (doc = new TemplateDocument(c.source)));
      const r = render(doc, c.context, { dialect: llamacpp_0_5_0, now: NOW });
      if ("out" in c.expected) {
        assert.equal(r.error, null, r.error?.message);
        assert.equal(mask(r.output), mask(c.expected.out));
      } else {
        assert.ok(r.error, `llama.cpp raised ${c.expected.error}; we rendered`);
        assert.equal(r.error.message, llamaCppErrorCause(c.expected.error));
      }
    });
  }
});

describe("llamacpp dialect: every micro case", () => {
  for (const c of microCases()) {
    it(c.name, () => {
      const r = render(new TemplateDocument(c.template), c.context, { dialect: llamacpp_0_5_0, now: NOW });
      const exp = c.expected.llamacpp;
      if ("out" in exp) {
        assert.equal(r.error, null, r.error?.message);
        assert.equal(r.output, exp.out);
      } else {
        assert.ok(r.error, `llama.cpp raised ${exp.error}`);
        // The corpus keeps the first line of the engine's error (and its "While executing" line).
        assert.ok(exp.error.startsWith("failed to compile template: ") === (r.error.code === "syntax/unsupported"), r.error.message);
        if (exp.error.startsWith("failed to compile template: ")) assert.equal(`failed to compile template: ${r.error.message}`, exp.error);
      }
    });
  }
});
