// The preview's host side driven through a fake webview transport, with the real engines: our dialects,
// Python's jinja2 and llama.cpp's addon (each skipped where it cannot run).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { ModelBinding } from "../../../client/src/gguf/modelBinding";
import { PreviewController, type PreviewHost, type RenderedColumn } from "../../../client/src/preview/controller";
import { dialectEngines, type PreviewEngine } from "../../../client/src/preview/engines/engine";
import { realJinja2Engine } from "../../../client/src/preview/engines/realJinja2";
import { realLlamaCppEngine } from "../../../client/src/preview/engines/realLlamaCpp";
import { builtinScenarios, workspaceScenario } from "../../../client/src/preview/model/scenarios";
import type { EngineView, HostMessage, PreviewState, PreviewUpdate } from "../../../client/src/preview/protocol";
import { corpusDir } from "../../helpers/corpus";
import { hasPythonJinja2 } from "../../helpers/python";

const root = join(__dirname, "../../..");
const BUILTIN = builtinScenarios(readFileSync(join(root, "templates/scenarios.json"), "utf8"));
const NOW = { year: 2026, month: 1, day: 15, hour: 9, minute: 30, second: 0, microsecond: 0 };
const WORKER = ["--import", "tsx", join(root, "client/src/preview/engines/llamacppWorker.ts")];
const noPython = !hasPythonJinja2() && "python3 with jinja2 is not installed";

interface Harness {
  controller: PreviewController;
  posted: HostMessage[];
  calls: {
    reveal: [string, number, number][];
    copy: string[];
    diff: [RenderedColumn, RenderedColumn[]][];
    save: [string, string][];
    log: string[];
  };
  send(raw: unknown): void;
  /** The latest update once `ready` says it is complete. */
  update(ready?: (u: PreviewUpdate) => boolean): Promise<PreviewUpdate>;
  state(): PreviewState;
  engine(u: PreviewUpdate, id: string): EngineView;
}

const live: PreviewController[] = [];
after(() => live.forEach((c) => c.dispose()));

