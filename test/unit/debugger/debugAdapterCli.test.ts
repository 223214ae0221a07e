// `chat-template debug-adapter`: the bundled CLI (dist/cli.js, its render thread dist/debugWorker.js) speaking the
// Debug Adapter Protocol on stdio, as VS Code and other editors start it.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { CLI, runCli } from "../../helpers/cli";
import { DapClient } from "../../helpers/dapClient";

describe("chat-template debug-adapter", () => {
  it("serves a session on stdio: a stop at a breakpoint, a variable, the full output, then exits 0 on disconnect", async () => {
    const dir = mkdtempSync(join(tmpdir(), "debug-adapter-"));
    const template = join(dir, "t.jinja");
    writeFileSync(template, "{%- for message in messages %}\n{{ message.role }}: {{ message.content }}\n{% endfor %}");
    const child = spawn(process.execPath, [CLI, "debug-adapter"], { stdio: ["pipe", "pipe", "pipe"] });
    const exited = once(child, "exit");
    const dap = DapClient.overStdio(child);
    assert.ok((await dap.request("initialize", { adapterID: "chat-template", pathFormat: "path" })).success);
    assert.ok((await dap.request("launch", { template, scenario: "basic", engine: "llamacpp" })).success);
    await dap.waitFor("initialized");
    await dap.request("setBreakpoints", { source: { path: template }, breakpoints: [{ line: 2 }] });
    await dap.request("configurationDone");
    await dap.waitFor("stopped");
    const e = await dap.request<DebugProtocol.EvaluateResponse>("evaluate", { expression: "message.role", frameId: 0 });
    assert.equal(e.body.result, "system");
    await dap.request("setBreakpoints", { source: { path: template }, breakpoints: [] });
    await dap.request("continue", { threadId: 1 });
    await dap.waitFor("terminated");
    assert.equal(dap.output("stdout"), runCli(["render", template, "--scenario", "basic", "--engine", "llamacpp"]).stdout);
    await dap.request("disconnect", {});
    const [code] = await exited;
    assert.equal(code, 0);
  });
});
