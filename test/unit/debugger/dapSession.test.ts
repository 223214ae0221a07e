import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { ChatTemplateDebugSession, OUTPUT_EVENT, type OutputSoFar } from "../../../server/src/debugger";
import { ENGINE_IDS } from "../../../server/src/dialects";
import { runCli } from "../../helpers/cli";
import { DapClient } from "../../helpers/dapClient";

const dir = mkdtempSync(join(tmpdir(), "debugger-"));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

// line numbers below are 1-based, as the client speaks them
const TEMPLATE = file(
  "macro.jinja",
  [
    "{%- macro turn(m) -%}", // 1
    "<|{{ m.role }}|>", // 2
    "{{- m.content -}}", // 3
    "{%- endmacro -%}", // 4
    "{{ bos_token }}", // 5
    "{%- for message in messages %}", // 6
    "{{- turn(message) }}", // 7
    "{%- endfor %}", // 8
    "{%- if add_generation_prompt %}<|assistant|>{% endif %}", // 9
  ].join("\n"),
);

type Stopped = DebugProtocol.StoppedEvent;

async function start(launch: Record<string, unknown>, lines: DebugProtocol.SourceBreakpoint[] = []) {
  const session = new ChatTemplateDebugSession();
  const dap = DapClient.inProcess(session);
  const init = await dap.request<DebugProtocol.InitializeResponse>("initialize", {
    adapterID: "chat-template",
    linesStartAt1: true,
    columnsStartAt1: true,
    pathFormat: "path",
  });
  assert.ok(init.success);
  const launched = await dap.request("launch", launch);
  if (!launched.success) return { dap, launched, breakpoints: [] as DebugProtocol.Breakpoint[] };
  await dap.waitFor("initialized");
  const source = { path: (launch.template as string) ?? TEMPLATE };
  const bps = await dap.request<DebugProtocol.SetBreakpointsResponse>("setBreakpoints", { source, breakpoints: lines });
  assert.ok((await dap.request("configurationDone")).success);
  return { dap, launched, breakpoints: bps.body.breakpoints };
}

function lastOutputSoFar(dap: DapClient): OutputSoFar {
  const events = dap.events.filter((e) => e.event === OUTPUT_EVENT);
  return events[events.length - 1].body as OutputSoFar;
}

async function topFrame(dap: DapClient): Promise<DebugProtocol.StackFrame[]> {
  const st = await dap.request<DebugProtocol.StackTraceResponse>("stackTrace", { threadId: 1 });
  assert.ok(st.success, st.message);
  return st.body.stackFrames;
}

async function variables(dap: DapClient, ref: number): Promise<Map<string, DebugProtocol.Variable>> {
  const r = await dap.request<DebugProtocol.VariablesResponse>("variables", { variablesReference: ref });
  assert.ok(r.success, r.message);
  return new Map(r.body.variables.map((v) => [v.name, v]));
}

async function evaluate(dap: DapClient, expression: string, frameId = 0): Promise<DebugProtocol.EvaluateResponse> {
  return dap.request<DebugProtocol.EvaluateResponse>("evaluate", { expression, frameId, context: "watch" });
}

