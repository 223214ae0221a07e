import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PyDict } from "../../../server/src/interpreter/dict";
import { parseJson } from "../../../server/src/interpreter/json";
import { buildContext, contextJson, parseExtraVariables, scenarioFromCurrent } from "../../../client/src/preview/model/context";
import { DEFAULT_OPTIONS } from "../../../client/src/preview/controller";
import { hasPythonJinja2, runPythonJson } from "../../helpers/python";

const scenario = (json: string) => parseJson(json) as PyDict;
const plain = (d: PyDict) => Object.fromEntries(d.entries()) as Record<string, unknown>;
const basic = scenario('{"messages": [{"role": "user", "content": "hi"}], "add_generation_prompt": true}');

describe("buildContext", () => {
  it("adds the corpus bos/eos and keeps the scenario's add_generation_prompt", () => {
    const { context, defaults, problem } = buildContext(basic, DEFAULT_OPTIONS, null);
    assert.equal(problem, null);
    assert.deepEqual([...context.keys()], ["messages", "add_generation_prompt", "bos_token", "eos_token"]);
    assert.deepEqual(defaults, { bosToken: "<|bos|>", eosToken: "<|eos|>", addGenerationPrompt: true, enableThinking: null });
    assert.equal(context.has("enable_thinking"), false, "enable_thinking stays unset unless someone sets it");
  });

  it("always passes add_generation_prompt, false when the scenario says nothing (as HF and llama.cpp do)", () => {
    assert.equal(buildContext(scenario('{"messages": []}'), DEFAULT_OPTIONS, null).context.get("add_generation_prompt"), false);
  });

  it("the bound model's tokens replace the defaults; the scenario's own and the options win over them", () => {
    const model = { bosToken: "<|endoftext|>", eosToken: "" };
    assert.equal(buildContext(basic, DEFAULT_OPTIONS, model).context.get("bos_token"), "<|endoftext|>");
    assert.equal(buildContext(basic, DEFAULT_OPTIONS, model).context.get("eos_token"), "", "a vocabulary without eos gives an empty text");
    const own = scenario('{"messages": [], "bos_token": "<s>"}');
    assert.equal(buildContext(own, DEFAULT_OPTIONS, model).context.get("bos_token"), "<s>");
    assert.equal(buildContext(own, { ...DEFAULT_OPTIONS, bosToken: "[BOS]" }, model).context.get("bos_token"), "[BOS]");
  });

  it("options override the scenario; extra variables override everything", () => {
    const options = {
      ...DEFAULT_OPTIONS,
      addGenerationPrompt: false,
      enableThinking: false,
      extraVariables: '{"bos_token": "X", "date": "1 Jan", "n": 1.0}',
    };
    const { context } = buildContext(basic, options, null);
    const { messages: _, ...rest } = plain(context);
    assert.deepEqual(rest, {
      add_generation_prompt: false,
      bos_token: "X",
      eos_token: "<|eos|>",
      enable_thinking: false,
      date: "1 Jan",
      n: 1.0,
    });
  });

  it("extra variables that are not a JSON object are left out, with the reason", () => {
    const bad = buildContext(basic, { ...DEFAULT_OPTIONS, extraVariables: '{"a": }' }, null);
    assert.equal(bad.problem, "extra variables: Expecting value at line 1, column 7");
    assert.equal(bad.context.has("a"), false);
    assert.equal(parseExtraVariables("[1]").problem, "extra variables must be a JSON object");
    assert.deepEqual(parseExtraVariables("  "), { vars: null, problem: null });
  });
});

describe("contextJson", () => {
  const ctx = scenario('{"f": 1.0, "big": 12345678901234567890, "s": "é\\n\\u2028", "nan": NaN}');

  it("is one ASCII line", () => {
    const json = contextJson(ctx);
    assert.match(json, /^[\x20-\x7e]*$/);
  });

  it(
    "reads back in Python as the same values (1.0 a float, big ints exact)",
    { skip: !hasPythonJinja2() && "python3 is not installed" },
    () => {
      const back = runPythonJson<string[]>(
        "import json,sys; d=json.loads(json.loads(sys.stdin.read())); print(json.dumps([repr(v) for v in d.values()]))",
        contextJson(ctx),
      );
      assert.deepEqual(back, ["1.0", "12345678901234567890", "'é\\n\\u2028'", "nan"]);
    },
  );
});

describe("scenarioFromCurrent", () => {
  it("writes the scenario with only the options the user set, keeping number types", () => {
    const s = scenario('{"messages": [], "temperature": 1.0}');
    const text = scenarioFromCurrent(s, { ...DEFAULT_OPTIONS, enableThinking: true, extraVariables: '{"tools": []}' });
    assert.equal(text, '{\n  "messages": [],\n  "temperature": 1.0,\n  "enable_thinking": true,\n  "tools": []\n}\n');
  });
});
