// Installing the CUDA build without npm: the pinned tarballs from the npm registry the user configured,
// each checked against its pinned sha512 before anything is unpacked, a cut download resumed with HTTP
// Range, a cancel or a server error installing nothing. A loopback server stands in for the registry and
// serves small tarballs made here.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { IntegrityError, cudaPrefix, installCudaFiles, npmRegistry, type RegistryConfig } from "../../../native/engine";
import { CLI } from "../../helpers/cli";
import { tempDir } from "../../helpers/gguf";
import { makeTarball, startTarballRegistry, type TarballRegistry, type TestTarball } from "../../helpers/tarballRegistry";

const tmp = tempDir("cuda-install");
after(tmp.cleanup);

const LIB = "bins/linux-x64-cuda/libllama-common.so";
const SIZE = 200_000;
let cuda: TestTarball;
let ext: TestTarball;
let registry: TarballRegistry;
let config: RegistryConfig;

before(async () => {
  // incompressible bytes, so that a cut lands inside the library and the slow server takes a while
  const noise = randomBytes(SIZE);
  cuda = await makeTarball(tmp.dir, "@node-llama-cpp/linux-x64-cuda", "3.22.1", { [LIB]: noise });
  ext = await makeTarball(tmp.dir, "@node-llama-cpp/linux-x64-cuda-ext", "3.22.1", {
    "bins/linux-x64-cuda/fallback/libcudart.so.13": "runtime",
  });
  registry = await startTarballRegistry([cuda, ext]);
  config = { registry: registry.url, source: "test" };
});
after(() => registry.close());

let n = 0;
const storage = () => join(tmp.dir, `storage-${n++}`);
const unpacked = (dir: string) => join(cudaPrefix(dir), "node_modules", "@node-llama-cpp", "linux-x64-cuda", LIB);

