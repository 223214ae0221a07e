// The helper processes behind the real engines: time limits, engines that cannot run here, helpers that
// die, and the newest-request-wins queue.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { TemplateDocument } from "../../../server/src/document/document";
import { PyDict } from "../../../server/src/interpreter/dict";
import type { EngineInput } from "../../../client/src/preview/engines/engine";
import { LineProcess } from "../../../client/src/helperProcess/lineProcess";
import { realJinja2Engine, realJinja2Note } from "../../../client/src/preview/engines/realJinja2";
import { parseLlamaCppError, realLlamaCppEngine } from "../../../client/src/preview/engines/realLlamaCpp";
import { hasPythonJinja2 } from "../../helpers/python";

const WORKER = ["--import", "tsx", join(__dirname, "../../../client/src/preview/engines/llamacppWorker.ts")];
const NOW = { year: 2026, month: 1, day: 15, hour: 9, minute: 30, second: 0, microsecond: 0 };
const input = (text: string): EngineInput => ({ doc: new TemplateDocument(text), context: new PyDict(), json: "{}", now: NOW });
const noPython = !hasPythonJinja2() && "python3 with jinja2 is not installed";
// ten billion loop iterations: no engine finishes this within a test's patience
const ENDLESS = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}";

/** A helper process written in JavaScript, for what no engine would do on purpose (dying, garbling). */
function helper(code: string, timeoutMs = 5000): LineProcess {
  return new LineProcess({ command: process.execPath, args: ["-e", code], timeoutMs });
}
const READY = `process.stdout.write('{"ready": true, "version": "t"}\\n');`;

describe("LineProcess", () => {
  it("a request past the time limit stops the helper; the next request gets a fresh one", async () => {
    const p = helper(
      `${READY} require("readline").createInterface({input: process.stdin}).on("line", l => { const r = JSON.parse(l); if (!r.slow) console.log(JSON.stringify({out: "fast"})); });`,
      300,
    );
    assert.deepEqual(await p.request({ slow: true }), {
      ok: false,
      unavailable: false,
      reason: "no answer within 0.3 s from the engine; stopped",
    });
    assert.deepEqual(await p.request({ slow: false }), { ok: true, reply: { out: "fast" } });
    assert.equal(p.version, "t");
    p.dispose();
  });

  it("a helper that dies is reported with its exit and last words, and restarted", async () => {
    const p = helper(
      `${READY} require("readline").createInterface({input: process.stdin}).on("line", () => { console.error("segfault-ish"); process.exit(3); });`,
    );
    const died = { ok: false, unavailable: false, reason: `${process.execPath} exited (code 3): segfault-ish`, stderr: "segfault-ish\n" };
    assert.deepEqual(await p.request({}), died);
    assert.deepEqual(await p.request({}), died);
    p.dispose();
  });

  it("a helper that says it cannot run is unavailable for good; so is a missing program", async () => {
    const p = helper(`process.stdout.write('{"ready": false, "reason": "no module"}\\n');`);
    assert.deepEqual(await p.request({}), { ok: false, unavailable: true, reason: "no module" });
    assert.deepEqual(await p.request({}), { ok: false, unavailable: true, reason: "no module" });
    const missing = new LineProcess({ command: "/nonexistent/python9", args: [], timeoutMs: 1000 });
    assert.deepEqual(await missing.request({}), { ok: false, unavailable: true, reason: "/nonexistent/python9 was not found" });
  });

  it("output that is not JSON is an error, not a crash", async () => {
    const p = helper(
      `${READY} require("readline").createInterface({input: process.stdin}).on("line", () => console.log("Traceback (most recent call last):"));`,
    );
    assert.deepEqual(await p.request({}), {
      ok: false,
      unavailable: false,
      reason: `${process.execPath} wrote something that is not JSON: Traceback (most recent call last):`,
    });
    p.dispose();
  });

  it("while one request runs, a newer one replaces the one waiting behind it", async () => {
    const p = helper(
      `${READY} require("readline").createInterface({input: process.stdin}).on("line", l => setTimeout(() => console.log(l), 50));`,
    );
    const results = await Promise.all([p.request({ n: 1 }), p.request({ n: 2 }), p.request({ n: 3 })]);
    assert.deepEqual(results, [{ ok: true, reply: { n: 1 } }, null, { ok: true, reply: { n: 3 } }]);
    p.dispose();
  });
});

