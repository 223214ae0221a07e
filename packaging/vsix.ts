// `npm run package [-- --universal] [-- --out DIR]`: the .vsix users install. The files of contents.ts are
// copied into a staging folder (node-llama-cpp bundled there, nodeLlamaCpp.ts) with a package.json whose
// dependencies are just what the copy holds, and
// @vscode/vsce packs that folder, so nothing outside the list can slip in (vsce would otherwise take the
// whole checkout, or no node_modules at all).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { bundledFiles, checkoutFiles, contentProblems, packageContents, type Target } from "./contents";
import { stageNodeLlamaCpp } from "./nodeLlamaCpp";

const ROOT = resolve(__dirname, "..");

export function vsixName(version: string, target: Target): string {
  return target === "universal" ? `chat-template-studio-${version}-universal.vsix` : `chat-template-studio-${version}-${target}.vsix`;
}

/** The manifest as installed: no scripts or devDependencies; dependencies name what node_modules/ holds. `files`
 * (the npm package's list) goes too: vsce refuses it next to the staged .vscodeignore. */
export function stagedManifest(manifest: Record<string, unknown>, target: Target): Record<string, unknown> {
  const {
    scripts: _s,
    devDependencies,
    optionalDependencies: _o,
    overrides: _v,
    files: _f,
    ...rest
  } = manifest as Record<string, Record<string, string>>;
  const dependencies =
    target === "linux-x64"
      ? { "node-llama-cpp": devDependencies!["node-llama-cpp"]!, "@node-llama-cpp/linux-x64": devDependencies!["node-llama-cpp"]! }
      : undefined;
  return { ...rest, ...(dependencies ? { dependencies } : {}) };
}

export async function buildVsix(target: Target, outDir: string): Promise<{ file: string; files: number; bytes: number }> {
  const files = packageContents(ROOT, target);
  const problems = contentProblems(files, target);
  if (problems.length)
    throw new Error(
      `the package would be wrong (run \`npm run build\`${target === "linux-x64" ? " and `npm run build:native`" : ""} first?):\n  ${problems.join("\n  ")}`,
    );
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const stage = mkdtempSync(join(tmpdir(), "chat-template-vsix-"));
  try {
    for (const f of checkoutFiles(ROOT, target)) {
      mkdirSync(dirname(join(stage, f)), { recursive: true });
      copyFileSync(join(ROOT, f), join(stage, f));
    }
    if (bundledFiles(target).length) await stageNodeLlamaCpp(ROOT, stage);
    writeFileSync(join(stage, "package.json"), JSON.stringify(stagedManifest(manifest, target), null, 2) + "\n");
    // vsce warns without one; the folder already holds only what ships
    writeFileSync(join(stage, ".vscodeignore"), "# staged from packaging/contents.ts: every file here ships\n");
    const file = join(outDir, vsixName(manifest.version, target));
    mkdirSync(outDir, { recursive: true });
    const vsce = join(ROOT, "node_modules", "@vscode", "vsce", "vsce");
    // README's images and links stay relative, to the files the package holds: rewritten, they would point at a
    // repository URL, which an installed copy cannot reach offline and which may not exist
    const args = [
      "package",
      "--out",
      file,
      "--no-rewrite-relative-links",
      ...(target === "universal" ? ["--no-dependencies"] : ["--target", target]),
    ];
    const r = spawnSync(process.execPath, [vsce, ...args], { cwd: stage, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`vsce package failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
    return { file, files: files.length, bytes: statSync(file).size };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const target: Target = argv.includes("--universal") ? "universal" : "linux-x64";
  const out = argv.includes("--out") ? resolve(argv[argv.indexOf("--out") + 1]!) : ROOT;
  buildVsix(target, out).then(
    ({ file, files, bytes }) => console.log(`${file}: ${files} files, ${(bytes / 1e6).toFixed(1)} MB`),
    (e: Error) => {
      console.error(`package: ${e.message}`);
      process.exit(1);
    },
  );
}
