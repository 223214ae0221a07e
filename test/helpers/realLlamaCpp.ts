// Runs llama.cpp's own C++ Jinja engine (common/jinja of llama.cpp v0.5.0) in process through the
// prebuilt addon of @node-llama-cpp/linux-x64, so tests compare our `llamacpp` dialect with the engine
// itself rather than with remembered behaviour.
//
// What the addon does with a JS context (node-llama-cpp/llama/addon/AddonJinjaRenderer.cpp):
// - an integral number becomes an int, any other finite number a float — so 1.0 arrives as the int 1;
//   a number outside int64 range, NaN or ±Infinity throws "Number is outside the native Jinja numeric
//   range" (even 1e300, which a float could hold);
// - undefined becomes Undefined, null None; a function throws; nesting deeper than 256 throws;
// - objects keep their own enumerable string keys in insertion order;
// - the top-level keys are set into the engine's context, so they can shadow `true`, `none` … (the
//   engine's constants are plain variables there).
// The engine's `strftime_now` reads the real clock (std::time, local time zone); nothing here can pin it.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export type EngineResult = { out: string } | { error: string };

/** The exact addon build the corpus was made with (package.json pins it too). */
export const LLAMACPP_ADDON_VERSION = "3.22.1";

interface AddonJinjaRendererClass {
  new (template: string): { render(context?: Record<string, unknown>): string };
}

let renderer: AddonJinjaRendererClass | undefined;

function addon(): AddonJinjaRendererClass {
  if (renderer) return renderer;
  // The package's `exports` map hides bins/, so resolve its entry point and walk to the addon.
  const pkgRoot = join(dirname(require.resolve("@node-llama-cpp/linux-x64")), "..");
  const version = (JSON.parse(readFileSync(join(pkgRoot, "package.json"), "utf8")) as { version: string }).version;
  if (version !== LLAMACPP_ADDON_VERSION) {
    throw new Error(`@node-llama-cpp/linux-x64 is ${version}; the llamacpp dialect was measured on ${LLAMACPP_ADDON_VERSION}`);
  }
  const mod = require(join(pkgRoot, "bins/linux-x64/llama-addon.node")) as { AddonJinjaRenderer: AddonJinjaRendererClass };
  renderer = mod.AddonJinjaRenderer;
  return renderer;
}

/**
 * Compiles and renders `template` with the real engine. Any throw (lexer, parser, input conversion,
 * render) becomes `{ error }` with the engine's message, minus the addon's "AddonJinjaRenderer: " prefix.
 */
export function renderRealLlamaCpp(template: string, context: Record<string, unknown>): EngineResult {
  const Renderer = addon();
  try {
    return { out: new Renderer(template).render(context) };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { error: message.replace(/^AddonJinjaRenderer: /, "") };
  }
}

/**
 * The engine's own words for an error, the line after "Error: " of a render error, or the first line of
 * a compile or conversion error ("failed to compile template: …"), without the source excerpt.
 */
export function llamaCppErrorCause(error: string): string {
  const at = error.lastIndexOf("\nError: ");
  if (at >= 0) return error.slice(at + "\nError: ".length);
  return error.split("\n")[0].replace(/^failed to (?:render|compile) template: /, "");
}
