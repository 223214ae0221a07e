import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_OPTION_TEXT, parseHostMessage, parseWebviewMessage } from "../../../client/src/preview/protocol";

const reason = (raw: unknown) => {
  const r = parseWebviewMessage(raw);
  return r.ok ? "ok" : r.reason;
};

describe("webview → host messages are checked on receipt", () => {
  it("accepts every message the webview sends", () => {
    for (const m of [
      { type: "ready" },
      { type: "selectScenario", id: "built-in:basic" },
      { type: "setOption", key: "bosToken", value: "<s>" },
      { type: "setOption", key: "eosToken", value: null },
      { type: "setOption", key: "addGenerationPrompt", value: false },
      { type: "setOption", key: "enableThinking", value: null },
      { type: "setOption", key: "extraVariables", value: '{"a": 1}' },
      { type: "setOption", key: "showWhitespace", value: true },
      { type: "showEngine", engine: "minja", visible: false },
      { type: "reveal", engine: "jinja2", offset: 12 },
      { type: "revealError", engine: "llamacpp" },
      { type: "copy", engine: "real-jinja2" },
      { type: "newScenario" },
    ]) {
      assert.equal(reason(m), "ok", JSON.stringify(m));
    }
  });

  it("drops malformed messages with the reason", () => {
    assert.equal(reason(null), "not a message object with a type");
    assert.equal(reason([]), "not a message object with a type");
    assert.equal(reason({ type: "delete" }), "unknown message type 'delete'");
    assert.equal(reason({ type: "toString" }), "unknown message type 'toString'");
    assert.equal(reason({ type: "selectScenario" }), "selectScenario: bad or missing 'id'");
    assert.equal(reason({ type: "reveal", engine: "jinja2", offset: -1 }), "reveal: bad or missing 'offset'");
    assert.equal(reason({ type: "reveal", engine: "jinja2", offset: 1.5 }), "reveal: bad or missing 'offset'");
    assert.equal(reason({ type: "showEngine", engine: "x", visible: "yes" }), "showEngine: bad or missing 'visible'");
  });

  it("checks that a setOption value fits its key", () => {
    assert.equal(reason({ type: "setOption", key: "colour", value: 1 }), "setOption: bad or missing 'key'");
    assert.equal(reason({ type: "setOption", key: "__proto__", value: 1 }), "setOption: bad or missing 'key'");
    assert.equal(
      reason({ type: "setOption", key: "addGenerationPrompt", value: "true" }),
      "setOption: bad value for 'addGenerationPrompt'",
    );
    assert.equal(reason({ type: "setOption", key: "extraVariables", value: null }), "setOption: bad value for 'extraVariables'");
    assert.equal(reason({ type: "setOption", key: "bosToken", value: 3 }), "setOption: bad value for 'bosToken'");
    assert.equal(
      reason({ type: "setOption", key: "extraVariables", value: "x".repeat(MAX_OPTION_TEXT + 1) }),
      "setOption: bad value for 'extraVariables'",
    );
  });
});

describe("host → webview messages are checked on receipt", () => {
  it("accepts state, update and error, and nothing else", () => {
    assert.ok(parseHostMessage({ type: "state", state: { scenarios: [], engines: [], options: {} } }).ok);
    assert.ok(parseHostMessage({ type: "update", update: { version: 3, engines: [] } }).ok);
    assert.ok(parseHostMessage({ type: "error", message: "x" }).ok);
    assert.deepEqual(parseHostMessage({ type: "update", update: { version: "3", engines: [] } }), {
      ok: false,
      reason: "update: bad or missing 'update'",
    });
    assert.deepEqual(parseHostMessage({ type: "state" }), { ok: false, reason: "state: bad or missing 'state'" });
    assert.deepEqual(parseHostMessage({ type: "ready" }), { ok: false, reason: "unknown message type 'ready'" });
  });
});
