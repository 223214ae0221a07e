// Endpoint settings → `chat-template serve` arguments, the status bar's words, and what the editor reads
// from the served model's header.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseServeArgs } from "../../../native/endpoint/config";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import { ownTemplate, servedModelFile, servedModelInfo } from "../../../client/src/endpoint/servedModel";
import {
  DEFAULT_SETTINGS,
  readEndpointSettings,
  serveArgs,
  settingsProblem,
  type EndpointSettings,
} from "../../../client/src/endpoint/settings";
import { statusView } from "../../../client/src/endpoint/status";
import { storageDir } from "../../helpers/endpoint";

const read = (values: Partial<EndpointSettings>, folder: string | undefined = "/work/ws") =>
  readEndpointSettings((k, d) => (values[k] ?? d) as never, folder);

describe("endpoint settings", () => {
  test("defaults, paths relative to the workspace folder, the external URL without a trailing /v1", () => {
    assert.deepEqual(read({}), DEFAULT_SETTINGS);
    const s = read({
      targetModel: "models/t.gguf",
      draftModel: "/abs/d.gguf",
      templateFile: " tpl.jinja ",
      externalUrl: "http://gpu:8000/v1/",
    });
    assert.deepEqual(
      [s.targetModel, s.draftModel, s.templateFile, s.externalUrl],
      ["/work/ws/models/t.gguf", "/abs/d.gguf", "/work/ws/tpl.jinja", "http://gpu:8000"],
    );
    assert.equal(
      readEndpointSettings((k, d) => (k === "targetModel" ? "t.gguf" : d) as never, undefined).targetModel,
      "t.gguf",
      "no folder: as written",
    );
  });

  test("the serve arguments, which the endpoint's own parser accepts as meant", () => {
    const s = read({
      targetModel: "/m/t.gguf",
      draftModel: "/m/d.gguf",
      gpuLayers: 20,
      contextSize: 8192,
      port: 9000,
      threads: 4,
      draftMax: 6,
      draftAdaptive: false,
      draftWindow: 1024,
      cacheRam: 512,
      allowedOrigins: ["http://localhost:3000", "https://a.example"],
    });
    const args = serveArgs(s, "/store/chat_template.jinja");
    const c = parseServeArgs(args, {});
    assert.deepEqual(
      [c.target, c.draft, c.gpuLayers, c.contextSize, c.port, c.threads, c.cacheRamMiB, c.chatTemplateFile],
      ["/m/t.gguf", "/m/d.gguf", 20, 8192, 9000, 4, 512, "/store/chat_template.jinja"],
    );
    assert.deepEqual([c.draftMax, c.draftAdaptive, c.draftWindow], [6, false, 1024]);
    assert.equal(
      parseServeArgs(serveArgs(s, "/store/chat_template.jinja", "/ws/edited.jinja"), {}).chatTemplateMirrorOf,
      "/ws/edited.jinja",
    );
    assert.equal(c.chatTemplateMirrorOf, undefined);
    assert.deepEqual(c.allowedOrigins, ["http://localhost:3000", "https://a.example"]);
    const d = parseServeArgs(serveArgs(DEFAULT_SETTINGS, null), {});
    assert.deepEqual(d.allowedOrigins, [], "no site but the endpoint's own");
    assert.deepEqual(
      [d.target, d.draft, d.gpuLayers, d.threads, d.port, d.cacheRamMiB, d.chatTemplateFile],
      [undefined, undefined, undefined, undefined, 0, 8192, undefined],
      "defaults: the demo models, the engine's own choices",
    );
    assert.deepEqual(
      [d.draftMax, d.draftAdaptive, d.draftWindow],
      [undefined, true, undefined],
      "the draft's whole block, adaptive, its own window",
    );
    assert.equal(
      parseServeArgs(serveArgs(DEFAULT_SETTINGS, null, "/ws/edited.jinja"), {}).chatTemplateMirrorOf,
      undefined,
      "no file, no copy to name",
    );
  });

  test("problems are named by their setting", () => {
    assert.equal(settingsProblem(DEFAULT_SETTINGS), null);
    assert.match(settingsProblem(read({ draftModel: "d.gguf" }))!, /draftModel needs a target model/);
    assert.match(settingsProblem(read({ templateSource: "file" }))!, /templateFile is empty/);
    assert.match(settingsProblem(read({ mode: "external" }))!, /externalUrl is empty/);
    assert.match(settingsProblem(read({ mode: "external", externalUrl: "gpu:8000" }))!, /must be an http:\/\/ or https:\/\/ URL/);
    assert.equal(settingsProblem(read({ mode: "external", externalUrl: "https://gpu:8000" })), null);
  });

  test("the served model: the demo target without a setting; its own template and bos/eos from the header", () => {
    process.env.CTS_STORAGE_DIR = storageDir;
    const file = servedModelFile(DEFAULT_SETTINGS);
    assert.ok(file.startsWith(storageDir));
    const info = servedModelInfo(DEFAULT_SETTINGS);
    assert.equal(ownTemplate(info), QWEN3_CHAT_TEMPLATE);
    assert.equal(info.eosToken, "<|im_end|>");
    assert.equal(ownTemplate({ ...info, templates: [] }), null);
    assert.throws(() => servedModelInfo({ ...DEFAULT_SETTINGS, targetModel: `${storageDir}/missing.gguf` }), /missing\.gguf/);
  });
});

