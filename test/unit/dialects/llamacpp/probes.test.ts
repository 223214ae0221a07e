import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { llamacpp_0_5_0 } from "../../../../server/src/dialects/llamacpp-v0.5.0";
import { TemplateDocument } from "../../../../server/src/document/document";
import { fromJS } from "../../../../server/src/interpreter/json";
import type { PyDict } from "../../../../server/src/interpreter/dict";
import { render } from "../../../../server/src/interpreter/render";
import { llamaCppErrorCause, renderRealLlamaCpp } from "../../../helpers/realLlamaCpp";
import { PROBES } from "./probes";

describe("llamacpp dialect: the documented probes render as llama.cpp renders them", () => {
  for (const [section, probes] of Object.entries(PROBES)) {
    describe(section, () => {
      for (const p of probes) {
        it(p.template, () => {
          const real = renderRealLlamaCpp(p.template, p.context ?? {});
          const r = render(new TemplateDocument(p.template), fromJS(p.context ?? {}) as PyDict, { dialect: llamacpp_0_5_0 });
          const ours = r.error ? { error: r.error.message } : { out: r.output };
          assert.deepEqual(ours, "out" in real ? real : { error: llamaCppErrorCause(real.error) });
        });
      }
    });
  }
});
