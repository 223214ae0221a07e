// The formatter over the hostile catalogue and other scanners' escape fixtures: it always returns, a template
// too large to prove or whose render runs out of a limit is left as it is with the reason, and whatever it
// changes behaves as the original in every engine × scenario and formats to itself.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { behaviourDifference, BUILTIN_SCENARIOS, dialectsOf } from "../../../server/src/analysis";
import { registeredEngines } from "../../../server/src/dialects";
import { TemplateDocument } from "../../../server/src/document";
import { formatTemplate } from "../../../server/src/services/format";
import { HOSTILE_TEMPLATES, peerEscapes, SUPERLINEAR_BUILTINS } from "../../helpers/hostileTemplates";

describe("formatter over hostile templates", () => {
  const engines = dialectsOf(registeredEngines());
  for (const h of [...HOSTILE_TEMPLATES, ...SUPERLINEAR_BUILTINS, ...peerEscapes()])
    it(`${h.category}: ${h.name}`, () => {
      const doc = new TemplateDocument(h.template);
      const r = formatTemplate(doc, { indentWidth: 2 });
      if (r.refused !== null) {
        assert.equal(r.text, h.template);
        assert.match(r.refused, /^not formatted: (the template does not parse|the template is larger|.* runs out of a render limit)/);
        return;
      }
      if (r.text === h.template) return;
      assert.equal(behaviourDifference(doc, new TemplateDocument(r.text), engines, BUILTIN_SCENARIOS), null);
      assert.equal(formatTemplate(new TemplateDocument(r.text), { indentWidth: 2 }).text, r.text);
    });
});
