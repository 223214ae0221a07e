// Each hfjinja fact's sample shows what the fact says, in the real @huggingface/jinja, in our hfjinja
// dialect (which must agree with it) and against our jinja2 dialect.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Dialect } from "../../../server/src/interpreter/dialect";
import { HFJINJA_FACTS } from "../../../server/src/dialects/hfjinja/facts";
import { hfjinja_0_5_13 } from "../../../server/src/dialects/hfjinja-0.5.13";
import { jinja2_3_1_6 } from "../../../server/src/dialects/jinja2-3.1.6";
import { TemplateDocument } from "../../../server/src/document/document";
import type { PyDict } from "../../../server/src/interpreter/dict";
import { fromJS } from "../../../server/src/interpreter/json";
import { render } from "../../../server/src/interpreter/render";
import { renderRealHfJinja } from "../../helpers/realHfJinja";

function run(d: Dialect, template: string, context: Record<string, unknown>) {
  const r = render(new TemplateDocument(template), fromJS(context) as PyDict, { dialect: d });
  return r.error ? { error: r.error.message, code: r.error.code } : { out: r.output };
}

describe("hfjinja facts: each sample shows what the fact says, in the engine and in our dialects", () => {
  for (const f of HFJINJA_FACTS) {
    it(`${f.kind} ${f.name}: ${f.cause}`, () => {
      const { template, context = {} } = f.sample;
      const real = renderRealHfJinja(template, context);
      const hf = run(hfjinja_0_5_13, template, context);
      const jinja = run(jinja2_3_1_6, template, context);
      if (f.effect === "throws") {
        assert.ok("error" in real, `the engine renders ${JSON.stringify(real)}`);
        assert.ok("error" in hf, `we render ${JSON.stringify(hf)}`);
      } else {
        assert.ok("out" in real && "out" in jinja, `both engines render: ${JSON.stringify({ real, jinja })}`);
        assert.deepEqual(hf, real, "our hfjinja dialect matches the engine");
        assert.notEqual(real.out, jinja.out);
      }
    });
  }
});
