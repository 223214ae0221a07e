import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { getSignatureHelp } from "../../../server/src/services/signatureHelp";
import { atCursor } from "../../helpers/cursor";

/** [the active signature's label, the active parameter's text or null], or null when none is shown. */
function help(src: string): [string, string | null] | null {
  const { doc, offset } = atCursor(src);
  const h = getSignatureHelp(doc, offset);
  if (!h) return null;
  const s = h.signatures[h.activeSignature];
  return [s.label, h.activeParameter < 0 ? null : s.label.slice(...s.parameters[h.activeParameter].label)];
}

const MACRO = "{% macro render(role, content, prefix='<|', sep=none) %}{{ prefix }}{% endmacro %}";

describe("signature help", () => {
  it("a macro call being typed: the macro's parameters with their defaults, the one under the cursor active", () => {
    assert.deepEqual(help(`${MACRO}{{ render(‸`), ["render(role, content, prefix='<|', sep=none)", "role"]);
    assert.deepEqual(help(`${MACRO}{{ render('user', m.content‸`), ["render(role, content, prefix='<|', sep=none)", "content"]);
    assert.deepEqual(help(`${MACRO}{{ render('user', f(1, 2), ‸) }}`)![1], "prefix='<|'");
    assert.deepEqual(help(`${MACRO}{{ render('user', sep=‸) }}`)![1], "sep=none", "a keyword argument names its parameter");
    assert.deepEqual(help(`${MACRO}{{ render(1, 2, 3, 4, ‸) }}`)![1], null, "an argument past the last parameter");
  });

  it("the innermost open call wins; a closed call and text outside tags show nothing", () => {
    assert.deepEqual(help(`${MACRO}{{ render(range(‸`)![0], "range([start,] stop[, step])");
    assert.deepEqual(help(`${MACRO}{{ render(range(3), ‸`)![1], "content");
    assert.equal(help(`${MACRO}{{ render(1) ‸}}`), null);
    assert.equal(help(`${MACRO}{{ render(1) }} (‸`), null);
    assert.equal(help("{{ unknown(‸"), null);
    assert.equal(help("{% macro m(‸"), null, "a macro's own parameter list is not a call");
  });

  it("globals: raise_exception, namespace, cycler, range, strftime_now", () => {
    assert.deepEqual(help("{{ raise_exception(‸"), ["raise_exception(message)", "message"]);
    assert.deepEqual(help("{% set ns = namespace(found=‸"), ["namespace(**attrs)", "**attrs"]);
    assert.deepEqual(help("{% set c = cycler('a', 'b', ‸"), ["cycler(*items)", "*items"]);
    assert.deepEqual(help("{% for i in range(1, ‸"), ["range([start,] stop[, step])", "stop"]);
    assert.deepEqual(help("{{ strftime_now(‸"), ["strftime_now(format)", "format"]);
  });

  it("filters and tests: the arguments after the value, by position or keyword", () => {
    assert.deepEqual(help("{{ x | default('', ‸"), ["default(default_value='', boolean=false)", "boolean=false"]);
    assert.deepEqual(help("{{ x | default(boolean=‸"), ["default(default_value='', boolean=false)", "boolean=false"]);
    assert.deepEqual(help("{{ tools | map(attribute=‸"), ["map(attribute=name, default=none)", "attribute=name"]);
    assert.deepEqual(help("{% if n is divisibleby(‸"), ["divisibleby(num)", "num"]);
    assert.deepEqual(help("{% if n is not divisibleby(‸"), ["divisibleby(num)", "num"]);
  });

  it("per-engine notes from the facts tables in the documentation: a filter llama.cpp lacks", () => {
    const { doc, offset } = atCursor("{{ x | truncate(‸");
    const documentation = getSignatureHelp(doc, offset)!.signatures[0].documentation;
    assert.match(documentation, /^Cuts the string/);
    assert.match(documentation, /\*\*llama\.cpp\*\*: throws — llama\.cpp has no 'truncate' filter/);
    assert.match(documentation, /\*\*minja\*\*: throws/);
  });

  it("caller() inside a macro: the parameters of the {% call %} blocks that call it", () => {
    const src =
      "{% macro list(items) %}{% for i in items %}{{ caller(i, ‸) }}{% endfor %}{% endmacro %}{% call(item, last) list(xs) %}{{ item }}{% endcall %}";
    assert.deepEqual(help(src), ["caller(item, last)", "last"]);
    assert.deepEqual(help("{% macro m() %}{{ caller(‸) }}{% endmacro %}"), ["caller(*args)", "*args"]);
  });
});
