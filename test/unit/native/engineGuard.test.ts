// The engine asks the guard it was given (native/engine/guard.ts) and turns its verdicts into its own errors;
// without a guard it refuses every template.
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { EngineError, TemplateLimitError, TemplateRefusedError } from "../../../native/engine/errors";
import { guarded, setTemplateGuard } from "../../../native/engine/guard";
import type { Refusal, TemplateGuard } from "../../../server/src/guard";

const answering = (refusal: Refusal | null): TemplateGuard => ({
  checkTemplates: async () => refusal,
  checkRequest: async () => refusal,
  checkRender: async () => refusal,
});

describe("the engine's template guard", () => {
  afterEach(() => setTemplateGuard(null));

  it("refuses every template when no guard is installed", async () => {
    const e = await guarded((g) => g.checkRender("{{ 1 }}", "{}")).catch((x: unknown) => x);
    assert.ok(e instanceof TemplateRefusedError, String(e));
    assert.match(e.message, /no template guard is installed/);
  });

  it("passes what the guard vouches for", async () => {
    setTemplateGuard(answering(null));
    await guarded((g) => g.checkRequest({ override: "{{ 1 }}", model: {}, tokens: { bos: "", eos: "" } }, "{}"));
  });

  it("turns each refusal into the engine's error, with its location", async () => {
    const cases: [Refusal, (e: unknown) => boolean][] = [
      [
        { kind: "limit", limit: "steps", line: 2, column: 3, message: "too many steps" },
        (e) => e instanceof TemplateLimitError && e.limit === "steps" && e.line === 2 && e.column === 3,
      ],
      [
        { kind: "refused", line: 4, column: 5, message: "not vouched for" },
        (e) => e instanceof TemplateRefusedError && e.line === 4 && e.column === 5,
      ],
      [
        { kind: "invalid", message: "nested too deeply" },
        (e) => e instanceof EngineError && !(e instanceof TemplateLimitError) && e.code === "invalid_argument",
      ],
    ];
    for (const [refusal, expected] of cases) {
      setTemplateGuard(answering(refusal));
      const e = await guarded((g) => g.checkTemplates({ override: "x", model: {}, tokens: { bos: "", eos: "" } })).catch((x: unknown) => x);
      assert.ok(expected(e), `${refusal.kind}: ${String(e)}`);
      assert.equal((e as Error).message, refusal.message);
    }
  });
});
