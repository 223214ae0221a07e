// node-llama-cpp as the .vsix ships it (packaging/nodeLlamaCpp.ts): bundled into a folder laid out as an installed
// extension, with the prebuilt @node-llama-cpp/linux-x64 beside it, the preview's tokenizer (client/src/gguf/tokenizer.ts,
// bundled as dist/client.js bundles it) loads a vocabulary through it, in a process that cannot reach the checkout's
// node_modules.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import * as esbuild from "esbuild";
import { NODE_LLAMA_CPP_FILES, shippedManifest, stageNodeLlamaCpp } from "../../../packaging/nodeLlamaCpp";
import { tempDir } from "../../helpers/gguf";
import { writeVocabGGUF } from "../../helpers/ggufVocab";

const ROOT = resolve(__dirname, "../../..");

function runNode(script: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ["-e", script], { cwd, env: { ...process.env, NODE_PATH: "" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

describe("node-llama-cpp bundled for the .vsix", { skip: process.platform !== "linux" || process.arch !== "x64" }, () => {
  const tmp = tempDir("bundled-llama");
  const extension = join(tmp.dir, "extension");
  before(async () => {
    await stageNodeLlamaCpp(ROOT, extension);
    mkdirSync(join(extension, "node_modules", "@node-llama-cpp"), { recursive: true });
    symlinkSync(
      join(ROOT, "node_modules", "@node-llama-cpp", "linux-x64"),
      join(extension, "node_modules", "@node-llama-cpp", "linux-x64"),
    );
    await esbuild.build({
      entryPoints: [join(ROOT, "client/src/gguf/tokenizer.ts")],
      outfile: join(extension, "dist", "tokenizer.js"),
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      logLevel: "error",
      external: ["node-llama-cpp", "@node-llama-cpp/*"],
    });
    writeVocabGGUF(join(tmp.dir, "vocab.gguf"));
  });
  after(tmp.cleanup);

  it("is a few files: the bundle, the binary test it forks, the release metadata, manifest and licences", () => {
    assert.ok(NODE_LLAMA_CPP_FILES.length <= 10, NODE_LLAMA_CPP_FILES.join(", "));
    const licenses = readFileSync(join(extension, "node_modules/node-llama-cpp/THIRD_PARTY_LICENSES.txt"), "utf8");
    for (const name of ["node-llama-cpp@", "chalk@", "semver@"]) assert.ok(licenses.includes(name), name);
  });

  it("ships a manifest with node-llama-cpp's version and no dependencies", () => {
    const shipped = JSON.parse(readFileSync(join(extension, "node_modules/node-llama-cpp/package.json"), "utf8"));
    const original = JSON.parse(readFileSync(join(ROOT, "node_modules/node-llama-cpp/package.json"), "utf8"));
    assert.deepEqual(shipped, shippedManifest(original));
    assert.equal(shipped.version, original.version);
    assert.equal(shipped.dependencies, undefined);
  });

  it("tokenizes with llama.cpp's prebuilt library from the extension's folder, the binary tried in a child first", async () => {
    const script = `
      const { loadGGUFTokenizer } = require("./dist/tokenizer.js");
      loadGGUFTokenizer(${JSON.stringify(join(tmp.dir, "vocab.gguf"))})
        .then(async (t) => {
          const pieces = await t.tokenize("<|im_start|>hello<|im_end|>");
          console.log(JSON.stringify({ resolved: require.resolve("node-llama-cpp"), pieces: pieces.map((p) => [p.text, p.special]) }));
          await t.dispose();
        })
        .catch((e) => { console.error(e.stack); process.exit(1); });`;
    const r = await runNode(script, extension);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { resolved: string; pieces: [string, boolean][] };
    assert.ok(out.resolved.startsWith(extension), out.resolved);
    assert.deepEqual(out.pieces, [
      ["<|im_start|>", true],
      ["hello", false],
      ["<|im_end|>", true],
    ]);
    // printed when the forked binary test is not a file of its own (getLlama then loads the binary untried)
    assert.doesNotMatch(r.stderr, /is not independent/);
  });
});
