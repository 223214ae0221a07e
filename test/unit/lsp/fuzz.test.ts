// Issue 17's LSP fuzz: mutated corpus templates (deletions, duplications, tag openers and closers, deep nesting,
// hostile templates from the catalogue pasted in) sent to the real language server (dist/server.js) over stdio,
// each followed by hover, completion, document symbols and code actions. The server stays up and answers every
// request (a result, or an error response of its own), and checks a good document at the end. Seeded and
// bounded: LSP_FUZZ_SEED and LSP_FUZZ_COUNT (default 2,000 documents, 8,000 requests) reproduce or widen a run.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import {
  CodeActionRequest,
  CompletionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  HoverRequest,
  ResponseError,
  type Position,
} from "vscode-languageserver-protocol/node";
import { corpusDir } from "../../helpers/corpus";
import { initialize, startServer, type TestClient } from "../../helpers/lspClient";
import { pick, rng } from "../../helpers/random";
import { mutate } from "../../helpers/templateMutations";

const SEED = Number(process.env.LSP_FUZZ_SEED ?? 17);
const COUNT = Number(process.env.LSP_FUZZ_COUNT ?? 2000);
/** Documents open at once: each change replaces one of them, as edits in a few editors would. */
const OPEN = 4;
/** Every so many documents the fuzz waits for the diagnostics, so the engine checks run on mutated text too. */
const VALIDATE_EVERY = 10;
// changes come faster than this, so only the documents the fuzz waits for are checked
const DEBOUNCE_MS = 50;
const GOOD = "{%- for message in messages %}\n{{ message.content | trim }}\n{%- endfor %}";

const corpus = readdirSync(corpusDir("templates"))
  .filter((f) => f.endsWith(".jinja"))
  .sort()
  .map((f) => readFileSync(corpusDir("templates", f), "utf8"));

function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const line = before.split("\n").length - 1;
  return { line, character: offset - (before.lastIndexOf("\n") + 1) };
}

describe(`language server fuzz: ${COUNT} mutated corpus documents (seed ${SEED})`, () => {
  let client: TestClient;
  let closed = false;
  const uris = Array.from({ length: OPEN }, (_, i) => `file:///fuzz/${i}.jinja`);
  const versions = uris.map(() => 1);

  before(async () => {
    client = startServer();
    client.connection.onClose(() => (closed = true));
    await initialize(client, { initializationOptions: { diagnostics: { debounceMs: DEBOUNCE_MS } } });
    for (const uri of uris) {
      await client.connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: "chat-template", version: 1, text: GOOD },
      });
    }
  });
  after(() => (closed ? undefined : client.close()));

  it("stays up and answers every request", async (t) => {
    const r = rng(SEED);
    const failures: string[] = [];
    let requests = 0;
    let errorResponses = 0;
    for (let i = 0; i < COUNT && !closed; i++) {
      const k = i % OPEN;
      const uri = uris[k];
      const text = mutate(pick(r, corpus), r);
      const validated = i % VALIDATE_EVERY === 0 ? client.nextDiagnostics(uri) : null;
      await client.connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version: ++versions[k] },
        contentChanges: [{ text }],
      });
      const textDocument = { uri };
      const at = () => positionAt(text, Math.floor(r() * (text.length + 1)));
      const end = positionAt(text, text.length);
      const answers = await Promise.allSettled([
        client.connection.sendRequest(HoverRequest.type, { textDocument, position: at() }),
        client.connection.sendRequest(CompletionRequest.type, { textDocument, position: at() }),
        client.connection.sendRequest(DocumentSymbolRequest.type, { textDocument }),
        client.connection.sendRequest(CodeActionRequest.type, {
          textDocument,
          range: { start: { line: 0, character: 0 }, end },
          context: { diagnostics: [] },
        }),
      ]);
      requests += answers.length;
      for (const a of answers) {
        if (a.status === "fulfilled") continue;
        // an error the server answered with is an answer; anything else (the connection gone) is a failure
        if (a.reason instanceof ResponseError) errorResponses++;
        else failures.push(`document ${i}: ${String(a.reason)}`);
      }
      if (validated) await validated;
    }
    t.diagnostic(`${COUNT} documents, ${requests} requests, ${errorResponses} error responses, ${failures.length} failures`);
    assert.equal(closed, false, "the server exited");
    assert.deepEqual(failures.slice(0, 5), []);

    // and it still checks a document: a good one gets its diagnostics and a hover
    const next = client.nextDiagnostics(uris[0]);
    await client.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: uris[0], version: ++versions[0] },
      contentChanges: [{ text: GOOD }],
    });
    assert.ok(Array.isArray((await next).diagnostics));
    assert.ok(
      await client.connection.sendRequest(HoverRequest.type, { textDocument: { uri: uris[0] }, position: { line: 1, character: 12 } }),
    );
  });
});