describe("status bar", () => {
  const ready = {
    kind: "ready" as const,
    url: "http://127.0.0.1:4000",
    model: "demo-random",
    demo: true,
    backend: "cpu",
    contextSize: 4096,
    draft: "random test draft",
    pid: 1,
  };

  test("each state in words, with the last generation's speed and DFlash acceptance once known", () => {
    assert.equal(statusView({ kind: "stopped" }, null).text, "$(debug-disconnect) Endpoint: stopped");
    assert.equal(statusView({ kind: "starting" }, null).text, "$(loading~spin) Endpoint: starting");
    assert.equal(
      statusView({ kind: "loading", url: "u", model: "m", progress: 0.423 }, null).text,
      "$(loading~spin) Endpoint: loading 42%",
    );
    assert.equal(statusView(ready, null).text, "$(pulse) Endpoint: demo-random");
    assert.equal(
      statusView(ready, { tokensPerSecond: 312.4, acceptance: 0.625, completionTokens: 16 }).text,
      "$(pulse) Endpoint: demo-random · 312 tok/s · DFlash 63%",
    );
    assert.equal(
      statusView(ready, { tokensPerSecond: 40, acceptance: null, completionTokens: null }).text,
      "$(pulse) Endpoint: demo-random · 40 tok/s",
    );
    assert.equal(
      statusView({ kind: "restarting", attempt: 2, delayMs: 2000, reason: "the endpoint exited with code 1" }, null).text,
      "$(warning) Endpoint: restarting (2)",
    );
    assert.equal(statusView({ kind: "failed", message: "no" }, null).text, "$(error) Endpoint: failed");
    assert.equal(
      statusView({ kind: "external", url: "http://gpu:8000", model: "qwen", error: null }, null).text,
      "$(remote) Endpoint: qwen",
    );
    assert.equal(
      statusView({ kind: "external", url: "http://gpu:8000", model: null, error: "refused" }, null).text,
      "$(warning) Endpoint: external, unreachable",
    );
    assert.equal(statusView({ kind: "untrusted" }, null).text, "$(shield) Endpoint: untrusted workspace");
  });

  test("the tooltip says where, what runs, the last figures, and that a click gives actions", () => {
    const t = statusView(ready, { tokensPerSecond: 312.44, acceptance: 0.625, completionTokens: 16 }).tooltip.split("\n");
    assert.deepEqual(t, [
      "demo-random (demo models, random weights: the output is gibberish) at http://127.0.0.1:4000",
      "cpu backend, context 4096 tokens, DFlash draft random test draft.",
      "Last generation: 16 tokens at 312.4 tokens/s, DFlash acceptance 62.5%.",
      "Click for endpoint actions.",
    ]);
    const dflash = {
      adaptive: true,
      draftLength: 0,
      breakEven: 0.4,
      byContext: [{ context: "<4k", acceptance: 0.021, meanAcceptedLength: 0.3, plainSteps: 120 }],
    };
    assert.equal(
      statusView(ready, { tokensPerSecond: 900, acceptance: 0.021, completionTokens: 128, dflash }).tooltip.split("\n")[3],
      "DFlash: adaptive draft length, last step drafted 0; acceptance by context: <4k 2% (0.3 per step, 120 plain steps); below break-even (drafting at best 40% of plain speed).",
    );
    assert.match(
      statusView({ kind: "failed", message: "the model failed to load: bad magic" }, null).tooltip,
      /^the model failed to load: bad magic\n/,
    );
    assert.match(
      statusView({ kind: "restarting", attempt: 1, delayMs: 1000, reason: "the endpoint killed by SIGKILL" }, null).tooltip,
      /Restarting in 1\.0 s/,
    );
  });
});
