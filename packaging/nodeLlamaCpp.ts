// node-llama-cpp as the linux-x64 .vsix ships it: its JavaScript and its whole dependency tree (about 1,100 files)
// bundled by esbuild into two ES modules at the paths its own code has, beside a manifest, its release metadata
// and one file of licences. The prebuilt llama.cpp stays in @node-llama-cpp/linux-x64, which the bundle imports
// at run time as the unbundled package does (packaging/contents.ts ships that package's files as they are).
//
// Two things of node-llama-cpp's own layout are kept so that the bundle behaves as the package does:
// - each module finds its files (package.json, llama/*.json) from its own `import.meta.url`, which in a bundle
//   would be the bundle's: every module's `import.meta.url` is rewritten to the URL its file had, relative to
//   the bundle, so `dist/utils/getModuleVersion.js` still reads `../../package.json`;
// - before loading llama.cpp's addon, getLlama() forks `dist/bindings/utils/testBindingBinary.js` to try the
//   binary in a child process (a binary that crashes takes the child down, not the extension host): that file
//   is bundled on its own, at its own path, and the main bundle forks it there.
import * as esbuild from "esbuild";
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

const PACKAGE = "node_modules/node-llama-cpp";
/** The entry points, relative to node-llama-cpp's folder: the library, and the script getLlama() forks. */
const ENTRIES = ["dist/index.js", "dist/bindings/utils/testBindingBinary.js"];
/** What getLlama() reads of its llama/ folder when it only loads a prebuilt binary (never builds or downloads). */
const RELEASE_METADATA = ["llama/binariesGithubRelease.json", "llama/llama.cpp.info.json"];
const LICENSES = "THIRD_PARTY_LICENSES.txt";

/** The files stageNodeLlamaCpp writes, relative to the package root. */
export const NODE_LLAMA_CPP_FILES = [...ENTRIES, ...RELEASE_METADATA, "package.json", "LICENSE", LICENSES].map((f) => `${PACKAGE}/${f}`);

// Loaded only on the code paths the extension never takes (building llama.cpp, downloading models, Electron's
// utility process, TypeScript types), so they stay imports that fail there instead of files in the package.
const NOT_SHIPPED = ["@node-llama-cpp/*", "electron", "typescript", "@reflink/reflink"];

/** The manifest the bundle needs: its version (checked against @node-llama-cpp/linux-x64's) and how node enters it.
 * No dependencies: the bundle holds them, and vsce would look for them in node_modules. */
export function shippedManifest(manifest: Record<string, unknown>): Record<string, unknown> {
  const { name, version, description, license, type, main, exports } = manifest;
  return { name, version, description, license, type, main, exports };
}

/** Rewrites the `import.meta.url` of node-llama-cpp's own modules to the URL of their original file. */
function originalLocations(packageDir: string, bundleFile: string): esbuild.Plugin {
  return {
    name: "original-locations",
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, (args) => {
        if (!args.path.startsWith(join(packageDir, "dist") + sep)) return undefined;
        const rel = relative(dirname(bundleFile), args.path).split(sep).join("/");
        const url = `new URL(${JSON.stringify(rel.startsWith(".") ? rel : `./${rel}`)}, import.meta.url).href`;
        return { contents: readFileSync(args.path, "utf8").replaceAll("import.meta.url", url), loader: "js" };
      });
    },
  };
}

/** The folder of the npm package a bundled file came from, or null for a file of no package. */
function packageFolder(file: string): string | null {
  const at = file.lastIndexOf(`node_modules${sep}`);
  if (at < 0) return null;
  const rest = file.slice(at + "node_modules".length + 1).split(sep);
  const depth = rest[0]!.startsWith("@") ? 2 : 1;
  return file.slice(0, at) + ["node_modules", ...rest.slice(0, depth)].join(sep);
}

/** Every bundled package's name, version and licence text, in one file: the bundle drops their LICENSE files. */
function licenses(inputs: string[]): string {
  const folders = [...new Set(inputs.map(packageFolder).filter((f): f is string => f !== null))].sort();
  return folders
    .map((folder) => {
      const { name, version, license } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as Record<string, string>;
      const file = readdirSync(folder).find((f) => /^(licen[cs]e|copying)/i.test(f));
      const text = file
        ? readFileSync(join(folder, file), "utf8").trim()
        : `${license ?? "no licence named"} (the package has no licence file)`;
      return `${name}@${version}\n\n${text}\n`;
    })
    .join(`\n${"-".repeat(80)}\n\n`);
}

/** Writes node-llama-cpp as it ships into `stage` (NODE_LLAMA_CPP_FILES), from the checkout at `root`. */
export async function stageNodeLlamaCpp(root: string, stage: string): Promise<void> {
  const packageDir = realpathSync(join(root, PACKAGE));
  const out = join(stage, PACKAGE);
  const inputs = new Set<string>();
  for (const entry of ENTRIES) {
    const outfile = join(out, entry);
    const result = await esbuild.build({
      entryPoints: [join(packageDir, entry)],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      minifyWhitespace: true,
      legalComments: "none",
      metafile: true,
      logLevel: "error",
      external: NOT_SHIPPED,
      // the CommonJS dependencies call require(), which an ES module does not have
      banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
      plugins: [originalLocations(packageDir, join(packageDir, entry))],
    });
    for (const input of Object.keys(result.metafile.inputs)) inputs.add(realpathSync(join(root, input)));
  }
  for (const f of RELEASE_METADATA) {
    mkdirSync(dirname(join(out, f)), { recursive: true });
    writeFileSync(join(out, f), readFileSync(join(packageDir, f)));
  }
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(join(out, "package.json"), JSON.stringify(shippedManifest(manifest), null, 2) + "\n");
  writeFileSync(join(out, "LICENSE"), readFileSync(join(packageDir, "LICENSE")));
  writeFileSync(join(out, LICENSES), licenses([...inputs]));
  const missing = NODE_LLAMA_CPP_FILES.filter((f) => !existsSync(join(stage, f)));
  if (missing.length) throw new Error(`node-llama-cpp's bundle did not write ${missing.join(", ")}`);
}
