// The prompt-injection rule's false-positive rate, the figure README states: every corpus template (real
// models' templates, none of which hides or overrides instructions) and every peer-security fixture that is
// not an instruction-text payload is a negative; the fixtures whose text tells the model to override or
// conceal instructions are the positives. Prints both rates.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { describe, it } from "node:test";
import { securityDiagnostics } from "../../../server/src/analysis/security/index";
import { TemplateDocument } from "../../../server/src/document";
import { corpusDir } from "../../helpers/corpus";

const PEER = resolve(__dirname, "../../../../shared/peer-security");
const noPeer = !existsSync(PEER) && "../shared/peer-security is not next to this checkout";

/** The peer fixtures whose text is an instruction to the model (the rest execute code, exfiltrate or are benign). */
const INJECTIONS = new Set([
  "MALICIOUS_PROMPT_INJECTION_TEMPLATE.jinja",
  "heuristic_forced_instruction_overrides.jinja",
  "12_dangerous_unicode-identifier-and-literal.jinja",
  "13_dangerous_behavioral-backdoor-tpl020-021.jinja",
  "14_dangerous_behavioral-backdoor-tpl020-021.jinja",
  "15_dangerous_behavioral-backdoor-tpl020-021.jinja",
  "16_dangerous_behavioral-backdoor-tpl020-021.jinja",
]);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : n.endsWith(".jinja") ? [p] : [];
  });
}

/** Whether the rule speaks on a template: its own finding, or the same rule behind a conversation gate. */
function fires(path: string): boolean {
  return securityDiagnostics(new TemplateDocument(readFileSync(path, "utf8"))).some(
    (d) => d.code === "security/prompt-injection" || (d.code === "security/gated-payload" && d.message.includes("override or conceal")),
  );
}

describe("security/prompt-injection: false-positive rate", { skip: noPeer }, () => {
  it("fires on no corpus template or non-injection fixture, and on every injection fixture", () => {
    const negatives = [...files(corpusDir("templates")), ...files(PEER).filter((p) => !INJECTIONS.has(basename(p)))];
    const positives = files(PEER).filter((p) => INJECTIONS.has(basename(p)));
    const falsePositives = negatives.filter(fires);
    const truePositives = positives.filter(fires);
    console.log(
      `prompt-injection: false positives ${falsePositives.length}/${negatives.length} ` +
        `(${((100 * falsePositives.length) / negatives.length).toFixed(1)}%), ` +
        `found ${truePositives.length}/${positives.length} injection fixtures`,
    );
    assert.deepEqual(falsePositives, []);
    assert.equal(truePositives.length, INJECTIONS.size);
  });
});
