// The helper process behind "real llama.cpp" (realLlamaCpp.ts): loads node-llama-cpp's prebuilt addon and
// renders one JSON request per stdin line with its AddonJinjaRenderer, one JSON answer per stdout line.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";

interface Renderer {
  render(context: Record<string, unknown>): string;
}
type RendererClass = new (template: string) => Renderer;

const say = (obj: object) => process.stdout.write(JSON.stringify(obj) + "\n");

function load(): { Renderer: RendererClass; version: string } {
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(`the bundled llama.cpp addon is built for linux-x64, not ${process.platform}-${process.arch}`);
  }
  // the package's `exports` map hides bins/, so walk from its entry point to the addon
  const root = join(dirname(require.resolve("@node-llama-cpp/linux-x64")), "..");
  const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
  const addon = require(join(root, "bins/linux-x64/llama-addon.node")) as { AddonJinjaRenderer: RendererClass };
  return { Renderer: addon.AddonJinjaRenderer, version };
}

let engine: ReturnType<typeof load>;
try {
  engine = load();
} catch (e) {
  say({ ready: false, reason: `cannot load llama.cpp's Jinja renderer: ${(e as Error).message}` });
  process.exit(0);
}
say({ ready: true, version: engine.version });

function parseContext(json: string): Record<string, unknown> {
  try {
    return JSON.parse(json) as Record<string, unknown>;
  } catch (e) {
    // NaN and Infinity are valid to Python's json but not to JSON.parse, nor to the addon's numbers
    throw new Error(`the context cannot be passed to llama.cpp's addon: ${(e as Error).message}`, { cause: e });
  }
}

let compiled: { source: string; renderer: Renderer } | null = null;
createInterface({ input: process.stdin }).on("line", (line) => {
  const req = JSON.parse(line) as { template: string; context: string };
  try {
    if (compiled?.source !== req.template) compiled = { source: req.template, renderer: new engine.Renderer(req.template) };
    say({ out: compiled.renderer.render(parseContext(req.context)) });
  } catch (e) {
    say({ error: e instanceof Error ? e.message : String(e) });
  }
});
