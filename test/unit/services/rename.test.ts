import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyEdits } from "../../../server/src/analysis";
import { prepareRename, rename } from "../../../server/src/services/rename";
import { atCursor } from "../../helpers/cursor";

/** The renamed text, or the refusal's words. */
function renamed(src: string, newName: string): string {
  const { doc, offset } = atCursor(src);
  const r = rename(doc, offset, newName);
  return "edits" in r ? applyEdits(doc.text, r.edits) : `refused: ${r.refused}`;
}

function prepared(src: string): string {
  const { doc, offset } = atCursor(src);
  const r = prepareRename(doc, offset);
  return "refused" in r ? `refused: ${r.refused}` : `${r.placeholder}@${r.span.start}-${r.span.end}`;
}

describe("rename", () => {
  describe("what it renames", () => {
    it("a macro: its definition and every call, also one above the definition", () => {
      assert.equal(
        renamed("{{ m(1) }}{% macro ‸m(x) %}{{ x }}{% endmacro %}{{ m(2) }}", "greet"),
        "{{ greet(1) }}{% macro greet(x) %}{{ x }}{% endmacro %}{{ greet(2) }}",
      );
    });

    it("a macro parameter, with the keyword arguments that name it at calls", () => {
      assert.equal(
        renamed("{% macro m(x‸, y) %}{{ x }}{{ y }}{% endmacro %}{{ m(x=1, y=2) }}{% call m(x=3) %}{% endcall %}", "who"),
        "{% macro m(who, y) %}{{ who }}{{ y }}{% endmacro %}{{ m(who=1, y=2) }}{% call m(who=3) %}{% endcall %}",
      );
      assert.equal(
        renamed("{% macro m(x) %}{{ x }}{% endmacro %}{{ m(x‸=1) }}", "who"),
        "{% macro m(who) %}{{ who }}{% endmacro %}{{ m(who=1) }}",
      );
    });

    it("a set variable as Jinja2 scopes it: the one inside a for is another variable", () => {
      const src = "{% set y = 1 %}{% for i in [1] %}{% set y = i %}{{ y }}{% endfor %}{{ y‸ }}";
      assert.equal(renamed(src, "total"), "{% set total = 1 %}{% for i in [1] %}{% set y = i %}{{ y }}{% endfor %}{{ total }}");
      const inner = "{% set y = 1 %}{% for i in [1] %}{% set y‸ = i %}{{ y }}{% endfor %}{{ y }}";
      assert.equal(renamed(inner, "item"), "{% set y = 1 %}{% for i in [1] %}{% set item = i %}{{ item }}{% endfor %}{{ y }}");
    });

    it("a namespace attribute: the namespace(…) keyword, each set ns.x and each read", () => {
      assert.equal(
        renamed("{% set ns = namespace(found=false) %}{% for m in messages %}{% set ns.found = true %}{% endfor %}{{ ns.fo‸und }}", "seen"),
        "{% set ns = namespace(seen=false) %}{% for m in messages %}{% set ns.seen = true %}{% endfor %}{{ ns.seen }}",
      );
    });

    it("a namespace variable, with the reads and sets of its attributes", () => {
      assert.equal(
        renamed("{% set n‸s = namespace(found=false) %}{% set ns.found = true %}{{ ns.found }}", "state"),
        "{% set state = namespace(found=false) %}{% set state.found = true %}{{ state.found }}",
      );
    });

    it("a loop variable", () => {
      assert.equal(
        renamed("{% for m‸ in messages %}{{ m.role }}{% endfor %}", "message"),
        "{% for message in messages %}{{ message.role }}{% endfor %}",
      );
    });

    it("an error that names the symbol is the same error under the new name", () => {
      // every engine throws on the unknown keyword argument, naming the macro
      assert.equal(
        renamed("{% macro ‸m(x) %}{% endmacro %}{{ m(1, y=2) }}", "greet"),
        "{% macro greet(x) %}{% endmacro %}{{ greet(1, y=2) }}",
      );
    });

    it("refuses when the llama-server flags cannot be read (its engine cannot render)", () => {
      const { doc, offset } = atCursor("{% set ‸y = 1 %}{{ y }}");
      const r = rename(doc, offset, "z", { llamaServerArgs: ["--chat-template-kwargs", "{not json"] });
      assert.match("refused" in r ? r.refused : "", /^The rename cannot be proven harmless: the llama-server flags/);
    });

    it("the same name is no edit", () => {
      const { doc, offset } = atCursor("{% set ‸y = 1 %}{{ y }}");
      assert.deepEqual(rename(doc, offset, "y"), { edits: [] });
    });
  });

  describe("prepare: the name and its span, or why it cannot be renamed", () => {
    it("the symbol's name under the cursor", () => {
      assert.equal(prepared("{% set ns = namespace(found=false) %}{{ ns.fou‸nd }}"), "found@43-48");
      assert.equal(prepared("{% macro m(x) %}{% endmacro %}{{ ‸m(1) }}"), "m@33-34");
    });

    it("refuses what the template does not define, saying what it is", () => {
      assert.match(prepared("{{ mess‸ages }}"), /refused: `messages` is a context variable/);
      assert.match(prepared("{{ ra‸nge(3) }}"), /refused: `range` is a builtin global/);
      assert.match(prepared("{{ x | tr‸im }}"), /refused: `trim` is a filter/);
      assert.match(prepared("{{ x is defi‸ned }}"), /refused: `defined` is a test/);
      assert.match(prepared("{% f‸or m in messages %}{% endfor %}"), /refused: `for` is a keyword/);
      assert.match(prepared("{% for m in messages %}{{ lo‸op.index }}{% endfor %}"), /refused: `loop` is a variable Jinja itself defines/);
      assert.match(prepared("{{ undefin‸ed_thing }}"), /refused: `undefined_thing` is not defined in this template/);
      assert.match(prepared("{{ messages[0].ro‸le }}"), /refused: `role` is an attribute of a value the template does not define/);
      assert.match(prepared("hello‸ {{ x }}"), /refused: Nothing to rename here/);
    });

    it("refuses a variable that is also the caller's input: a reassigned context variable, a default", () => {
      assert.match(
        prepared("{% set mess‸ages = messages[1:] %}{{ messages | length }}"),
        /refused: `messages` here reassigns the context variable the caller passes: its reads may mean either/,
      );
      assert.match(
        prepared("{% if date is undefined %}\n{% set da‸te = 'today' %}{% endif %}{{ date }}"),
        /refused: `date` is also read at line 1, where no binding of it reaches \(the caller's context/,
      );
      // a macro reading a namespace set below it (GigaChat's add_tokens): its attributes too
      assert.match(
        prepared("{% macro m() %}{{ ns.sep }}{% endmacro %}{% set ns = namespace(se‸p='/') %}{{ m() }}"),
        /refused: `ns` is also read at line 1, where no binding of it reaches \(the caller's context, or a later one a macro sees when called\)/,
      );
      // a parameter or a loop variable binds for its whole scope: the same name outside it is another variable
      assert.equal(prepared("{% macro m(too‸ls) %}{{ tools }}{% endmacro %}{{ tools }}"), "tools@11-16");
      assert.equal(prepared("{% for m‸ in messages %}{{ m }}{% endfor %}{{ m }}"), "m@7-8");
    });
  });

  describe("refuses a new name, with the reason", () => {
    const loop = "{% for m‸ in messages %}{{ m.role }}{% endfor %}";
    it("not an identifier, or a keyword", () => {
      assert.match(renamed(loop, "my-message"), /refused: `my-message` is not a Jinja identifier/);
      assert.match(renamed(loop, "1st"), /not a Jinja identifier/);
      assert.match(renamed(loop, "None"), /refused: `None` is a keyword/);
      assert.match(renamed(loop, "endfor"), /refused: `endfor` is a keyword/);
    });

    it("a context variable, a builtin global or a name Jinja defines", () => {
      assert.match(renamed(loop, "bos_token"), /refused: `bos_token` is a context variable/);
      assert.match(renamed(loop, "namespace"), /refused: `namespace` is a builtin global/);
      assert.match(renamed(loop, "loop"), /refused: `loop` is a name Jinja itself defines/);
    });

    it("another local in the same scope", () => {
      assert.match(
        renamed("{% macro m(x‸, y) %}{{ x }}{% endmacro %}", "y"),
        /refused: `y` is already defined in the same scope, at line 1/,
      );
    });

    it("another local visible where the symbol is used (it would capture the renamed uses)", () => {
      const src = "{% set a‸ = 1 %}\n{% for b in [2] %}{{ a }}{% endfor %}";
      assert.match(renamed(src, "b"), /refused: `b` is already the loop variable defined at line 2, visible where `a` is at line 2/);
    });

    it("a use of the new name the renamed symbol would capture", () => {
      const src = "{% macro m() %}{{ greeting }}{% endmacro %}\n{% set a‸ = 1 %}{{ a }}";
      assert.match(
        renamed(src, "greeting"),
        /refused: `greeting` already appears at line 1, in the scope of `a`: the two names would be confused/,
      );
    });

    it("an attribute the namespace already has", () => {
      const src = "{% set ns = namespace(found=false, last=none) %}{{ ns.fo‸und }}";
      assert.match(renamed(src, "last"), /refused: `ns` already has an attribute `last` \(line 1\)/);
    });
  });

  describe("proof: refuses a rename that changes what an engine renders", () => {
    it("an attribute also read by subscript, which the scope analysis does not follow", () => {
      const src = "{% set ns = namespace(found='yes') %}{{ ns.fo‸und }}{{ ns['found'] }}";
      assert.match(
        renamed(src, "seen"),
        /refused: Renaming `found` to `seen` changes what Jinja2 renders for the scenario 'basic': its output differs from character 3/,
      );
    });

    it("a parameter passed by a ** dict at a call", () => {
      const src = "{% macro m(x‸) %}{{ x }}{% endmacro %}{{ m(**{'x': 'hi'}) }}";
      assert.match(
        renamed(src, "who"),
        /changes what Jinja2 renders for the scenario 'basic': it renders, and after the rename throws \(TypeError: macro 'm' takes no keyword argument 'x'\)/,
      );
    });
  });
});
