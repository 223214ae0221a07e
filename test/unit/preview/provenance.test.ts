import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dialectFor } from "../../../server/src/dialects/index";
import { TemplateDocument } from "../../../server/src/document/document";
import { render } from "../../../server/src/interpreter/render";
import { chunkAt } from "../../../client/src/preview/model/provenance";

const jinja2 = dialectFor("jinja2")!;

describe("chunkAt", () => {
  const text = "{% for m in messages %}[{{ m.role }}]{% endfor %}";
  const doc = new TemplateDocument(text);
  const r = render(doc, { messages: [{ role: "user" }, { role: "bot" }] }, { dialect: jinja2 });
  const source = (offset: number) => {
    const c = chunkAt(r.chunks, offset)!;
    return text.slice(c.sourceStart, c.sourceEnd);
  };

  it("names the template construct that wrote each output character", () => {
    assert.equal(r.output, "[user][bot]");
    assert.equal(source(0), "[");
    assert.equal(source(2), "{{ m.role }}");
    assert.equal(source(8), "{{ m.role }}");
    assert.equal(source(10), "]");
  });

  it("a click just past the end takes the last chunk; an empty render has none", () => {
    assert.equal(source(r.output.length), "]");
    assert.equal(chunkAt([], 0), undefined);
  });

  it("a gap no chunk covers takes the chunk before it", () => {
    const chunks = [
      { start: 0, end: 2, nodeId: 1, sourceStart: 0, sourceEnd: 1 },
      { start: 5, end: 6, nodeId: 2, sourceStart: 3, sourceEnd: 4 },
    ];
    assert.equal(chunkAt(chunks, 3)?.nodeId, 1);
    assert.equal(chunkAt(chunks, 5)?.nodeId, 2);
  });
});
