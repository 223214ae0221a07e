// Whether this installed copy of the extension can run the bundled engine: the native endpoint and
// node-llama-cpp's llama.cpp (the preview's real llama.cpp column, token counts). They exist for linux-x64
// only, and only in that platform's package; elsewhere (macOS, Windows, arm64, the platform-neutral
// package) the language features and the preview's dialect columns still work, and the endpoint commands,
// the status bar and the real llama.cpp column say so and point at an external endpoint. Decided once, from
// the files on disk, so that every place says the same thing.
import { existsSync } from "node:fs";
import { join } from "node:path";

export type BundledEngine = { available: true } | { available: false; reason: string };

/** The platform the native files are built for. */
export const NATIVE_PLATFORM = "linux-x64";

/** What the native parts need, relative to the extension's folder (packaging/contents.ts ships them). */
export const NATIVE_FILES = [
  "native/build/cmake/bin/cts_engine.node",
  "native/build/cmake/bin/cts_loader.node",
  "node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/llama-addon.node",
  "node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/libllama-common.so",
  "node_modules/node-llama-cpp/package.json",
];

export function bundledEngine(
  extensionRoot: string,
  platform: string = process.platform,
  arch: string = process.arch,
  exists: (path: string) => boolean = existsSync,
): BundledEngine {
  const here = `${platform}-${arch}`;
  if (here !== NATIVE_PLATFORM) return { available: false, reason: `it is built for ${NATIVE_PLATFORM} only, and this is ${here}` };
  const missing = NATIVE_FILES.find((f) => !exists(join(extensionRoot, f)));
  if (missing)
    return {
      available: false,
      reason: `this copy of the extension has no native files (${missing} is missing; the platform-neutral package leaves them out)`,
    };
  return { available: true };
}

/** The setting users go to instead, and the button that opens it. */
export const EXTERNAL_ENDPOINT_SETTING = "chatTemplate.endpoint.externalUrl";
export const USE_EXTERNAL_ENDPOINT = "Use an External Endpoint";

/** One sentence for messages and tooltips: what is missing, why, and what to do instead. */
export function unavailableMessage(engine: { reason: string }): string {
  return (
    `The bundled engine is not available on this platform: ${engine.reason}. ` +
    `Run a server yourself (llama-server, vLLM, SGLang, or this extension's endpoint on a Linux x64 machine) and set ` +
    `chatTemplate.endpoint.mode to "external" and ${EXTERNAL_ENDPOINT_SETTING} to its URL.`
  );
}

/** The preview's column note, shorter: the column is one of several. */
export function unavailableColumnReason(engine: { reason: string }): string {
  return `the bundled llama.cpp is not available on this platform (${engine.reason})`;
}