describe("real Python Jinja2", () => {
  it("its note gives the installed version and says when it is not the reference (3.1.6)", () => {
    assert.equal(realJinja2Note("3.1.6", "python3"), "jinja2 3.1.6 (python3)");
    assert.equal(realJinja2Note("3.1.2", "/usr/bin/python3"), "jinja2 3.1.2 (/usr/bin/python3), not the reference 3.1.6");
  });

  it("runs the installed jinja2 configured as HF transformers does", { skip: noPython }, async () => {
    const e = realJinja2Engine({ python: "python3", timeoutMs: 10_000 });
    const text =
      "{% for x in [1, 2, 3] %}{% if x == 2 %}{% continue %}{% endif %}{{ x }}{% endfor %}\n" +
      "{% generation %}{{ {'k': 'é'} | tojson }}{% endgeneration %} {{ strftime_now('%d %B %Y') }}\n  {% if true %}\n  lstrip{% endif %}";
    assert.deepEqual(await e.render(input(text)), { status: "ok", output: '13{"k": "é"} 15 January 2026\n  lstrip', chunks: null });
    assert.match(e.note()!, /^jinja2 \d+\.\d+/);
    const sandboxed = await e.render(input("{{ ''.__class__.__mro__ }}"));
    assert.match((sandboxed as { error: { message: string } }).error.message, /^SecurityError: /);
    e.dispose();
  });

  it("a render past the time limit is stopped with a clear error", { skip: noPython }, async () => {
    const e = realJinja2Engine({ python: "python3", timeoutMs: 1000 });
    assert.deepEqual(await e.render(input(ENDLESS)), {
      status: "error",
      output: "",
      chunks: null,
      error: { message: "no answer within 1 s from the engine; stopped", code: null, start: null, end: null, line: null, column: null },
    });
    assert.equal((await e.render(input("after")))?.status, "ok");
    e.dispose();
  });

  it("is unavailable, with the reason, where python3 has no jinja2", { skip: noPython }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "cts-nojinja-"));
    const python = join(dir, "python-without-site");
    writeFileSync(python, '#!/bin/sh\nexec python3 -S "$@"\n'); // -S: no site-packages, so no jinja2
    chmodSync(python, 0o755);
    const r = await realJinja2Engine({ python, timeoutMs: 10_000 }).render(input("x"));
    assert.equal(r?.status, "unavailable");
    assert.match((r as { reason: string }).reason, /^python3 cannot import jinja2 \(No module named 'jinja2'\)$/);
  });
});

describe("real llama.cpp", () => {
  it("renders with node-llama-cpp's prebuilt addon and reports its errors with their place", async () => {
    const e = realLlamaCppEngine({ command: process.execPath, args: WORKER, timeoutMs: 20_000 });
    assert.deepEqual(await e.render(input("{{ [1,'a'] }}")), { status: "ok", output: "1a", chunks: null });
    assert.equal(e.note(), "node-llama-cpp 3.22.1 prebuilt");
    const r = await e.render(input("x\n{{ 'a' | items }}"));
    assert.equal(r?.status, "error");
    const err = (r as { error: { line: number | null; message: string } }).error;
    assert.equal(err.line, 2);
    assert.match(err.message, /filter 'items'/);
    const nan = await e.render({ ...input("{{ x }}"), json: '{"x": NaN}' });
    assert.match((nan as { error: { message: string } }).error.message, /^the context cannot be passed to llama.cpp's addon: /);
    e.dispose();
  });

  it("a render past the time limit is stopped, and the next one works", async () => {
    const e = realLlamaCppEngine({ command: process.execPath, args: WORKER, timeoutMs: 3000 });
    const r = await e.render(input(ENDLESS));
    assert.equal((r as { error: { message: string } }).error.message, "no answer within 3 s from the engine; stopped");
    assert.equal((await e.render(input("after")))?.status, "ok");
    e.dispose();
  });

  it("parses the engine's error texts: cause, line and column", () => {
    const raw =
      "AddonJinjaRenderer: failed to render template: \n------------\nWhile executing CallExpression at line 163, column 32 in source:\n...x...\n   ^\nError: Jinja Exception: Invalid system message";
    assert.deepEqual(parseLlamaCppError(raw), { message: "Jinja Exception: Invalid system message", line: 163, column: 32 });
    assert.deepEqual(parseLlamaCppError("failed to compile template: Unknown statement: raw"), {
      message: "Unknown statement: raw",
      line: null,
      column: null,
    });
  });
});
