import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { contentSecurityPolicy, previewPage } from "../../../client/src/preview/page";
import type { EngineInfo, EngineView, PreviewState } from "../../../client/src/preview/protocol";
import {
  engineSection,
  enginesHtml,
  engineToggles,
  optionValue,
  outputHtml,
  scenarioOptions,
  triStateOptions,
} from "../../../client/src/preview/webview/view";
import { DEFAULT_OPTIONS } from "../../../client/src/preview/controller";

const info = (id: string, more: Partial<EngineInfo> = {}): EngineInfo => ({
  id,
  label: id,
  real: false,
  reference: false,
  visible: true,
  ...more,
});
const view = (more: Partial<EngineView>): EngineView => ({
  id: "minja",
  status: "ok",
  output: "",
  error: null,
  note: null,
  diffs: null,
  specials: [],
  tokens: null,
  tokenNote: null,
  tokenView: null,
  ...more,
});

describe("webview markup", () => {
  it("an output is spans carrying their output offsets; special tokens and differences are classed", () => {
    const html = outputHtml(
      view({ output: "<s>a b", specials: [{ start: 0, end: 3 }], diffs: [{ start: 3, end: 4, reference: "None" }] }),
      "Jinja2",
      false,
    );
    assert.equal(
      html,
      '<span class="seg special" data-s="0" data-e="3">&lt;s&gt;</span>' +
        '<span class="seg diff" data-s="3" data-e="4" title="Jinja2 has &quot;None&quot;">a</span>' +
        '<span class="seg ws" data-s="4" data-e="5"> </span>' +
        '<span class="seg" data-s="5" data-e="6">b</span>',
    );
  });

  it("text the reference has and this engine lacks is a marker; inserted text says the reference has nothing", () => {
    const html = outputHtml(
      view({
        output: "ab",
        diffs: [
          { start: 1, end: 1, reference: "\n" },
          { start: 1, end: 2, reference: "" },
        ],
      }),
      "Jinja2",
      false,
    );
    assert.match(html, /<span class="missing" data-s="1" data-e="1" title="Jinja2 has &quot;\\n&quot; here"><\/span>/);
    assert.match(html, /title="Jinja2 has nothing here">b</);
  });

  it("shown whitespace is one glyph per character, each with its own offset", () => {
    const html = outputHtml(view({ output: "a \t\n" }), "Jinja2", true);
    assert.equal(
      html,
      '<span class="seg" data-s="0" data-e="1">a</span>' +
        '<span class="seg ws" data-s="1" data-e="2">·</span><span class="seg ws" data-s="2" data-e="3">→</span><span class="seg ws" data-s="3" data-e="4">↵\n</span>',
    );
  });

  it("escapes everything an engine or a user wrote", () => {
    const html = engineSection(
      info('x"><img>'),
      view({ output: "<script>&", status: "error", error: { message: "<b>", code: 'a"b', line: null, column: null } }),
      "Jinja2",
      false,
    );
    assert.doesNotMatch(html, /<script>|<img>|<b>/);
    assert.match(html, /&lt;script&gt;&amp;/);
  });

  it("a column says how it compares with the reference", () => {
    const badge = (i: EngineInfo, v: EngineView) =>
      /data-badge="([^"]*)"[^>]*>.*?<span class="badge">([^<]*)</.exec(engineSection(i, v, "Jinja2", false))!.slice(1);
    assert.deepEqual(badge(info("jinja2", { reference: true }), view({ output: "x" })), ["reference", "reference"]);
    assert.deepEqual(badge(info("minja"), view({ output: "x", diffs: [] })), ["same", "same as Jinja2"]);
    assert.deepEqual(badge(info("minja"), view({ output: "x", diffs: [{ start: 0, end: 1, reference: "y" }] })), [
      "differs",
      "1 difference",
    ]);
    assert.deepEqual(badge(info("minja"), view({ status: "pending" })), ["pending", "rendering…"]);
    assert.deepEqual(badge(info("real-jinja2", { real: true }), view({ status: "unavailable", note: "python3 was not found" })), [
      "unavailable",
      "unavailable",
    ]);
  });

  it("an error shows the engine's words and a button that jumps to the line it names", () => {
    const html = engineSection(
      info("llamacpp"),
      view({
        status: "error",
        output: "part",
        error: { message: "Unknown filter 'items'", code: "runtime/unknown-filter", line: 3, column: 7 },
      }),
      "Jinja2",
      false,
    );
    assert.match(html, /data-status="error"/);
    assert.match(
      html,
      /<div class="error" data-code="runtime\/unknown-filter"><span class="error-message">Unknown filter &#39;items&#39;<\/span> <button class="link" data-action="reveal-error" data-engine="llamacpp">line 3, column 7<\/button><\/div>/,
    );
    assert.match(html, /<pre class="output" data-engine="llamacpp">/, "the output up to the error is still shown");
    const noPlace = engineSection(
      info("real-llamacpp"),
      view({ status: "error", error: { message: "died", code: null, line: null, column: null } }),
      "Jinja2",
      false,
    );
    assert.doesNotMatch(noPlace, /reveal-error|<pre|data-action="copy"/);
  });

  it("shows the token count, or why there is none", () => {
    assert.match(
      engineSection(info("jinja2"), view({ output: "x", tokens: 42 }), "Jinja2", false),
      /<span class="tokens" data-tokens="42">42 tokens<\/span>/,
    );
    assert.match(
      engineSection(info("jinja2"), view({ output: "x", tokenNote: "token count unavailable: no tokenizer" }), "Jinja2", false),
      /data-tokens="" title="token count unavailable: no tokenizer"/,
    );
  });

  it("the Tokens button shows the output as tokens: ids on hover, specials and flags marked; without a tokenizer, why", () => {
    const tokenView = {
      count: 2,
      cells: [
        { id: 1, text: "<s>", special: true, start: 0, end: 3, flag: "double BOS: x" },
        { id: 7, text: "hi", special: false, start: 3, end: 5, flag: null },
      ],
      problems: ["double BOS: x"],
    };
    const html = engineSection(info("jinja2"), view({ output: "<s>hi", tokens: 2, tokenView }), "Jinja2", false, true);
    assert.match(html, /<div class="token-problem">double BOS: x<\/div><pre class="token-view" data-engine="minja" data-count="2">/);
    assert.match(html, /<span class="tok special flagged" data-id="1" title="token 1: double BOS: x">&lt;s&gt;<\/span>/);
    assert.match(html, /<span class="tok" data-id="7" title="token 7">hi<\/span>/);
    assert.doesNotMatch(html, /<pre class="output"/);
    const none = engineSection(
      info("jinja2"),
      view({ output: "x", tokenNote: "no tokenizer (set chatTemplate.preview.tokenizerModel)" }),
      "Jinja2",
      false,
      true,
    );
    assert.match(none, /<div class="token-note">no tokenizer \(set chatTemplate\.preview\.tokenizerModel\)<\/div>/);
  });

  it("an empty output says so, and still has its copy button", () => {
    const html = engineSection(info("jinja2"), view({ output: "" }), "Jinja2", false);
    assert.match(html, /<span class="empty">\(empty output\)<\/span>/);
    assert.match(html, /data-action="copy" data-engine="jinja2"/);
  });

  const state: PreviewState = {
    template: { name: "t.jinja", uri: "file:///t.jinja" },
    scenarios: [
      { id: "built-in:basic", name: "basic", source: "built-in", file: null, problem: null },
      { id: "workspace:s/mine.json", name: "mine", source: "workspace", file: "s/mine.json", problem: null },
      {
        id: "workspace:s/bad.json",
        name: "bad",
        source: "workspace",
        file: "s/bad.json",
        problem: "s/bad.json: Expecting value at line 1, column 1",
      },
    ],
    scenario: "workspace:s/mine.json",
    options: DEFAULT_OPTIONS,
    defaults: { bosToken: "<|bos|>", eosToken: "<|eos|>", addGenerationPrompt: true, enableThinking: null },
    engines: [
      info("jinja2", { reference: true, label: "Jinja2" }),
      info("minja", { visible: false }),
      info("real-jinja2", { real: true, label: "Python Jinja2" }),
    ],
    tokenizer: null,
  };

  it("the scenario picker groups workspace and built-in scenarios and disables broken ones", () => {
    assert.equal(
      scenarioOptions(state),
      '<optgroup label="Workspace"><option value="workspace:s/mine.json" selected title="s/mine.json">mine</option>' +
        '<option value="workspace:s/bad.json" disabled title="s/bad.json: Expecting value at line 1, column 1">bad (broken)</option></optgroup>' +
        '<optgroup label="Built-in"><option value="built-in:basic">basic</option></optgroup>',
    );
  });

  it("hidden engines get no column but keep their toggle", () => {
    const views = ["jinja2", "minja", "real-jinja2"].map((id) => view({ id, output: "x" }));
    const html = enginesHtml(state, views);
    assert.deepEqual(
      [...html.matchAll(/<section class="engine" id="engine-([^"]+)"/g)].map((m) => m[1]),
      ["jinja2", "real-jinja2"],
    );
    assert.match(engineToggles(state), /data-engine-toggle="minja"> minja dialect/);
    assert.match(engineToggles(state), /data-engine-toggle="real-jinja2" checked> real Python Jinja2/);
  });

  it("tri-state options show what the scenario says; control values become option values", () => {
    assert.equal(
      triStateOptions(null, true),
      '<option value="" selected>scenario (true)</option><option value="true">true</option><option value="false">false</option>',
    );
    assert.match(triStateOptions(false, null), /scenario \(unset\).*<option value="false" selected>/);
    assert.equal(optionValue("addGenerationPrompt", ""), null);
    assert.equal(optionValue("enableThinking", "false"), false);
    assert.equal(optionValue("bosToken", ""), null);
    assert.equal(optionValue("bosToken", "<s>"), "<s>");
    assert.equal(optionValue("extraVariables", ""), "");
    assert.equal(optionValue("showWhitespace", true), true);
  });
});

