// The llama-server engine against llama.cpp's real chat layer (common_chat_templates_apply through the
// native addon's ChatTemplate.apply, the same call the endpoint serves requests with), in process, on every
// corpus template and built-in scenario: the prompt must be byte for byte llama.cpp's, or both must refuse.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ChatTemplate } from "../../../native/engine/chat";
import { BUILTIN_SCENARIOS, renderRequest, type Scenario, scenarioContext } from "../../../server/src/analysis";
import { dialectFor, llamaServer_0_5_0 } from "../../../server/src/dialects";
import { TemplateDocument } from "../../../server/src/document";
import { PyDict, render, type Value, type WallClock } from "../../../server/src/interpreter";
import { corpusDir } from "../../helpers/corpus";
import "../../helpers/templateGuard";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";

function plain(v: Value): unknown {
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof PyDict) return Object.fromEntries([...v.entries()].map(([k, x]) => [String(k), plain(x)]));
  return v;
}

/** The chat-completions request a scenario stands for (requestInputs.ts reads it the same way). */
function requestOf(s: Scenario): Record<string, unknown> {
  const {
    messages,
    tools,
    add_generation_prompt,
    bos_token: _b,
    eos_token: _e,
    ...kwargs
  } = plain(scenarioContext(s)) as Record<string, unknown>;
  return { messages, ...(tools ? { tools } : {}), add_generation_prompt: add_generation_prompt === true, chat_template_kwargs: kwargs };
}

function wallClock(d: Date): WallClock {
  const [year, month, day, hour, minute, second] = [
    d.getFullYear(),
    d.getMonth() + 1,
    d.getDate(),
    d.getHours(),
    d.getMinutes(),
    d.getSeconds(),
  ];
  return { year, month, day, hour, minute, second, microsecond: 0 };
}

const templates = readdirSync(corpusDir("templates"))
  .filter((f) => f.endsWith(".jinja"))
  .sort();

/** Templates whose llama.cpp render changes when enable_thinking=true is passed instead of left unset. */
function thinkingSensitive(): string[] {
  const llamacpp = dialectFor("llamacpp")!;
  return templates.filter((f) => {
    const doc = new TemplateDocument(readFileSync(corpusDir("templates", f), "utf8"));
    return BUILTIN_SCENARIOS.some((s) => {
      if (s.data.has("enable_thinking")) return false;
      const on = scenarioContext(s);
      on.set("enable_thinking", true);
      return render(doc, scenarioContext(s), { dialect: llamacpp }).output !== render(doc, on, { dialect: llamacpp }).output;
    });
  });
}

describe("llama-server engine against llama.cpp's chat layer", () => {
  it("renders every corpus template and built-in scenario as llama.cpp's chat layer does", { timeout: HANG_GUARD_MS }, async () => {
    const mismatches: string[] = [];
    const matched = new Set<string>();
    for (const f of templates) {
      const source = readFileSync(join(corpusDir("templates"), f), "utf8");
      const doc = new TemplateDocument(source);
      const t = await ChatTemplate.fromSource(source, { bos: "<|bos|>", eos: "<|eos|>" });
      let all = true;
      for (const s of BUILTIN_SCENARIOS) {
        const real = await t.apply(requestOf(s) as never).then(
          (p) => p.prompt,
          () => null,
        );
        const ours = renderRequest(doc, scenarioContext(s), { dialect: llamaServer_0_5_0, now: wallClock(new Date()) });
        const same = real === null ? ours.error !== null : ours.error === null && ours.output === real;
        if (!same) {
          all = false;
          mismatches.push(
            `${f} ${s.name}: ours ${JSON.stringify(ours.error?.message ?? ours.output.slice(-80))}, llama.cpp ${JSON.stringify(real?.slice(-80))}`,
          );
        }
      }
      if (all) matched.add(f);
    }
    assert.deepEqual(mismatches, []);
    const sensitive = thinkingSensitive();
    // the templates whose prompt enable_thinking changes are the ones this engine exists for
    assert.ok(sensitive.length >= 11, `${sensitive.length} enable_thinking-sensitive templates`);
    assert.deepEqual(
      sensitive.filter((f) => !matched.has(f)),
      [],
    );
  });
});
