// The formatter on corpus templates whose whitespace around tags was shuffled at random (seeded): spaces, tabs,
// newlines and \r\n before and after delimiters, where the engines' whitespace rules differ most. Every result
// behaves as its input in every engine × scenario, lexes to the same tokens, and formats to itself.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { behaviourDifference, BUILTIN_SCENARIOS, dialectsOf } from "../../../server/src/analysis";
import { registeredEngines } from "../../../server/src/dialects";
import { TemplateDocument } from "../../../server/src/document";
import { lex } from "../../../server/src/parser";
import { formatTemplate, TEXT_REASON } from "../../../server/src/services/format";
import { corpusDir } from "../../helpers/corpus";
import { rng } from "../../helpers/random";

const SEED = 3;
const BLANKS = [" ", "  ", "\n", "\t", "\n    ", "\r\n"];

/** What Jinja2's lexer makes of a text, whitespace it drops left out. */
function emitted(text: string): string[] {
  return lex(text)
    .tokens.filter((t) => t.type !== "text" || t.text!.value !== "")
    .map((t) => `${t.type} ${t.type === "text" ? t.text!.value : t.value}`);
}

describe(`formatter on corpus templates with shuffled whitespace (seed ${SEED})`, () => {
  const dir = corpusDir("templates");
  const r = rng(SEED);
  const blank = (n = BLANKS.length) => BLANKS[Math.floor(r() * n)];
  const engines = dialectsOf(registeredEngines());
  let leftForEngines = 0;

  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".jinja"))
    .sort()) {
    const text = readFileSync(join(dir, file), "utf8").replace(/\{%-?|\{\{-?|-?%\}|-?\}\}|\s+/g, (m) =>
      r() > 0.15 ? m : /^\s+$/.test(m) ? blank() : r() < 0.5 ? m + blank(3) : blank(3) + m,
    );
    it(file, () => {
      const doc = new TemplateDocument(text);
      const f = formatTemplate(doc, { indentWidth: 2 });
      assert.equal(f.refused, null);
      assert.equal(behaviourDifference(doc, new TemplateDocument(f.text), engines, BUILTIN_SCENARIOS), null);
      assert.deepEqual(emitted(f.text), emitted(text));
      assert.equal(formatTemplate(new TemplateDocument(f.text), { indentWidth: 2 }).text, f.text, "formats to itself");
      leftForEngines += f.leftAlone.filter((l) => l.reason !== TEXT_REASON).length;
    });
  }

  it("the engines' proof left some of them out (Jinja2's lexer alone would have let them through)", (t) => {
    t.diagnostic(`regions left alone because an engine or scenario differs: ${leftForEngines}`);
    assert.ok(leftForEngines > 0);
  });
});