describe("webview page", () => {
  const page = previewPage({
    cspSource: "https://x.vscode-cdn.net",
    scriptUri: "https://x.vscode-cdn.net/main.js",
    styleUri: "https://x.vscode-cdn.net/preview.css",
    nonce: "N0nce",
  });

  it("has a strict content security policy: nothing by default, the one script by nonce, styles only from the extension", () => {
    assert.equal(contentSecurityPolicy("S", "N"), "default-src 'none'; script-src 'nonce-N'; style-src S; img-src S; font-src S");
    assert.match(
      page,
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-N0nce'; style-src https:\/\/x.vscode-cdn.net;/,
    );
    assert.match(page, /<script nonce="N0nce" src="https:\/\/x.vscode-cdn.net\/main.js"><\/script>/);
  });

  it("has no inline script or style and loads nothing else", () => {
    assert.equal([...page.matchAll(/<script/g)].length, 1);
    assert.doesNotMatch(page, /\sstyle=|<style|\son[a-z]+=/);
    assert.deepEqual(
      [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]),
      ["https://x.vscode-cdn.net/preview.css", "https://x.vscode-cdn.net/main.js"],
    );
  });

  it("has the toolbar controls the script and the e2e tests find by id", () => {
    for (const id of [
      "scenario",
      "new-scenario",
      "bos-token",
      "eos-token",
      "add-generation-prompt",
      "enable-thinking",
      "show-whitespace",
      "extra-variables",
      "engine-toggles",
      "verdict",
      "engines",
      "context-problem",
      "message",
      "tokenizer",
      "template-name",
    ]) {
      assert.match(page, new RegExp(`id="${id}"`), id);
    }
  });

  it("a fresh nonce each time", () => {
    const nonce = (p: string) => /nonce="([^"]+)"/.exec(p)![1];
    const r = { cspSource: "s", scriptUri: "a", styleUri: "b" };
    assert.notEqual(nonce(previewPage(r)), nonce(previewPage(r)));
  });
});
