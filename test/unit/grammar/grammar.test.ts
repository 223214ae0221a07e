// The TextMate grammar, tokenised by the same engine VS Code uses (vscode-textmate + the
// Oniguruma WASM build), asserting the scopes of a few lines.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { before, describe, it } from "node:test";
import * as oniguruma from "vscode-oniguruma";
import { INITIAL, parseRawGrammar, Registry, type IGrammar } from "vscode-textmate";

const GRAMMAR = resolve(__dirname, "../../../syntaxes/chat-template.tmLanguage.json");
let grammar: IGrammar;

before(async () => {
  await oniguruma.loadWASM(readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer as ArrayBuffer);
  const registry = new Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) => (scope === "source.chat-template" ? parseRawGrammar(readFileSync(GRAMMAR, "utf8"), GRAMMAR) : null),
  });
  grammar = (await registry.loadGrammar("source.chat-template"))!;
});

/** Tokenises `text` (several lines allowed) into [token text, innermost scope] pairs, whitespace-only tokens dropped. */
function tokens(text: string): [string, string][] {
  let stack = INITIAL;
  const out: [string, string][] = [];
  for (const line of text.split("\n")) {
    const r = grammar.tokenizeLine(line, stack);
    for (const t of r.tokens) {
      const s = line.slice(t.startIndex, t.endIndex);
      if (s.trim()) out.push([s, t.scopes[t.scopes.length - 1].replace(/\.chat-template$/, "")]);
    }
    stack = r.ruleStack;
  }
  return out;
}

/** The innermost scope of the token that is exactly `word` (the first one). */
function scopeOf(text: string, word: string): string {
  const t = tokens(text).find(([s]) => s === word);
  assert.ok(t, `a token ${JSON.stringify(word)} in ${JSON.stringify(text)}: ${JSON.stringify(tokens(text))}`);
  return t[1];
}

const SPECIAL = "constant.character.special-token";

describe("TextMate grammar", () => {
  it("scopes statement tags: delimiters with whitespace control, keywords, names", () => {
    assert.deepEqual(tokens("{%- for message in messages if message.role -%}"), [
      ["{%-", "punctuation.definition.tag.begin"],
      ["for", "keyword.control"],
      ["message", "variable.other"],
      ["in", "keyword.operator.word"],
      ["messages", "variable.other.context"],
      ["if", "keyword.operator.word"],
      ["message", "variable.other"],
      [".", "punctuation.accessor"],
      ["role", "variable.other.property"],
      ["-%}", "punctuation.definition.tag.end"],
    ]);
    assert.equal(scopeOf("{%+ endfor %}", "endfor"), "keyword.control");
    assert.equal(scopeOf("{% generation %}", "generation"), "keyword.control");
    assert.equal(scopeOf("{% frobnicate %}", "frobnicate"), "invalid.illegal.unknown-tag");
  });

  it("scopes filters, tests, globals, constants, numbers and strings inside expressions", () => {
    const line = "{{ x | tojson(indent=2) if x is not none else raise_exception('bad') ~ 1_000 + 1.5e3 + 0x1F }}";
    assert.equal(scopeOf(line, "|"), "keyword.operator.filter");
    assert.equal(scopeOf(line, "tojson"), "support.function.filter");
    assert.equal(scopeOf(line, "none"), "support.function.test");
    assert.equal(scopeOf(line, "not"), "keyword.operator.word");
    assert.equal(scopeOf(line, "raise_exception"), "support.function.global");
    assert.equal(scopeOf(line, "1_000"), "constant.numeric.integer");
    assert.equal(scopeOf(line, "1.5e3"), "constant.numeric.float");
    assert.equal(scopeOf(line, "0x1F"), "constant.numeric.integer");
    assert.equal(scopeOf(line, "bad"), "string.quoted.single");
    assert.equal(scopeOf("{{ True }}", "True"), "constant.language");
    assert.equal(scopeOf("{% set ns = namespace(found=false) %}", "namespace"), "support.function.global");
    assert.equal(scopeOf("{% for x in y %}{{ loop.index }}{% endfor %}", "loop"), "variable.language");
  });

  it("ends a tag at its delimiter, not at braces of a dict literal or inside a string", () => {
    for (const line of ["{{ {'a': {'b': 1}} }}after", "{{ '}}' ~ x }}after"]) {
      const t = tokens(line);
      assert.deepEqual(t[t.length - 2], ["}}", "punctuation.definition.tag.end"], line);
      assert.deepEqual(t[t.length - 1], ["after", "source"], line);
    }
  });

  it("scopes comments over several lines and raw blocks as literal text", () => {
    assert.deepEqual(tokens("{#- a\nnote {{ x }} -#}"), [
      ["{#-", "punctuation.definition.comment.begin"],
      [" a", "comment.block"],
      ["note {{ x }} ", "comment.block"],
      ["-#}", "punctuation.definition.comment.end"],
    ]);
    assert.equal(scopeOf("{% raw %}{{ not a tag }}{% endraw %}", "{{ not a tag }}"), "string.unquoted.raw");
  });

  it("highlights the special tokens of template text", () => {
    for (const tok of [
      "<|im_start|>",
      "<|start_header_id|>",
      "<|tool_call:begin|>",
      "<|turn>",
      "<channel|>",
      "<｜begin▁of▁sentence｜>",
      "<｜User｜>",
      "<tool_call>",
      "</tool_call>",
      "<think>",
      "</think>",
      "<function=get_weather>",
      "<parameter=city>",
      "[INST]",
      "[/INST]",
      "[TOOL_CALLS]",
      "[/AVAILABLE_TOOLS]",
      "[IMG]",
      "<s>",
      "</s>",
      "<start_of_turn>",
      "<end_of_turn>",
    ]) {
      assert.equal(scopeOf(`text ${tok}user`, tok), SPECIAL, tok);
    }
    assert.equal(scopeOf("a <b>bold</b>", "a <b>bold</b>"), "source", "plain markup is not a special token");
  });

  it("highlights special tokens inside string literals, next to escapes", () => {
    const line = "{{ '<|im_start|>' + message.role + '\\n' + \"<｜Assistant｜>\" ~ '[INST]' }}";
    assert.equal(scopeOf(line, "<|im_start|>"), SPECIAL);
    assert.equal(scopeOf(line, "<｜Assistant｜>"), SPECIAL);
    assert.equal(scopeOf(line, "[INST]"), SPECIAL);
    assert.equal(scopeOf(line, "\\n"), "constant.character.escape");
  });
});