describe("installCudaFiles", () => {
  it("downloads, checks and unpacks each tarball into the prefix, reporting bytes of the pinned total", async () => {
    const dir = storage();
    const seen: [number, number][] = [];
    const prefix = await installCudaFiles({
      storageDir: dir,
      registry: config,
      tarballs: [cuda, ext],
      onProgress: (r, t) => seen.push([r, t]),
    });
    assert.equal(prefix, cudaPrefix(dir));
    assert.equal(statSync(unpacked(dir)).size, SIZE);
    assert.ok(
      existsSync(
        join(prefix, "node_modules", "@node-llama-cpp", "linux-x64-cuda-ext", "bins", "linux-x64-cuda", "fallback", "libcudart.so.13"),
      ),
    );
    assert.deepEqual(seen.at(-1), [cuda.bytes + ext.bytes, cuda.bytes + ext.bytes]);
    assert.ok(
      seen.every(([r], i) => i === 0 || r >= seen[i - 1]![0]),
      "progress only goes up",
    );
    assert.deepEqual(readdirSync(join(dir, "cuda", "downloads")), [], "the tarballs are not kept once unpacked");
  });

  it("a wrong hash installs nothing, keeps nothing, and leaves an earlier install as it was", async () => {
    const dir = storage();
    await installCudaFiles({ storageDir: dir, registry: config, tarballs: [cuda, ext] });
    const wrong = { ...ext, integrity: cuda.integrity };
    await assert.rejects(installCudaFiles({ storageDir: dir, registry: config, tarballs: [cuda, wrong] }), (e: Error) => {
      assert.ok(e instanceof IntegrityError);
      assert.match(
        e.message,
        /linux-x64-cuda-ext-3\.22\.1\.tgz does not match the pinned integrity: expected sha512-.*, got sha512-.*; the download was deleted and nothing was installed/,
      );
      return true;
    });
    assert.equal(statSync(unpacked(dir)).size, SIZE, "the earlier install is untouched");
    assert.deepEqual(
      readdirSync(join(dir, "cuda", "downloads")).filter((f) => f.includes("-ext-")),
      [],
      "the bad download is gone",
    );
    const fresh = storage();
    await assert.rejects(installCudaFiles({ storageDir: fresh, registry: config, tarballs: [wrong] }), IntegrityError);
    assert.equal(existsSync(cudaPrefix(fresh)), false);
  });

  it("a download cut mid-way fails, keeps its bytes, and the next install asks only for the rest", async () => {
    const dir = storage();
    registry.fault(cuda.name, "cut");
    await assert.rejects(
      installCudaFiles({ storageDir: dir, registry: config, tarballs: [cuda] }),
      /linux-x64-cuda-3\.22\.1\.tgz was cut at \d+ of \d+ bytes .*; the next install resumes it/,
    );
    assert.equal(existsSync(cudaPrefix(dir)), false, "nothing installed");
    const partial = join(dir, "cuda", "downloads", "linux-x64-cuda-3.22.1.tgz.partial");
    const kept = statSync(partial).size;
    assert.ok(kept > 0 && kept < cuda.bytes, `kept ${kept} of ${cuda.bytes}`);
    const before = registry.requests.length;
    await installCudaFiles({ storageDir: dir, registry: config, tarballs: [cuda] });
    assert.equal(registry.requests[before]!.headers.range, `bytes=${kept}-`);
    assert.equal(statSync(unpacked(dir)).size, SIZE);
  });

  it("a server that ignores Range sends the whole file again, and that is fine", async () => {
    const dir = storage();
    registry.fault(cuda.name, "cut");
    await assert.rejects(installCudaFiles({ storageDir: dir, registry: config, tarballs: [cuda] }));
    registry.fault(cuda.name, "ignore-range");
    await installCudaFiles({ storageDir: dir, registry: config, tarballs: [cuda] });
    assert.equal(statSync(unpacked(dir)).size, SIZE);
  });

  it("a server error installs nothing and says what the server said", async () => {
    const dir = storage();
    registry.fault(ext.name, "error");
    await assert.rejects(
      installCudaFiles({ storageDir: dir, registry: config, tarballs: [cuda, ext] }),
      /linux-x64-cuda-ext-3\.22\.1\.tgz: HTTP 500 Internal Server Error$/,
    );
    assert.equal(existsSync(cudaPrefix(dir)), false);
    await installCudaFiles({ storageDir: dir, registry: config, tarballs: [cuda, ext] });
    assert.ok(existsSync(unpacked(dir)), "the next try installs");
  });

  it("a cancel stops the download, installs nothing, and the next install resumes", async () => {
    const dir = storage();
    registry.fault(cuda.name, "slow");
    const abort = new AbortController();
    const pending = installCudaFiles({
      storageDir: dir,
      registry: config,
      tarballs: [cuda],
      signal: abort.signal,
      onProgress: (r) => r > 10_000 && abort.abort(),
    });
    await assert.rejects(pending, /was cancelled at \d+ bytes; the next install resumes it/);
    assert.equal(existsSync(cudaPrefix(dir)), false);
    const before = registry.requests.length;
    await installCudaFiles({ storageDir: dir, registry: config, tarballs: [cuda] });
    assert.match(registry.requests[before]!.headers.range ?? "", /^bytes=[1-9]\d*-$/);
    assert.ok(existsSync(unpacked(dir)));
  });

  it("sends the registry's auth token", async () => {
    const before = registry.requests.length;
    await installCudaFiles({ storageDir: storage(), registry: { ...config, authToken: "s3cret" }, tarballs: [ext] });
    assert.equal(registry.requests[before]!.headers.authorization, "Bearer s3cret");
  });
});

