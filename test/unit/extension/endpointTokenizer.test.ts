// The preview's token view from the running endpoint (client/src/endpoint/tokenizer.ts): on the demo model its
// POST /tokenize gives the ids, special marks and BOS that llama.cpp's tokenizer of the same GGUF gives; the preview
// counts with it while no GGUF is bound, and says so when it stops; a server without /tokenize is a reason in words.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { endpointTokenizerSource } from "../../../client/src/endpoint/tokenizer";
import type { TokenizerSource } from "../../../client/src/gguf/modelBinding";
import { loadGGUFTokenizer } from "../../../client/src/gguf/tokenizer";
import type { EngineView, PreviewState } from "../../../client/src/preview/protocol";
import { startEndpoint, type EndpointProcess } from "../../helpers/endpoint";
import { recordedPreview } from "../../helpers/preview";

const CHAT = "<|im_start|>user\nHéllo 😀 world<|im_end|>\n<|im_start|>assistant\n";

let endpoint: EndpointProcess;
let modelPath: string;
before(async () => {
  endpoint = await startEndpoint();
  modelPath = ((await (await fetch(`${endpoint.url}/props`)).json()) as { model_path: string }).model_path;
});
after(() => endpoint.stop());

describe("the endpoint's tokenizer", () => {
  it("gives the ids, special marks and BOS of llama.cpp's tokenizer of the served GGUF; the texts lay end to end", async () => {
    const served = await endpointTokenizerSource("endpoint", async () => ({ url: endpoint.url })).tokenizer();
    const gguf = await loadGGUFTokenizer(modelPath);
    try {
      const pieces = await served.tokenize(CHAT);
      const expected = await gguf.tokenize(CHAT);
      assert.deepEqual(
        pieces.map((p) => [p.id, p.special]),
        expected.map((p) => [p.id, p.special]),
      );
      assert.ok(pieces.some((p) => p.special) && pieces.some((p) => !p.special));
      assert.equal(pieces.map((p) => p.text).join(""), CHAT, "a character split across tokens goes to the token that completes it");
      assert.equal(await served.count(CHAT), expected.length);
      assert.deepEqual(served.bos, gguf.bos);
    } finally {
      await gguf.dispose();
    }
  });

  it("a server without POST /tokenize is a rejection that says so", async () => {
    const server = createServer((_req, res) => res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}'));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await assert.rejects(
        endpointTokenizerSource("x", async () => ({ url })).tokenizer(),
        new RegExp(`^Error: ${url} has no POST /tokenize`),
      );
      await assert.rejects(endpointTokenizerSource("x", async () => null).tokenizer(), /the endpoint is not running/);
    } finally {
      server.close();
    }
  });
});

describe("the preview without a bound GGUF", () => {
  it("counts with the running endpoint's tokenizer, and says how to get one once it stops", async () => {
    let running: TokenizerSource | null = endpointTokenizerSource("endpoint: demo", async () => ({ url: endpoint.url }));
    const { controller: c, posted } = recordedPreview({ debounceMs: 0, endpointTokenizer: () => running });
    const reference = async (done: (e: EngineView) => boolean): Promise<EngineView> => {
      // until the column settles, however long a loaded machine takes
      for (;;) {
        const update = posted.filter((m) => m.type === "update").at(-1);
        const ref = update?.type === "update" ? update.update.engines.find((e) => e.id === "jinja2") : undefined;
        if (ref && done(ref)) return ref;
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    const state = () => (posted.filter((m) => m.type === "state").at(-1) as { state: PreviewState }).state;
    try {
      c.showTemplate({ uri: "file:///t.jinja", name: "t.jinja", text: "<|im_start|>hello<|im_end|>", model: null });
      const counted = await reference((e) => e.tokens !== null || (e.tokenNote !== null && e.tokenNote !== "counting tokens…"));
      assert.equal(counted.tokenNote, null);
      assert.deepEqual(
        counted.tokenView?.cells.map((cell) => [cell.text, cell.special]),
        [["<|im_start|>", true], ...(counted.tokenView?.cells.slice(1, -1).map((cell) => [cell.text, false]) ?? []), ["<|im_end|>", true]],
      );
      assert.equal(state().tokenizer, "endpoint: demo");
      running = null;
      c.endpointChanged();
      const stopped = await reference((e) => e.tokens === null);
      assert.match(stopped.tokenNote!, /^token count unavailable: no tokenizer \(.*or start the endpoint\)$/);
      assert.equal(state().tokenizer, null);
    } finally {
      c.dispose();
    }
  });
});
