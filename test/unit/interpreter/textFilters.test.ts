// wordwrap (Python's textwrap), pprint (pprint.pformat, multi-line) and urlize (jinja2.utils.urlize),
// with expectations rendered by Python Jinja2 3.1.6 in HF's configuration.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { run } from "./renderHelper";

const out = (template: string) => {
  const r = run(template);
  return r.error ? r.error.message : r.output;
};

describe("wordwrap", () => {
  it("wraps each paragraph, breaking long words after hyphens unless told not to", () => {
    assert.equal(out(`{{ "Hello!\\nThis is Jinja saying something."|wordwrap(20) }}`), "Hello!\nThis is Jinja saying\nsomething.");
    assert.equal(
      out(
        `{{ "a-very-long-hyphenated-word and more"|wordwrap(8) }}|{{ "abcdefghij"|wordwrap(4, false) }}|{{ "x y z"|wordwrap(1, wrapstring="/") }}`,
      ),
      "a-very-\nlong-hyp\nhenated-\nword and\nmore|abcdefghij|x/y/z",
    );
    assert.equal(out(`{{ "well-known re-do"|wordwrap(6, break_on_hyphens=false) }}`), "well-k\nnown\nre-do");
  });

  it("fails as Python does on a non-string and a width below 1", () => {
    assert.equal(out("{{ 1|wordwrap }}"), "AttributeError: 'int' object has no attribute 'splitlines'");
    assert.equal(out(`{{ "a"|wordwrap(0) }}`), "ValueError: invalid width 0 (must be > 0)");
  });
});

describe("pprint", () => {
  it("breaks what does not fit in 80 columns, one item a line, strings into adjacent literals", () => {
    assert.equal(out("{{ range(30)|list|pprint }}"), "[" + [...Array(30).keys()].join(",\n ") + "]");
    assert.equal(
      out(`{{ {"k": "word " * 20, "a": (1, "z" * 80)}|pprint }}`),
      `{'a': (1,\n       '${"z".repeat(80)}'),\n 'k': 'word word word word word word word word word word word word word word '\n      'word word word word word word '}`,
    );
    assert.equal(
      out(`{{ ("word " * 20)|pprint }}`),
      "('word word word word word word word word word word word word word word word '\n 'word word word word word ')",
    );
  });

  it("sorts dict keys in Python's order, by type name across types", () => {
    assert.equal(out(`{{ {"b": [1, 2], 10: "x", 9: "y"}|pprint }}`), "{9: 'y', 10: 'x', 'b': [1, 2]}");
  });
});

describe("urlize", () => {
  it("links URLs and addresses, keeping surrounding punctuation out", () => {
    assert.equal(
      out(`{{ "foo http://www.example.com/ bar"|urlize }}|{{ "(see www.example.org/?a=b)."|urlize(10, true, target="_blank") }}`),
      'foo <a href="http://www.example.com/" rel="noopener">http://www.example.com/</a> bar|(see <a href="https://www.example.org/?a=b" rel="nofollow noopener" target="_blank">www.exampl...</a>).',
    );
    assert.equal(
      out(`{{ "mail email@example.com or mailto:me@example.org, @a@b"|urlize }}`),
      'mail <a href="mailto:email@example.com">email@example.com</a> or <a href="mailto:me@example.org">me@example.org</a>, @a@b',
    );
  });

  it("escapes the text unless it is Markup; takes extra schemes, refusing invalid ones", () => {
    assert.equal(out(`{{ "<b>http://a.com</b>"|urlize }}|{{ "a.com <b>"|safe|urlize }}`), "&lt;b&gt;http://a.com&lt;/b&gt;|a.com <b>");
    assert.equal(
      out(`{{ "tel:+1-514-555-1234 ftp://localhost"|urlize(extra_schemes=["tel:", "ftp://"]) }}`),
      '<a href="tel:+1-514-555-1234" rel="noopener">tel:+1-514-555-1234</a> <a href="ftp://localhost" rel="noopener">ftp://localhost</a>',
    );
    assert.equal(out(`{{ "x"|urlize(extra_schemes=["bad"]) }}`), "FilterArgumentError: 'bad' is not a valid URI scheme prefix.");
  });
});

describe("striptags", () => {
  const strip = (s: string) => out(`{{ ${JSON.stringify(s)}|striptags }}`);
  it("cuts as markupsafe 3's loop does: the first opening to the next close, again from the start", () => {
    // measured with markupsafe 3.0.3
    const cases: [string, string][] = [
      ["<!<!-- x -->-- y -->z", "z"],
      ["a <b>c</b>  d &amp; <!-- <b> --> e", "a c d & e"],
      ["<<a>b>", "b>"],
      ["a<!--b", "a<!--b"],
      ["<!-->x", "x"],
      ["<!--->y", "y"],
      ["a<!-- -- >b-->c<d", "ac<d"],
      ["x<!<!---->-- c -->y", "xy"],
    ];
    for (const [input, want] of cases) assert.equal(strip(input), want, input);
  });
  it("reads an unclosed opening once, not once per opening (a regex from each one is quadratic)", () => {
    assert.equal(out("{{ ('<!--' * 100000)|striptags|length }}|{{ ('<' * 200000)|striptags|length }}"), "400000|200000");
  });
});
