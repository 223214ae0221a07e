import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jinja2_3_1_6 } from "../../../../server/src/dialects/jinja2-3.1.6";
import { LLAMACPP_FACTS } from "../../../../server/src/dialects/llamacpp/facts";
import { llamacpp_0_5_0 } from "../../../../server/src/dialects/llamacpp-v0.5.0";
import type { Dialect } from "../../../../server/src/interpreter/dialect";
import { TemplateDocument } from "../../../../server/src/document/document";
import type { PyDict } from "../../../../server/src/interpreter/dict";
import { fromJS } from "../../../../server/src/interpreter/json";
import { render } from "../../../../server/src/interpreter/render";
import { llamaCppErrorCause, renderRealLlamaCpp } from "../../../helpers/realLlamaCpp";

function run(d: Dialect, template: string, context: Record<string, unknown>) {
  const r = render(new TemplateDocument(template), fromJS(context) as PyDict, { dialect: d });
  return r.error ? { error: r.error.message } : { out: r.output };
}

describe("llamacpp facts: each sample shows what the fact says, in our dialects and in the engine", () => {
  for (const f of LLAMACPP_FACTS) {
    it(`${f.kind} ${f.name}: ${f.cause}`, () => {
      const { template, context = {} } = f.sample;
      const real = renderRealLlamaCpp(template, context);
      const llama = run(llamacpp_0_5_0, template, context);
      assert.deepEqual(llama, "out" in real ? real : { error: llamaCppErrorCause(real.error) }, "our llamacpp dialect matches the engine");
      const jinja = run(jinja2_3_1_6, template, context);
      if (f.effect === "throws") assert.ok("error" in llama, `llama.cpp renders ${JSON.stringify(llama)}`);
      else {
        assert.ok("out" in llama && "out" in jinja, `both render: ${JSON.stringify({ llama, jinja })}`);
        assert.notEqual(llama.out, jinja.out);
      }
    });
  }
});