describe("the npm registry the user configured", () => {
  const home = join(tmp.dir, "home");
  mkdirSync(home, { recursive: true });
  const npmrc = (text: string) => writeFileSync(join(home, ".npmrc"), text);

  it("npm's default without any configuration", () => {
    assert.deepEqual(npmRegistry("@node-llama-cpp/linux-x64-cuda", { HOME: join(tmp.dir, "nobody") }), {
      registry: "https://registry.npmjs.org/",
      source: "default",
    });
  });

  it("~/.npmrc: the scope's registry before the plain one, ${VAR} expanded, the token for that registry", () => {
    npmrc(
      "registry=https://plain.example/\n@node-llama-cpp:registry=https://mirror.example/npm/\n//mirror.example/npm/:_authToken=${NPM_TOKEN}\n",
    );
    const r = npmRegistry("@node-llama-cpp/linux-x64-cuda", { HOME: home, NPM_TOKEN: "t0k" });
    assert.deepEqual(r, { registry: "https://mirror.example/npm/", authToken: "t0k", source: join(home, ".npmrc") });
    assert.equal(npmRegistry("left-pad", { HOME: home }).registry, "https://plain.example/");
  });

  it("the environment before the files, as npm reads it (any case); NPM_CONFIG_USERCONFIG names the file", () => {
    npmrc("registry=https://plain.example/\n");
    assert.deepEqual(npmRegistry("x", { HOME: home, NPM_CONFIG_REGISTRY: "https://env.example/" }), {
      registry: "https://env.example/",
      source: "npm_config_registry",
    });
    const other = join(tmp.dir, "other.npmrc");
    writeFileSync(other, "registry = https://other.example/\n");
    assert.equal(npmRegistry("x", { HOME: home, npm_config_userconfig: other }).registry, "https://other.example/");
  });

  it("a registry that is not a URL is an error naming where it came from", () => {
    npmrc("registry=not a url\n");
    assert.throws(
      () => npmRegistry("x", { HOME: home }),
      new RegExp(`the npm registry "not a url" \\(from ${join(home, ".npmrc").replace(/[.]/g, "\\.")}\\) is not a URL`),
    );
  });
});

describe("chat-template install-cuda", () => {
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, [CLI, "install-cuda", ...args], { encoding: "utf8" }).then(
      (r) => ({ status: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => ({ status: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  it("downloads the pinned packages from --registry and refuses bytes that are not the pinned ones", async () => {
    // the loopback registry serves test tarballs under the real names: their hashes are not the pinned ones
    const dir = storage();
    const r = await run(["--dir", dir, "--registry", registry.url]);
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `^downloading @node-llama-cpp/linux-x64-cuda@3\\.22\\.1 and @node-llama-cpp/linux-x64-cuda-ext@3\\.22\\.1 \\(320 MB\\) from ${registry.url} \\(--registry\\) into ${dir}\\n`,
      ),
    );
    assert.match(r.stderr, /\n {2}0 of 320 MB downloaded\n/);
    assert.match(
      r.stderr,
      /\nchat-template install-cuda: .*linux-x64-cuda-3\.22\.1\.tgz does not match the pinned integrity: .*nothing was installed\n$/,
    );
    assert.equal(existsSync(cudaPrefix(dir)), false);
    assert.equal(existsSync(join(dir, "cuda", "install.json")), false);
  });

  it("usage errors: a registry that is not a URL, an extra argument", async () => {
    assert.equal((await run(["--registry", "nope"])).status, 2);
    assert.equal((await run(["extra"])).status, 2);
  });

  it("the check a fresh process runs on an install reports why CUDA cannot be used here", async () => {
    const prefix = join(tmp.dir, "fake-prefix");
    mkdirSync(join(prefix, "node_modules", "@node-llama-cpp", "linux-x64-cuda", "bins", "linux-x64-cuda"), { recursive: true });
    writeFileSync(join(prefix, "node_modules", "@node-llama-cpp", "linux-x64-cuda", LIB), "not a library");
    const r = await run(["--check", prefix]);
    assert.equal(r.status, 0);
    assert.match(JSON.parse(r.stdout.trim()).error, /CUDA was requested but cannot be used: no NVIDIA driver/);
    assert.equal(readFileSync(join(prefix, "node_modules", "@node-llama-cpp", "linux-x64-cuda", LIB), "utf8"), "not a library");
  });
});
