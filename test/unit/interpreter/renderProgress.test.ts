// Where a render is, as another thread reads it (progressPipe/renderProgress.ts): the statement entered last, a
// block by its opening tag, and marked as the watched text's only in renders of that text.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { jinja2_3_1_6 } from "../../../server/src/dialects";
import { TemplateDocument } from "../../../server/src/document";
import { readRenderProgress, renderProgressBuffer, watchRenders } from "../../../server/src/progressPipe/renderProgress";
import { render } from "../../../server/src/interpreter";

const TEXT = "{% if true %}\n{% for c in 'ab' %}{% endfor %}\n{% endif %}";
const run = (text: string) => render(new TemplateDocument(text), {}, { dialect: jinja2_3_1_6 });

describe("render progress", () => {
  it("holds the opening tag of the block a render of the watched text entered last, with the text's tag", () => {
    watchRenders(TEXT, 7);
    run(TEXT);
    const start = TEXT.indexOf("{% for");
    assert.deepEqual(readRenderProgress(renderProgressBuffer), { tag: 7, start, end: TEXT.indexOf("{% endfor") });
  });

  it("marks the position of a render of another text (a rewrite of it) as not the watched text's", () => {
    watchRenders(TEXT, 7);
    run(TEXT.replace("'ab'", "'abc'"));
    assert.equal(readRenderProgress(renderProgressBuffer)?.tag, 0);
  });
});