function harness(engines: PreviewEngine[] = dialectEngines(), scenarios = BUILTIN, debounceMs = 10): Harness {
  const posted: HostMessage[] = [];
  let listener: (raw: unknown) => void = () => {};
  const calls: Harness["calls"] = { reveal: [], copy: [], diff: [], save: [], log: [] };
  const host: PreviewHost = {
    reveal: (...a) => calls.reveal.push(a),
    copy: (t) => calls.copy.push(t),
    diff: (...a) => calls.diff.push(a),
    saveScenario: (...a) => calls.save.push(a),
    log: (m) => calls.log.push(m),
  };
  const transport = {
    post: (m: HostMessage) => posted.push(m),
    onMessage: (l: (raw: unknown) => void) => ((listener = l), { dispose: () => {} }),
  };
  const controller = new PreviewController({ transport, host, engines, scenarios, debounceMs, clock: () => NOW });
  live.push(controller);
  const latest = <T extends HostMessage["type"]>(type: T) =>
    posted.filter((m) => m.type === type).at(-1) as Extract<HostMessage, { type: T }> | undefined;
  return {
    controller,
    posted,
    calls,
    send: (raw) => listener(raw),
    async update(ready = (u) => u.engines.every((e) => e.status !== "pending")) {
      // until the update comes, however long a loaded machine takes (the hang guard bounds a missing one)
      for (;;) {
        const u = latest("update")?.update;
        if (u && ready(u)) return u;
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    state: () => latest("state")!.state,
    engine: (u, id) => u.engines.find((e) => e.id === id)!,
  };
}

const show = (h: Harness, text: string, model: ModelBinding | null = null) =>
  h.controller.showTemplate({ uri: "file:///t.jinja", name: "t.jinja", text, model });

describe("preview controller", () => {
  it("renders the chosen scenario with every engine; the reference matches the corpus byte for byte", async () => {
    const h = harness();
    const tpl = readFileSync(corpusDir("templates", "Qwen-Qwen2.5-7B-Instruct.jinja"), "utf8");
    show(h, tpl);
    const s = h.state();
    assert.equal(s.scenario, "built-in:basic");
    assert.deepEqual(
      s.engines.map((e) => e.id),
      dialectEngines().map((e) => e.id),
    );
    assert.equal(s.engines[0].reference, true);
    const u = await h.update();
    const ref = h.engine(u, "jinja2");
    assert.equal(ref.status, "ok");
    assert.equal(ref.output, readFileSync(corpusDir("expected", "jinja2", "Qwen-Qwen2.5-7B-Instruct", "basic.out"), "utf8"));
    assert.equal(ref.diffs, null, "the reference is not compared with itself");
    assert.ok(ref.specials.some((r) => ref.output.slice(r.start, r.end) === "<|im_start|>"));
  });

  it("answers 'ready' (a reloaded webview) with the state and the latest render", async () => {
    const h = harness();
    show(h, "{{ messages[0].content }}");
    await h.update();
    const before = h.posted.length;
    h.send({ type: "ready" });
    assert.deepEqual(
      h.posted.slice(before).map((m) => m.type),
      ["state", "update"],
    );
  });

  it("edits re-render once after the debounce, with the latest text", async () => {
    const h = harness(undefined, undefined, 30);
    show(h, "a");
    const v0 = (await h.update()).version;
    h.controller.editTemplate("file:///t.jinja", "ab");
    h.controller.editTemplate("file:///t.jinja", "abc");
    h.controller.editTemplate("file:///other.jinja", "not this one");
    assert.equal((await h.update()).version, v0, "nothing before the delay");
    const u = await h.update((x) => x.version > v0);
    assert.equal(u.version, v0 + 1);
    assert.equal(h.engine(u, "jinja2").output, "abc");
  });

  it("follows another template: state and render switch to it", async () => {
    const h = harness();
    show(h, "one");
    h.controller.showTemplate({ uri: "file:///two.jinja", name: "two.jinja", text: "two", model: null });
    assert.equal(h.state().template?.name, "two.jinja");
    assert.equal(h.engine(await h.update(), "jinja2").output, "two");
    assert.equal(h.controller.templateUri, "file:///two.jinja");
  });

  it("selecting a scenario re-renders; a broken one is refused with its problem; an unknown one is logged", async () => {
    const bad = workspaceScenario("s/bad.json", "{");
    const mine = workspaceScenario("s/mine.json", '{"messages": [{"role": "user", "content": "from my file"}]}');
    const h = harness(undefined, [mine, bad, ...BUILTIN]);
    show(h, "{{ messages[0].content }}|{{ add_generation_prompt }}");
    assert.equal(h.engine(await h.update(), "jinja2").output, "You are a helpful assistant.|True");
    h.send({ type: "selectScenario", id: "workspace:s/mine.json" });
    assert.equal(h.state().scenario, "workspace:s/mine.json");
    assert.equal(h.engine(await h.update(), "jinja2").output, "from my file|False");
    h.send({ type: "selectScenario", id: "workspace:s/bad.json" });
    assert.deepEqual(h.posted.at(-1), { type: "error", message: bad.problem });
    h.send({ type: "selectScenario", id: "nope" });
    assert.deepEqual(h.calls.log, ["preview: no scenario 'nope'"]);
    assert.equal(h.state().scenario, "workspace:s/mine.json");
  });

  it("keeps the chosen scenario when the list reloads, and falls back to 'basic' when it is gone", async () => {
    const mine = workspaceScenario("s/mine.json", '{"messages": []}');
    const h = harness(undefined, [mine, ...BUILTIN]);
    show(h, "x");
    h.send({ type: "selectScenario", id: mine.id });
    h.controller.setScenarios([workspaceScenario("s/mine.json", '{"messages": [], "v": 2}'), ...BUILTIN]);
    assert.equal(h.state().scenario, mine.id);
    h.controller.setScenarios(BUILTIN);
    assert.equal(h.state().scenario, "built-in:basic");
  });

  it("options change the context: bos/eos, add_generation_prompt, enable_thinking, extra variables", async () => {
    const h = harness();
    show(h, "{{ bos_token }}|{{ eos_token }}|{{ add_generation_prompt }}|{{ enable_thinking }}|{{ x }}");
    const out = async () =>
      h.engine(await h.update((u) => u.version === lastVersion(h) && u.engines.every((e) => e.status !== "pending")), "jinja2").output;
    assert.equal(await out(), "<|bos|>|<|eos|>|True||");
    h.send({ type: "setOption", key: "bosToken", value: "<s>" });
    h.send({ type: "setOption", key: "addGenerationPrompt", value: false });
    h.send({ type: "setOption", key: "enableThinking", value: false });
    h.send({ type: "setOption", key: "extraVariables", value: '{"x": 1.0}' });
    assert.equal(await out(), "<s>|<|eos|>|False|False|1.0");
    h.send({ type: "setOption", key: "extraVariables", value: "{x" });
    const u = await h.update();
    assert.equal(u.contextProblem, "extra variables: Expecting property name enclosed in double quotes at line 1, column 2");
    assert.equal(h.engine(u, "jinja2").output, "<s>|<|eos|>|False|False|");
  });

  it("showing whitespace is the webview's business: no re-render", async () => {
    const h = harness();
    show(h, "x");
    await h.update();
    const before = h.posted.length;
    h.send({ type: "setOption", key: "showWhitespace", value: true });
    assert.equal(h.posted.length, before);
    h.send({ type: "ready" });
    assert.equal(h.state().options.showWhitespace, true, "but it is remembered for a reloaded webview");
  });

  it("a hidden engine is neither rendered nor sent", async () => {
    const h = harness();
    show(h, "x");
    h.send({ type: "showEngine", engine: "jinja2", visible: false });
    assert.equal(h.state().engines.find((e) => e.id === "jinja2")?.visible, false);
    assert.equal(
      (await h.update()).engines.some((e) => e.id === "jinja2"),
      false,
    );
    h.send({ type: "showEngine", engine: "jinja2", visible: true });
    assert.equal(h.engine(await h.update(), "jinja2").output, "x");
  });

  it("a click in the output reveals the template range that wrote it", async () => {
    const h = harness();
    const text = "{% for m in messages %}<{{ m.role }}>{% endfor %}";
    show(h, text);
    const out = h.engine(await h.update(), "jinja2").output;
    assert.equal(out, "<system><user>");
    h.send({ type: "reveal", engine: "jinja2", offset: out.indexOf("user") + 1 });
    const [uri, start, end] = h.calls.reveal[0];
    assert.equal(uri, "file:///t.jinja");
    assert.equal(text.slice(start, end), "{{ m.role }}");
  });

  it("an error reveals its place; copy sends the exact output; new scenario sends the current one as JSON", async () => {
    const h = harness();
    const text = "ok {{ messages[0].content }}\n{{ 1 + 'a' }}";
    show(h, text);
    const e = h.engine(await h.update(), "jinja2");
    assert.equal(e.status, "error");
    assert.deepEqual({ ...e.error, message: undefined }, { message: undefined, code: "runtime/type", line: 2, column: 4 });
    h.send({ type: "revealError", engine: "jinja2" });
    assert.equal(text.slice(h.calls.reveal[0][1], h.calls.reveal[0][2]), "1 + 'a'");
    h.send({ type: "copy", engine: "jinja2" });
    assert.deepEqual(h.calls.copy, ["ok You are a helpful assistant.\n"]);
    h.send({ type: "diff", engine: "minja" });
    const [mine, others] = h.calls.diff[0];
    assert.deepEqual([mine.id, mine.title], ["minja", "minja dialect"]);
    assert.deepEqual(
      others[0],
      { id: "jinja2", title: "Jinja2", text: "ok You are a helpful assistant.\n" },
      "the reference is offered first",
    );
    h.send({ type: "setOption", key: "enableThinking", value: true });
    h.send({ type: "newScenario" });
    const [name, json] = h.calls.save[0];
    assert.equal(name, "basic-copy");
    assert.deepEqual(JSON.parse(json), {
      ...JSON.parse(readFileSync(join(root, "templates/scenarios.json"), "utf8")).basic,
      enable_thinking: true,
    });
  });

  it("drops malformed messages with the reason and posts nothing", async () => {
    const h = harness();
    show(h, "x");
    await h.update();
    const before = h.posted.length;
    h.send({ type: "reveal", engine: "jinja2", offset: "3" });
    h.send("ready");
    assert.equal(h.posted.length, before);
    assert.deepEqual(h.calls.log, [
      "preview: dropped a message from the webview: reveal: bad or missing 'offset'",
      "preview: dropped a message from the webview: not a message object with a type",
    ]);
  });

  it("an engine that throws shows it in its own column; the others still render", async () => {
    const broken: PreviewEngine = {
      id: "broken",
      label: "Broken",
      real: false,
      note: () => null,
      render: () => {
        throw new Error("bug");
      },
      dispose() {},
    };
    const h = harness([...dialectEngines(), broken]);
    show(h, "x");
    const u = await h.update();
    assert.equal(h.engine(u, "jinja2").output, "x");
    assert.deepEqual(h.engine(u, "broken").error, { message: "internal error in Broken: bug", code: null, line: null, column: null });
  });

  it("token counts: none without a model; the reason when its tokenizer cannot load", async () => {
    const h = harness();
    show(h, "x");
    assert.match(h.engine(await h.update(), "jinja2").tokenNote!, /^token count unavailable: no tokenizer/);
    const model: ModelBinding = {
      label: "m.gguf",
      bosToken: "<B>",
      eosToken: "",
      specialTokens: ["<B>"],
      tokenizer: () => Promise.reject(new Error("vocabulary type 'xyz' is not supported")),
    };
    show(h, "{{ bos_token }}x", model);
    assert.equal(h.state().tokenizer, "m.gguf");
    const u = await h.update((x) => h.engine(x, "jinja2").tokenNote !== "counting tokens…");
    const ref = h.engine(u, "jinja2");
    assert.equal(ref.output, "<B>x", "the model's bos text is used");
    assert.deepEqual(ref.specials, [{ start: 0, end: 3 }], "its vocabulary says what is special");
    assert.equal(ref.tokenNote, "token count unavailable: vocabulary type 'xyz' is not supported");
  });
});

function lastVersion(h: Harness): number {
  return (h.posted.filter((m) => m.type === "update").at(-1) as { update: PreviewUpdate }).update.version;
}

describe("preview controller with the real engines", () => {
  const reals = () => [
    ...dialectEngines(),
    realLlamaCppEngine({ command: process.execPath, args: WORKER, timeoutMs: 20_000 }),
    realJinja2Engine({ python: "python3", timeoutMs: 20_000 }),
  ];

  it("compares real llama.cpp with the reference and marks the difference", async () => {
    const h = harness(reals());
    show(h, "[{{ x }}]");
    h.send({ type: "setOption", key: "extraVariables", value: '{"x": null}' });
    const u = await h.update((x) => x.version === lastVersion(h) && x.engines.every((e) => e.status !== "pending"));
    assert.equal(h.engine(u, "jinja2").output, "[None]");
    const ll = h.engine(u, "real-llamacpp");
    assert.equal(ll.output, "[]");
    assert.deepEqual(ll.diffs, [{ start: 1, end: 1, reference: "None" }]);
    assert.match(ll.note!, /^node-llama-cpp 3\.22\.1/);
    h.send({ type: "reveal", engine: "real-llamacpp", offset: 1 });
    assert.equal(
      "[{{ x }}]".slice(h.calls.reveal[0][1], h.calls.reveal[0][2]),
      "]",
      "no provenance of its own: the reference's, through the alignment",
    );
  });

  it("real Python Jinja2 agrees with the reference on a corpus template", { skip: noPython }, async () => {
    const h = harness(reals());
    show(h, readFileSync(corpusDir("templates", "Qwen-Qwen3-0.6B.jinja"), "utf8"));
    h.send({ type: "selectScenario", id: "built-in:tool-call-roundtrip" });
    const u = await h.update((x) => x.version === lastVersion(h) && x.engines.every((e) => e.status !== "pending"));
    const py = h.engine(u, "real-jinja2");
    assert.equal(py.status, "ok");
    assert.deepEqual(py.diffs, []);
    assert.match(py.note!, /^jinja2 \d/);
  });

  it("a real engine's error names its line, and revealing it selects that line", { skip: noPython }, async () => {
    const h = harness(reals());
    const text = "first\n  {{ raise_exception('bad role') }} tail\nlast";
    show(h, text);
    const u = await h.update();
    const py = h.engine(u, "real-jinja2");
    assert.deepEqual(py.error, { message: "TemplateError: bad role", code: null, line: 2, column: null });
    const ll = h.engine(u, "real-llamacpp");
    assert.equal(ll.error?.message, "Jinja Exception: bad role");
    assert.equal(ll.error?.line, 2);
    h.send({ type: "revealError", engine: "real-jinja2" });
    assert.equal(text.slice(h.calls.reveal[0][1], h.calls.reveal[0][2]), "  {{ raise_exception('bad role') }} tail");
    h.send({ type: "revealError", engine: "real-llamacpp" });
    // llama.cpp places a call's error at its opening parenthesis
    assert.equal(text.slice(h.calls.reveal[1][1], h.calls.reveal[1][2]), "('bad role') }} tail");
  });

  it("only the newest render's results arrive, however fast the edits come", async () => {
    const h = harness(reals(), undefined, 0);
    show(h, "v0");
    for (let i = 1; i <= 5; i++) h.controller.editTemplate("file:///t.jinja", `v${i}`);
    const u = await h.update(
      (x) => x.version === lastVersion(h) && x.engines.every((e) => e.status !== "pending") && h.engine(x, "jinja2").output === "v5",
    );
    assert.equal(h.engine(u, "real-llamacpp").output, "v5");
  });
});
