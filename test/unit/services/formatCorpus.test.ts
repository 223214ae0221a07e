// The formatter over the whole corpus (issue 32's "done when"): every template formats, the formatted text
// behaves as the original in every engine × scenario (and lexes to the same tokens, so Jinja2 emits the same for
// any input), formats to itself a second time, and `chat-template format --check` passes on it. Prints how many
// templates the formatter changed and how many regions it left alone because they would change the output.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { behaviourDifference, BUILTIN_SCENARIOS, dialectsOf } from "../../../server/src/analysis";
import { registeredEngines } from "../../../server/src/dialects";
import { TemplateDocument } from "../../../server/src/document";
import { lex } from "../../../server/src/parser";
import { formatTemplate, TEXT_REASON } from "../../../server/src/services/format";
import { runCli } from "../../helpers/cli";
import { corpusDir } from "../../helpers/corpus";

/** What Jinja2's lexer makes of a text, whitespace it drops left out: equal streams emit equal text for any input. */
function emitted(text: string): string[] {
  return lex(text)
    .tokens.filter((t) => t.type !== "text" || t.text!.value !== "")
    .map((t) => `${t.type} ${t.type === "text" ? t.text!.value : t.value}`);
}

describe("formatter over the corpus", () => {
  const dir = corpusDir("templates");
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".jinja"))
    .sort();
  const engines = dialectsOf(registeredEngines());
  const out = mkdtempSync(join(tmpdir(), "ct-format-corpus-"));
  let changed = 0;
  let leftForText = 0;
  let leftForEngines = 0;

  for (const file of files)
    it(file, () => {
      const text = readFileSync(join(dir, file), "utf8");
      const doc = new TemplateDocument(text);
      const r = formatTemplate(doc, { indentWidth: 4 });
      assert.equal(r.refused, null);
      assert.equal(behaviourDifference(doc, new TemplateDocument(r.text), engines, BUILTIN_SCENARIOS), null);
      assert.deepEqual(emitted(r.text), emitted(text));
      assert.equal(formatTemplate(new TemplateDocument(r.text), { indentWidth: 4 }).text, r.text, "formats to itself");
      if (r.text !== text) changed++;
      leftForText += r.leftAlone.filter((l) => l.reason === TEXT_REASON).length;
      leftForEngines += r.leftAlone.filter((l) => l.reason !== TEXT_REASON).length;
      writeFileSync(join(out, file), r.text);
    });

  it("format --check passes on every formatted template", (t) => {
    const r = runCli(["format", "--check", ...files.map((f) => join(out, f))]);
    assert.equal(r.status, 0, r.stderr);
    t.diagnostic(
      `corpus: ${changed} of ${files.length} templates changed; regions left alone: ${leftForText} (template text) + ${leftForEngines} (an engine or scenario differs)`,
    );
  });
});
