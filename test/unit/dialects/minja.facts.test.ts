// Each minja fact's sample shows what the fact says: minja throws where it says so, and renders other
// bytes than Jinja2 where it says the output differs (rendered by our corpus-checked dialects).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Dialect } from "../../../server/src/interpreter/dialect";
import { jinja2_3_1_6 } from "../../../server/src/dialects/jinja2-3.1.6";
import { MINJA_FACTS } from "../../../server/src/dialects/minja/facts";
import { minja_021c229 } from "../../../server/src/dialects/minja-021c229";
import { TemplateDocument } from "../../../server/src/document/document";
import type { PyDict } from "../../../server/src/interpreter/dict";
import { fromJS } from "../../../server/src/interpreter/json";
import { render } from "../../../server/src/interpreter/render";

function run(d: Dialect, template: string, context: Record<string, unknown>) {
  const r = render(new TemplateDocument(template), fromJS(context) as PyDict, { dialect: d });
  return r.error ? { error: r.error.message, code: r.error.code } : { out: r.output };
}

describe("minja facts: each sample shows what the fact says", () => {
  for (const f of MINJA_FACTS) {
    it(`${f.kind} ${f.name}: ${f.cause}`, () => {
      const { template, context = {} } = f.sample;
      const minja = run(minja_021c229, template, context);
      const jinja = run(jinja2_3_1_6, template, context);
      assert.ok(
        !("code" in minja) || minja.code !== "runtime/not-reproduced",
        `the sample must be something minja is known to do: ${JSON.stringify(minja)}`,
      );
      if (f.effect === "throws") {
        assert.ok("error" in minja, `minja renders ${JSON.stringify(minja)}`);
        if (f.kind === "syntax") assert.match(minja.code ?? "", /^syntax\//);
      } else {
        assert.ok("out" in minja && "out" in jinja, `both render: ${JSON.stringify({ minja, jinja })}`);
        assert.notEqual(minja.out, jinja.out);
      }
    });
  }
});
