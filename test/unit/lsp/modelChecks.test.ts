// The `model/…` checks in the editor: a template opened from a GGUF (a `gguf-template:` document) is checked
// against that file's tokenizer, any other template against chatTemplate.preview.tokenizerModel's, over real LSP.
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, it } from "node:test";
import {
  DidChangeConfigurationNotification,
  DidOpenTextDocumentNotification,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";
import { gguf } from "../../../server/src/gguf/writer";
import { tempDir } from "../../helpers/gguf";
import { writeVocabGGUF } from "../../helpers/ggufVocab";
import { initialize, startServer, type TestClient } from "../../helpers/lspClient";

const { dir, cleanup } = tempDir("lsp-model-");

/** A ChatML vocabulary; this template writes Llama 3 headers it does not have and no generation prompt. */
const LLAMA_HEADERS = "{% for m in messages %}<|start_header_id|>{{ m.role }}<|end_header_id|>{{ m.content }}<|im_end|>{% endfor %}";

const modelCodes = (p: PublishDiagnosticsParams) =>
  p.diagnostics
    .map((d) => String(d.code))
    .filter((c) => c.startsWith("model/"))
    .sort();

describe("language server: checks against the model a template serves", () => {
  let client: TestClient;

  before(async () => {
    writeVocabGGUF(join(dir, "vocab.gguf"));
    writeVocabGGUF(join(dir, "adds-bos.gguf"), [["tokenizer.ggml.add_bos_token", gguf.bool(true)]]);
    client = startServer();
    await initialize(client, {
      rootUri: pathToFileURL(dir).href,
      initializationOptions: { diagnostics: { engines: ["jinja2"] }, preview: { tokenizerModel: "vocab.gguf" } },
    });
  });
  after(async () => {
    await client.close();
    cleanup();
  });

  async function open(uri: string, text: string): Promise<PublishDiagnosticsParams> {
    const published = client.nextDiagnostics(uri);
    await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri, languageId: "chat-template", version: 1, text },
    });
    return published;
  }

  it("a template opened from a GGUF gets that file's vocabulary checks", async () => {
    const uri = pathToFileURL(join(dir, "adds-bos.gguf", "chat_template.jinja")).href.replace(/^file:/, "gguf-template:");
    const p = await open(uri, "{{ bos_token }}" + LLAMA_HEADERS);
    assert.deepEqual(modelCodes(p), [
      "model/double-bos",
      "model/generation-prompt-ignored",
      "model/unknown-special-token",
      "model/unknown-special-token",
    ]);
    const unknown = p.diagnostics.find((d) => d.code === "model/unknown-special-token")!;
    assert.equal(unknown.severity, 1);
    assert.match(String(unknown.message), /'<\|start_header_id\|>', which this model's vocabulary does not have/);
  });

  it("any other template is checked against the tokenizer model setting, relative to the workspace folder", async () => {
    const p = await open(pathToFileURL(join(dir, "t.jinja")).href, "{{ bos_token }}" + LLAMA_HEADERS);
    // vocab.gguf does not add BOS itself: the template's own BOS is right
    assert.deepEqual(modelCodes(p), ["model/generation-prompt-ignored", "model/unknown-special-token", "model/unknown-special-token"]);
  });

  it("without a tokenizer model, or with one that cannot be read, there are no model checks", async () => {
    const uri = pathToFileURL(join(dir, "u.jinja")).href;
    const configure = async (tokenizerModel: string) => {
      const published = client.nextDiagnostics(uri);
      await client.connection.sendNotification(DidChangeConfigurationNotification.type, {
        settings: { chatTemplate: { preview: { tokenizerModel } } },
      });
      return published;
    };
    assert.deepEqual(modelCodes(await open(uri, LLAMA_HEADERS)), [
      "model/generation-prompt-ignored",
      "model/unknown-special-token",
      "model/unknown-special-token",
    ]);
    assert.deepEqual(modelCodes(await configure("")), []);
    assert.deepEqual(modelCodes(await configure("missing.gguf")), []);
    // the setting back: the checks are back
    assert.equal(modelCodes(await configure(join(dir, "vocab.gguf"))).length, 3);
  });
});
