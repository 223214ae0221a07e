import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { engineTitle, failingFirst, verdict } from "../../../client/src/preview/model/verdict";
import type { EngineInfo, EngineView } from "../../../client/src/preview/protocol";
import { verdictHtml } from "../../../client/src/preview/webview/view";

const info = (id: string, label: string, more: Partial<EngineInfo> = {}): EngineInfo => ({
  id,
  label,
  real: false,
  reference: false,
  visible: true,
  ...more,
});
const ENGINES = [
  info("jinja2", "Jinja2", { reference: true }),
  info("llamacpp", "llama.cpp"),
  info("minja", "minja"),
  info("real-llamacpp", "llama.cpp", { real: true }),
];
const view = (id: string, more: Partial<EngineView> = {}): EngineView => ({
  id,
  status: "ok",
  output: "<s>hi\n",
  error: null,
  note: null,
  diffs: id === "jinja2" ? null : [],
  specials: [],
  tokens: null,
  tokenNote: null,
  tokenView: null,
  ...more,
});
const same = () => ENGINES.map((e) => view(e.id));
const error = (message: string, line: number) => ({ message, code: "runtime/x", line, column: 4 });

describe("the preview's verdict line", () => {
  it("every engine the same: says so with the count", () => {
    assert.deepEqual(verdict(ENGINES, same()), { kind: "same", text: "all 4 engines render the same bytes", engine: null, offset: null });
    const views = same();
    views[3] = view("real-llamacpp", { status: "unavailable", note: "not installed" });
    assert.equal(verdict(ENGINES, views).text, "all 3 engines render the same bytes (1 unavailable)");
  });

  it("an engine that throws comes first, with its line and cause", () => {
    const views = same();
    views[1] = view("llamacpp", { diffs: [{ start: 3, end: 3, reference: "x" }] });
    views[2] = view("minja", { status: "error", error: error("Unknown filter 'items'\nmore", 2) });
    const v = verdict(ENGINES, views);
    assert.deepEqual(v, { kind: "error", text: "minja dialect throws at line 2: Unknown filter 'items'", engine: "minja", offset: null });
    assert.match(verdictHtml(v), /data-action="reveal-error" data-engine="minja">reveal</);
  });

  it("the reference throwing means the template refuses the scenario", () => {
    const views = same();
    views[0] = view("jinja2", { status: "error", error: error("can only concatenate str", 1) });
    assert.equal(verdict(ENGINES, views).text, "Jinja2 throws at line 1: can only concatenate str (the template refuses this scenario)");
  });

  it("a difference names the engine, the output line and both texts", () => {
    const views = same();
    views[3] = view("real-llamacpp", { output: "<s>hi\nNone", diffs: [{ start: 6, end: 10, reference: "" }] });
    views[1] = view("llamacpp", { output: "<s>hi\n\nx", diffs: [{ start: 7, end: 7, reference: "y" }] });
    const v = verdict(ENGINES, views);
    assert.equal(v.text, 'llama.cpp dialect differs from Jinja2 at output line 3: nothing where Jinja2 has "y"; 1 more engine differs');
    assert.equal(v.offset, 7);
    assert.match(verdictHtml(v), /data-action="reveal-output" data-engine="llamacpp" data-offset="7"/);
  });

  it("hidden engines do not count; pending ones wait", () => {
    const hidden = ENGINES.map((e) => (e.id === "minja" ? { ...e, visible: false } : e));
    const views = same();
    views[2] = view("minja", { status: "error", error: error("x", 1) });
    assert.equal(verdict(hidden, views).kind, "same");
    views[1] = view("llamacpp", { status: "pending" });
    assert.equal(verdict(hidden, views).kind, "pending");
  });

  it("our dialect and the real engine have different names", () => {
    assert.equal(engineTitle(ENGINES[1]), "llama.cpp dialect");
    assert.equal(engineTitle(ENGINES[3]), "real llama.cpp");
  });

  it("columns: failing engines first, then differing ones, otherwise in order", () => {
    const views = same();
    views[1] = view("llamacpp", { diffs: [{ start: 0, end: 1, reference: "" }] });
    views[3] = view("real-llamacpp", { status: "error", error: error("x", 1) });
    assert.deepEqual(
      failingFirst(views).map((v) => v.id),
      ["real-llamacpp", "llamacpp", "jinja2", "minja"],
    );
  });
});
