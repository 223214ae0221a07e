import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Fact } from "../../../server/src/languageFacts/fact";
import { factDoc } from "../../../server/src/services/describe";
import { doComplete } from "../../../server/src/services/completion";
import { doHover } from "../../../server/src/services/hover";
import { atCursor, textOf } from "../../helpers/cursor";

function hover(src: string): { contents: string; word: string } | null {
  const { doc, offset } = atCursor(src);
  const h = doHover(doc, offset);
  return h && { contents: h.contents, word: textOf(doc, h.span) };
}

describe("hover", () => {
  it("documents filters, tests and globals with their signatures", () => {
    const f = hover("{{ x | def‸ault('a') }}")!;
    assert.equal(f.word, "default");
    assert.match(f.contents, /\(filter\) default\(default_value='', boolean=false\)/);
    const tojson = hover("{{ tools | to‸json }}")!;
    assert.match(tojson.contents, /HF transformers/);
    assert.match(hover("{% if x is not defi‸ned %}{% endif %}")!.contents, /\(test\) defined/);
    assert.match(hover("{{ raise_exc‸eption('no') }}")!.contents, /\(function\) raise_exception\(message\)/);
    assert.match(hover("{{ strftime_n‸ow('%Y') }}")!.contents, /strftime/);
    assert.match(hover("{% set ns = names‸pace(a=1) %}")!.contents, /\(function\) namespace/);
  });

  it("shows the engines' facts (dialects/*/facts.ts) on the filter, test or method they name", () => {
    const batch = hover("{{ xs | bat‸ch(2) }}")!.contents;
    assert.match(batch, /\*\*minja[^*]*\*\*: throws — minja has no 'batch' filter/);
    assert.doesNotMatch(hover("{{ x | def‸ault('a') }}")!.contents, /has no 'default' filter/);
    const items = doComplete(atCursor("{{ xs | ‸ }}").doc, atCursor("{{ xs | ‸ }}").offset);
    assert.match(String(items.find((i) => i.label === "batch")?.documentation), /minja has no 'batch' filter/);
  });

  it("documents the chat-template context with its type", () => {
    assert.match(hover("{% for m in mess‸ages %}{% endfor %}")!.contents, /\(context\) messages: list\[Message\]/);
    assert.match(hover("{{ add_generation_pro‸mpt }}")!.contents, /assistant turn/);
    assert.match(hover("{{ enable_thi‸nking }}")!.contents, /\(context\) enable_thinking: bool/);
    for (const name of ["bos_token", "eos_token", "reasoning_effort", "documents", "tools"]) assert.ok(hover(`{{ ${name}‸ }}`), name);
  });

  it("documents message fields, tool-call fields and loop attributes", () => {
    const role = hover("{% for m in messages %}{{ m.ro‸le }}{% endfor %}")!;
    assert.equal(role.word, "role");
    assert.match(role.contents, /\(field\) role: str/);
    assert.match(hover("{% for m in messages %}{{ m.reasoning_con‸tent }}{% endfor %}")!.contents, /reasoning/);
    const args = hover("{% for m in messages %}{% for tc in m.tool_calls %}{{ tc.function.argu‸ments }}{% endfor %}{% endfor %}")!;
    assert.match(args.contents, /\(field\) arguments: dict \| str/);
    assert.match(hover("{% for x in xs %}{{ loop.ind‸ex0 }}{% endfor %}")!.contents, /counting from 0/);
    assert.match(hover("{% for x in xs %}{{ lo‸op }}{% endfor %}")!.contents, /\(loop\) loop: LoopContext/);
    assert.match(hover("{% for m in messages %}{{ m.content.stri‸p() }}{% endfor %}")!.contents, /\(method\) strip/);
    assert.equal(hover("{{ lo‸op }}"), null, "no loop outside a for body");
  });

  it("describes the template's macros, variables, loop variables and parameters", () => {
    const call = hover("{% macro render(item, sep=', ') %}{% endmacro %}\n{{ ren‸der(1) }}")!;
    assert.match(call.contents, /\(macro\) render\(item, sep=', '\)/);
    assert.match(call.contents, /line 1/);
    assert.match(hover("{% macro re‸nder(item) %}{% endmacro %}")!.contents, /\(macro\) render\(item\)/);
    assert.match(hover("{% macro render(it‸em) %}{{ item }}{% endmacro %}")!.contents, /\(parameter\) item/);
    assert.match(hover("{% macro render(item) %}{{ ite‸m }}{% endmacro %}")!.contents, /\(parameter\) item/);
    assert.match(hover("{% set first = messages[0] %}{{ fir‸st }}")!.contents, /\(variable\) first: Message/);
    assert.match(hover("{% for mess‸age in messages %}{% endfor %}")!.contents, /\(loop variable\) message: Message/);
    assert.match(hover("{% set ns = namespace(found=false, n=0) %}{{ n‸s }}")!.contents, /\(namespace\) ns: namespace\(found, n\)/);
    assert.match(hover("{% set x %}block{% endset %}{{ ‸x }}")!.contents, /\(variable\) x/);
  });

  it("documents tag names and keywords", () => {
    assert.match(hover("{% f‸or x in y %}{% endfor %}")!.contents, /\{% for target in iterable/);
    assert.match(hover("{% for x in y %}{% endf‸or %}")!.contents, /Closes `\{% for %\}`/);
    assert.match(hover("{% gene‸ration %}{% endgeneration %}")!.contents, /HF transformers/);
    assert.match(hover("{{ a an‸d b }}")!.contents, /\(keyword\) and/);
    assert.match(hover("{{ x i‸s defined }}")!.contents, /\(keyword\) is/);
    assert.match(hover("{{ Tr‸ue }}")!.contents, /\(keyword\) True/);
  });

  it("says nothing about unknown names, text or punctuation", () => {
    assert.equal(hover("{{ mystery‸ }}"), null);
    assert.equal(hover("hel‸lo"), null);
    assert.equal(hover("{{ x | no_such_fil‸ter }}"), null);
  });

  it("shows how engines depart from Jinja2 when a fact records it", () => {
    const fact: Fact = {
      name: "f",
      doc: "Does f.",
      engines: { minja: { support: "unsupported", note: "throws 'unknown filter'" }, hfjinja: { support: "differs", note: "sorts keys" } },
    };
    assert.equal(
      factDoc(fact),
      "Does f.\n\n**minja**: not supported — throws 'unknown filter'\n\n**@huggingface/jinja**: differs — sorts keys",
    );
  });
});