describe("chat-template debugger (Debug Adapter Protocol)", () => {
  it("stops at a breakpoint, shows the scopes, evaluates, steps into a macro and out, and ends with render's output", async () => {
    const { dap, breakpoints } = await start({ template: TEMPLATE, scenario: "basic", engine: "jinja2" }, [{ line: 7 }]);
    assert.deepEqual(
      breakpoints.map((b) => [b.verified, b.line]),
      [[true, 7]],
    );
    const stop = await dap.waitFor<Stopped>("stopped");
    assert.equal(stop.body.reason, "breakpoint");
    // the editor's growing output document: the output so far, and what was written since the last stop
    assert.deepEqual(lastOutputSoFar(dap), { output: "<|bos|>", written: [0, 7] });
    let frames = await topFrame(dap);
    assert.deepEqual(
      frames.map((f) => [f.name, f.line]),
      [["template", 7]],
    );
    const scopes = await dap.request<DebugProtocol.ScopesResponse>("scopes", { frameId: frames[0].id });
    const byName = new Map(scopes.body.scopes.map((s) => [s.name, s.variablesReference]));
    assert.deepEqual([...byName.keys()], ["Locals", "Template context", "Output so far"]);
    const locals = await variables(dap, byName.get("Locals")!);
    const message = locals.get("message")!;
    assert.equal(message.type, "dict");
    const fields = await variables(dap, message.variablesReference);
    assert.equal(fields.get("role")!.value, "'system'");
    const loop = await variables(dap, locals.get("loop")!.variablesReference);
    assert.equal(loop.get("index")!.value, "1");
    const context = await variables(dap, byName.get("Template context")!);
    assert.equal(context.get("add_generation_prompt")!.value, "True");
    assert.equal(context.get("messages")!.type, "list");
    const output = await variables(dap, byName.get("Output so far")!);
    assert.equal(output.get("rendered")!.value, "'<|bos|>'");

    const e = await evaluate(dap, "message.role ~ '!'");
    assert.equal(e.body.result, "'system!'");
    const bad = await evaluate(dap, "message.role +");
    assert.equal(bad.success, false);

    // step into the macro: its first statement, with the call stack and the argument
    await dap.request("stepIn", { threadId: 1 });
    assert.equal((await dap.waitFor<Stopped>("stopped")).body.reason, "step");
    frames = await topFrame(dap);
    assert.deepEqual(
      frames.map((f) => [f.name, f.line]),
      [
        ["turn", 2],
        ["template", 7],
      ],
    );
    const macroScopes = await dap.request<DebugProtocol.ScopesResponse>("scopes", { frameId: frames[0].id });
    assert.equal(macroScopes.body.scopes[0].name, "Macro arguments");
    const args = await variables(dap, macroScopes.body.scopes[0].variablesReference);
    assert.ok(args.has("m"));
    assert.equal((await evaluate(dap, "m.content")).body.result, "'You are a helpful assistant.'");
    // the caller's frame evaluates in its own scope
    assert.equal((await evaluate(dap, "loop.index", frames[1].id)).body.result, "1");

    // next stays in the macro, stepOut returns to the template (the next iteration's call)
    await dap.request("next", { threadId: 1 });
    await dap.waitFor<Stopped>("stopped");
    assert.deepEqual(
      (await topFrame(dap)).map((f) => [f.name, f.line]),
      [
        ["turn", 3],
        ["template", 7],
      ],
    );
    await dap.request("stepOut", { threadId: 1 });
    assert.equal((await dap.waitFor<Stopped>("stopped")).body.reason, "breakpoint");
    assert.equal((await evaluate(dap, "message.role")).body.result, "'user'");

    await dap.request("continue", { threadId: 1 });
    await dap.waitFor("terminated");
    const rendered = runCli(["render", TEMPLATE, "--scenario", "basic", "--engine", "jinja2"]);
    assert.equal(rendered.status, 0, rendered.stderr);
    assert.equal(dap.output("stdout"), rendered.stdout);
    assert.equal(lastOutputSoFar(dap).output, rendered.stdout);
  });

  it("conditional breakpoints, hit counts and logpoints are Jinja in the chosen engine", async () => {
    const { dap } = await start({ template: TEMPLATE, scenario: "multi-turn", engine: "hfjinja" }, [
      { line: 2, logMessage: "role={m.role}" },
      { line: 7, condition: "message.role == 'user'", hitCondition: "2" },
    ]);
    await dap.waitFor<Stopped>("stopped");
    // the second user message, shown as @huggingface/jinja shows a string (in a list: JSON-quoted)
    const frames = await topFrame(dap);
    assert.equal(frames[0].line, 7);
    assert.equal((await evaluate(dap, "message.content")).body.result, '"And of Italy?"');
    assert.equal((await evaluate(dap, "loop.index")).body.result, "4");
    await dap.request("continue", { threadId: 1 });
    await dap.waitFor("terminated");
    assert.equal(dap.output("console"), "role=system\nrole=user\nrole=assistant\nrole=user\n");
    const rendered = runCli(["render", TEMPLATE, "--scenario", "multi-turn", "--engine", "hfjinja"]);
    assert.equal(dap.output("stdout"), rendered.stdout);
  });

  it("debugs every engine: a stop inside the macro, its argument as the engine prints it, render's output at the end", async () => {
    for (const engine of ENGINE_IDS) {
      const { dap } = await start({ template: TEMPLATE, scenario: "basic", engine }, [{ line: 3 }]);
      assert.equal((await dap.waitFor<Stopped>("stopped")).body.reason, "breakpoint", engine);
      assert.deepEqual(
        (await topFrame(dap)).map((f) => f.name),
        ["turn", "template"],
        engine,
      );
      const role = (await evaluate(dap, "m.role")).body.result;
      assert.ok(["'system'", '"system"', "system"].includes(role), `${engine}: ${role}`);
      await dap.request("setBreakpoints", { source: { path: TEMPLATE }, breakpoints: [] });
      await dap.request("continue", { threadId: 1 });
      await dap.waitFor("terminated");
      const rendered = runCli(["render", TEMPLATE, "--scenario", "basic", "--engine", engine]);
      assert.equal(dap.output("stdout"), rendered.stdout, engine);
    }
  });

  it("binds a breakpoint on a line without a statement to the next one, and refuses one past the last", async () => {
    const { dap, breakpoints } = await start({ template: TEMPLATE, scenario: "basic" }, [{ line: 4 }, { line: 50 }]);
    assert.deepEqual(
      breakpoints.map((b) => [b.verified, b.line]),
      [
        [true, 5],
        [false, 50],
      ],
    );
    await dap.waitFor<Stopped>("stopped");
    assert.equal((await topFrame(dap))[0].line, 5);
    await dap.request("disconnect", {});
  });

  it("stopOnEntry stops at the first statement; an exception breakpoint stops where the engine throws", async () => {
    const failing = file("fails.jinja", "{% set x = 1 %}\n{{ messages[0].content }}\n{{ x / 0 }}\n");
    const session = new ChatTemplateDebugSession();
    const dap = DapClient.inProcess(session);
    await dap.request("initialize", { adapterID: "chat-template", pathFormat: "path" });
    await dap.request("launch", { template: failing, stopOnEntry: true });
    await dap.waitFor("initialized");
    await dap.request("setExceptionBreakpoints", { filters: ["error"] });
    await dap.request("configurationDone");
    assert.equal((await dap.waitFor<Stopped>("stopped")).body.reason, "entry");
    assert.equal((await topFrame(dap))[0].line, 1);
    await dap.request("continue", { threadId: 1 });
    const thrown = await dap.waitFor<Stopped>("stopped");
    assert.equal(thrown.body.reason, "exception");
    assert.match(thrown.body.text ?? "", /division by zero/);
    assert.equal((await topFrame(dap))[0].line, 3);
    assert.equal((await evaluate(dap, "x")).body.result, "1");
    await dap.request("continue", { threadId: 1 });
    const exited = await dap.waitFor<DebugProtocol.ExitedEvent>("exited");
    assert.equal(exited.body.exitCode, 1);
    assert.match(dap.output("stderr"), /fails\.jinja:3:\d+: .*division by zero/);
  });

  it("the 'differs from Jinja2' exception breakpoint stops where this engine's output first differs", async () => {
    const none = file("none.jinja", "{%- set x = none -%}\n[{{ x }}]\n{{ 'end' }}");
    for (const engine of ["llamacpp", "jinja2"]) {
      const session = new ChatTemplateDebugSession();
      const dap = DapClient.inProcess(session);
      await dap.request("initialize", { adapterID: "chat-template", pathFormat: "path" });
      await dap.request("launch", { template: none, engine });
      await dap.waitFor("initialized");
      await dap.request("setExceptionBreakpoints", { filters: ["diverges"] });
      await dap.request("configurationDone");
      if (engine === "jinja2") {
        await dap.waitFor("terminated");
        assert.equal(dap.events.filter((e) => e.event === "stopped").length, 0);
        continue;
      }
      const stop = await dap.waitFor<Stopped>("stopped");
      assert.equal(stop.body.reason, "exception");
      // llama.cpp prints none as nothing, Jinja2 as None
      assert.match(stop.body.text ?? "", /differs from Jinja2's at character 1: this engine wrote "\]\\n", Jinja2 "None\]/);
      assert.equal((await topFrame(dap))[0].line, 2);
      await dap.request("continue", { threadId: 1 });
      assert.equal((await dap.waitFor<DebugProtocol.ExitedEvent>("exited")).body.exitCode, 0);
    }
  });

  it("a runaway template stops at the step limit with a clear message, and can be paused before", async () => {
    const runaway = file(
      "runaway.jinja",
      "{% for i in range(100000) %}{% for j in range(100000) %}{% set k = j %}{% endfor %}{% endfor %}",
    );
    const { dap } = await start({ template: runaway });
    await dap.request("pause", { threadId: 1 });
    assert.equal((await dap.waitFor<Stopped>("stopped")).body.reason, "pause");
    assert.equal((await topFrame(dap))[0].line, 1);
    await dap.request("continue", { threadId: 1 });
    await dap.waitFor("terminated");
    assert.match(dap.output("stderr"), /step budget of \d+ exceeded|render time limit/);
  });

  it("refuses a launch with a clear error: no template, an unknown engine or scenario", async () => {
    for (const [launch, why] of [
      [{}, /names no template/],
      [{ template: TEMPLATE, engine: "jinja3" }, /unknown engine 'jinja3'/],
      [{ template: TEMPLATE, scenario: "nope" }, /no scenario 'nope'/],
    ] as const) {
      const { launched } = await start(launch);
      assert.equal(launched.success, false);
      assert.match(launched.message ?? "", why);
    }
  });
});
