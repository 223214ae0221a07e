// The .vsix as users get it: built by packaging/vsix.ts, read back from the zip.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import yauzl from "yauzl";
import { contentProblems, packageContents, requiredFiles } from "../../../packaging/contents";
import { buildVsix } from "../../../packaging/vsix";

const ROOT = resolve(__dirname, "../../..");
const BUDGET_BYTES = 40 * 1024 * 1024;
// node-llama-cpp's JavaScript is bundled (packaging/nodeLlamaCpp.ts): the package holds native libraries and a few files
const BUDGET_FILES = 100;

function zipEntries(file: string): Promise<string[]> {
  return new Promise((done, fail) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return fail(err);
      const names: string[] = [];
      zip.on("entry", (e: yauzl.Entry) => {
        names.push(e.fileName);
        zip.readEntry();
      });
      zip.on("end", () => done(names));
      zip.on("error", fail);
      zip.readEntry();
    });
  });
}

// vsce renames these three on the way in
const RENAMED: Record<string, string> = { "readme.md": "README.md", "changelog.md": "CHANGELOG.md", "LICENSE.txt": "LICENSE" };
const asCheckout = (entries: string[]) =>
  entries
    .filter((e) => e.startsWith("extension/"))
    .map((e) => e.slice("extension/".length))
    .map((f) => RENAMED[f] ?? f)
    .sort();

describe("the .vsix packages", () => {
  const out = mkdtempSync(join(tmpdir(), "vsix-test-"));
  after(() => rmSync(out, { recursive: true, force: true }));

  for (const target of ["linux-x64", "universal"] as const) {
    describe(target, () => {
      let built: Awaited<ReturnType<typeof buildVsix>>;
      let files: string[];
      before(async () => {
        built = await buildVsix(target, out);
        files = asCheckout(await zipEntries(built.file));
      });

      it("holds exactly the listed files, within the 40 MB and 100 files budget", () => {
        assert.deepEqual(files, packageContents(ROOT, target));
        assert.ok(built.bytes <= BUDGET_BYTES, `${built.bytes} bytes`);
        assert.ok(files.length <= BUDGET_FILES, `${files.length} files`);
      });

      it("holds every run-time file and no test, TypeScript source, map or build intermediate", () => {
        assert.deepEqual(contentProblems(files, target), []);
        for (const f of requiredFiles(target)) assert.ok(files.includes(f), f);
      });

      it("holds every file the README and the docs it ships link to or show, by relative path", () => {
        for (const doc of files.filter((f) => f === "README.md" || /^docs\/[^/]+\.md$/.test(f))) {
          const text = readFileSync(join(ROOT, doc), "utf8");
          for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
            if (/^[a-z]+:/.test(link!) || link!.startsWith("#")) continue;
            const target = posix.normalize(posix.join(posix.dirname(doc), link!.split("#")[0]!));
            assert.ok(files.includes(target), `${doc} links to ${link}, which the package does not hold`);
          }
        }
      });

      it("holds what the manifest points at: the walkthrough's images and the files its commands open", () => {
        const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
        for (const step of manifest.contributes.walkthroughs[0].steps) assert.ok(files.includes(step.media.image), step.media.image);
        for (const f of ["templates/starters/chatml.jinja", "templates/walkthrough/engine-problem.jinja"]) assert.ok(files.includes(f), f);
      });
    });
  }
});

describe("a plain vsce package in the checkout", () => {
  it("is refused before anything is packed, naming npm run package", () => {
    const out = mkdtempSync(join(tmpdir(), "plain-vsce-"));
    try {
      const vsce = join(ROOT, "node_modules", "@vscode", "vsce", "vsce");
      const r = spawnSync(process.execPath, [vsce, "package", "--out", out], { cwd: ROOT, encoding: "utf8" });
      assert.notEqual(r.status, 0);
      assert.match(r.stdout + r.stderr, /npm run package/);
      assert.deepEqual(readdirSync(out), []);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("contentProblems", () => {
  const good = requiredFiles("linux-x64");
  it("names a test, a TypeScript source, a map, the llama.cpp source bundle and a missing run-time file", () => {
    const bad = [
      ...good.filter((f) => f !== "dist/server.js"),
      "test/unit/x.test.ts",
      "server/src/a.ts",
      "cli/README",
      "dist/client.js.map",
      "node_modules/node-llama-cpp/llama/gitRelease.bundle",
    ];
    assert.deepEqual(contentProblems(bad, "linux-x64").sort(), [
      "build intermediate node_modules/node-llama-cpp/llama/gitRelease.bundle",
      "development file cli/README",
      "development file server/src/a.ts",
      "development file test/unit/x.test.ts",
      "missing dist/server.js",
      "source file dist/client.js.map",
    ]);
  });
  it("finds no native file acceptable in the universal package", () => {
    assert.deepEqual(contentProblems([...requiredFiles("universal"), "native/build/cmake/bin/cts_engine.node"], "universal"), [
      "native file in the universal package native/build/cmake/bin/cts_engine.node",
    ]);
  });
});

describe("packageContents", () => {
  it("ships any new file under templates/ and skips sources, maps and the native parts of the universal package", () => {
    const root = mkdtempSync(join(tmpdir(), "contents-"));
    try {
      for (const f of [
        "package.json",
        "templates/new.schema.json",
        "templates/starter/tests/a.json",
        "dist/client.js",
        "dist/client.js.map",
        "client/src/extension.ts",
        "native/build/cmake/bin/cts_engine.node",
        "native/build/cmake/bin/dflash-bench",
      ]) {
        mkdirSync(dirname(join(root, f)), { recursive: true });
        writeFileSync(join(root, f), "{}");
      }
      assert.deepEqual(packageContents(root, "universal"), [
        "dist/client.js",
        "package.json",
        "templates/new.schema.json",
        "templates/starter/tests/a.json",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
