import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { builtinScenarios, scenarioInfo, workspaceScenario } from "../../../client/src/preview/model/scenarios";
import { corpusDir } from "../../helpers/corpus";
import { validate } from "../../helpers/jsonSchema";

const root = join(__dirname, "../../..");
const builtinText = readFileSync(join(root, "templates/scenarios.json"), "utf8");
const schema = JSON.parse(readFileSync(join(root, "templates/scenario.schema.json"), "utf8"));

describe("scenario catalogue", () => {
  it("lists the built-in scenarios in file order, with ids that say where they come from", () => {
    const list = builtinScenarios(builtinText);
    assert.equal(list[0].id, "built-in:basic");
    assert.deepEqual(
      list.map((s) => s.name),
      Object.keys(JSON.parse(builtinText)),
    );
    assert.ok(list.every((s) => s.context && s.problem === null && s.source === "built-in"));
  });

  it("a workspace file is one scenario named after the file, read with Python's number types", () => {
    const s = workspaceScenario(".chat-template/scenarios/long-chat.json", '{"messages": [], "temperature": 1.0}');
    assert.equal(s.name, "long-chat");
    assert.equal(s.id, "workspace:.chat-template/scenarios/long-chat.json");
    assert.equal(s.context?.get("temperature"), 1.0);
    assert.deepEqual(scenarioInfo(s), { id: s.id, name: "long-chat", source: "workspace", file: s.file, problem: null });
  });

  it("a broken file stays listed with its problem and the place of a JSON error", () => {
    const bad = workspaceScenario("s/bad.json", '{"messages": [\n  {"role": "user",}\n]}');
    assert.equal(bad.context, null);
    assert.match(bad.problem!, /^s\/bad\.json: Expecting property name enclosed in double quotes at line 2, column 19$/);
    assert.match(workspaceScenario("s/list.json", "[]").problem!, /one JSON object/);
    assert.match(workspaceScenario("s/m.json", '{"messages": "hi"}').problem!, /'messages' must be a list/);
  });
});

describe("scenario.schema.json (what editing a scenario file is validated against)", () => {
  it("accepts every built-in and corpus scenario", () => {
    const corpus = JSON.parse(readFileSync(corpusDir("scenarios.json"), "utf8"));
    for (const [name, s] of Object.entries({ ...JSON.parse(builtinText), ...corpus })) {
      assert.deepEqual(validate(s, schema), [], name);
    }
  });

  it("rejects what the templates cannot use", () => {
    assert.deepEqual(validate({ messages: [{ content: "hi" }] }, schema), ["$.messages[0]: missing 'role'"]);
    assert.deepEqual(validate({ messages: [], add_generation_prompt: "yes" }, schema), ["$.add_generation_prompt: is string, not boolean"]);
    assert.deepEqual(validate({ messages: [], tools: [{ type: "function", function: {} }] }, schema), [
      "$.tools[0].function: missing 'name'",
    ]);
  });

  it("is the schema package.json binds to the scenario folder", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    assert.deepEqual(pkg.contributes.jsonValidation[0], {
      fileMatch: "**/.chat-template/scenarios/*.json",
      url: "./templates/scenario.schema.json",
    });
    assert.equal(pkg.contributes.configuration.properties["chatTemplate.preview.scenarioFolder"].default, ".chat-template/scenarios");
  });
});
