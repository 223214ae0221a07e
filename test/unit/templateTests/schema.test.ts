import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import Ajv from "ajv";
import { CAPS_KEYS } from "../../../server/src/analysis/caps/capsProbe";
import { BUILTIN_SCENARIOS } from "../../../server/src/analysis/scenarios";
import { ENGINE_IDS } from "../../../server/src/dialects";

const root = resolve(__dirname, "../../..");
const schema = JSON.parse(readFileSync(join(root, "templates/chat-template-test.schema.json"), "utf8"));
const check = new Ajv({ allErrors: true }).compile(schema);
const errors = (v: unknown) => (check(v) ? [] : check.errors!.map((e) => `${e.instancePath} ${e.message}`));

const testFilesIn = (dir: string) =>
  readdirSync(join(root, dir))
    .filter((n) => n.endsWith(".chat-template-test.json"))
    .map((n) => join(root, dir, n));

describe("chat-template-test.schema.json (what the editor validates and completes test files with)", () => {
  it("accepts the starter and fixture test files", () => {
    const files = [...testFilesIn("templates/starters"), ...testFilesIn("test/fixtures/templateTests/glm")];
    assert.ok(files.length >= 4);
    for (const f of files) assert.deepEqual(errors(JSON.parse(readFileSync(f, "utf8"))), [], f);
  });

  it("rejects what `chat-template test` rejects", () => {
    const one = (c: unknown) => errors({ template: "t.jinja", cases: [c] });
    assert.notDeepEqual(one({ name: "a", expect: { rendersFast: true } }), []);
    assert.notDeepEqual(one({ name: "a", expect: { caps: { supports_tools: "yes" } } }), []);
    assert.notDeepEqual(one({ name: "a", scenario: "basic", engines: ["vllm"], expect: { renders: true } }), []);
    assert.notDeepEqual(one({ name: "a", scenario: "nope", expect: { renders: true } }), []);
    assert.deepEqual(one({ name: "a", scenario: "dir/mine.json", expect: { renders: true } }), []);
    assert.notDeepEqual(one({ name: "a", expect: { diagnostics: { maxSeverity: "fatal" } } }), []);
    assert.notDeepEqual(errors({ cases: [] }), []);
    const weather = { type: "function", function: { name: "get_weather", parameters: { type: "object" } } };
    assert.deepEqual(
      one({
        name: "l",
        live: {
          messages: [{ role: "user", content: "hi" }],
          tools: [weather],
          expectToolCall: "get_weather",
          turns: 3,
          toolResults: { get_weather: "sunny" },
          samples: 20,
          minWellFormed: 0.9,
        },
      }),
      [],
    );
    assert.notDeepEqual(one({ name: "l", live: { messages: [{ role: "user" }], samples: 0 } }), []);
    assert.notDeepEqual(one({ name: "l", live: { messages: [{ role: "user" }], minWellFormed: 90 } }), []);
    assert.notDeepEqual(one({ name: "l" }), []);
  });

  it("names the engines, capabilities and built-in scenarios the runner knows", () => {
    assert.deepEqual(schema.definitions.engine.enum, [...ENGINE_IDS]);
    assert.deepEqual(Object.keys(schema.definitions.case.properties.expect.properties.caps.properties).slice(2), [...CAPS_KEYS]);
    assert.deepEqual(
      schema.definitions.case.properties.scenario.anyOf[0].enum,
      BUILTIN_SCENARIOS.map((s) => s.name),
    );
  });

  it("is bound to *.chat-template-test.json in package.json", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    assert.ok(
      pkg.contributes.jsonValidation.some(
        (v: { fileMatch: string; url: string }) =>
          v.fileMatch === "*.chat-template-test.json" && v.url === "./templates/chat-template-test.schema.json",
      ),
    );
  });
});
