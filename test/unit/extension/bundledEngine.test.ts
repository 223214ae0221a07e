// Where the bundled engine cannot run (other platforms, the platform-neutral package), the extension says so
// in one voice — the status bar, the endpoint commands' message, the preview's real llama.cpp column — and
// points at the external endpoint setting; the check reads the files the linux-x64 package ships.
import * as assert from "node:assert/strict";
import { join } from "node:path";
import { describe, test } from "node:test";
import { NATIVE_FILES, bundledEngine, unavailableColumnReason, unavailableMessage } from "../../../client/src/bundledEngine";
import { statusView } from "../../../client/src/endpoint/status";
import { unavailableLlamaCppEngine } from "../../../client/src/preview/engines/realLlamaCpp";
import { requiredFiles } from "../../../packaging/contents";

const ROOT = "/ext";
const all = (p: string) => p.startsWith(ROOT);

describe("bundled engine availability", () => {
  test("linux-x64 with the native files: available", () => {
    assert.deepEqual(bundledEngine(ROOT, "linux", "x64", all), { available: true });
  });

  test("another platform: unavailable, naming it, whatever files are there", () => {
    for (const [platform, arch] of [
      ["darwin", "arm64"],
      ["win32", "x64"],
      ["linux", "arm64"],
    ] as const) {
      const e = bundledEngine(ROOT, platform, arch, all);
      assert.equal(e.available, false);
      assert.match(!e.available ? e.reason : "", new RegExp(`built for linux-x64 only, and this is ${platform}-${arch}`));
    }
  });

  test("linux-x64 without a native file (the platform-neutral package): unavailable, naming the file", () => {
    for (const missing of NATIVE_FILES) {
      const e = bundledEngine(ROOT, "linux", "x64", (p) => p !== join(ROOT, missing));
      assert.equal(e.available, false, missing);
      assert.ok(!e.available && e.reason.includes(missing), missing);
    }
  });

  test("the files it checks are the ones the linux-x64 package must hold", () => {
    const shipped = new Set(requiredFiles("linux-x64"));
    for (const f of NATIVE_FILES) assert.ok(shipped.has(f), `${f} is not in packaging's required files`);
  });

  test("the real checkout (a development build) has the engine", () => {
    assert.deepEqual(bundledEngine(join(__dirname, "..", "..", "..")), { available: true });
  });
});

describe("what users see where the engine is unavailable", () => {
  const engine = { reason: "it is built for linux-x64 only, and this is darwin-arm64" };

  test("the message says the bundled engine is not available on this platform and names the external endpoint settings", () => {
    const m = unavailableMessage(engine);
    assert.match(m, /^The bundled engine is not available on this platform: it is built for linux-x64 only, and this is darwin-arm64\./);
    assert.match(m, /chatTemplate\.endpoint\.mode to "external"/);
    assert.match(m, /chatTemplate\.endpoint\.externalUrl/);
  });

  test("the status bar says so, and its tooltip carries the whole message", () => {
    const v = statusView({ kind: "unavailable", reason: engine.reason }, null);
    assert.equal(v.text, "$(circle-slash) Endpoint: not available on this platform");
    assert.ok(v.tooltip.startsWith(unavailableMessage(engine)));
  });

  test("the preview's real llama.cpp column is unavailable with the reason, without starting a process", async () => {
    const e = unavailableLlamaCppEngine(unavailableColumnReason(engine));
    assert.equal(e.id, "real-llamacpp");
    assert.deepEqual(await e.render({} as never), {
      status: "unavailable",
      reason: "the bundled llama.cpp is not available on this platform (it is built for linux-x64 only, and this is darwin-arm64)",
    });
  });
});
