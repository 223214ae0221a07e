// "Real llama.cpp": llama.cpp's own C++ Jinja engine through the prebuilt addon of node-llama-cpp
// (`AddonJinjaRenderer`), in a helper Node process (llamacppWorker.ts) because a native render cannot
// be interrupted in process. The addon converts the JSON context itself (1.0 arrives as the int 1).
import { failed, type EngineInput, type EngineOutcome, type PreviewEngine } from "./engine";
import { LineProcess } from "../../helperProcess/lineProcess";

export interface RealLlamaCppOptions {
  /** How to start the worker: `node worker.js`, or `node --import tsx worker.ts` in tests. */
  command: string;
  args: string[];
  timeoutMs: number;
}

/** The engine's words and, where it says, the place: "While executing X at line L, column C …\nError: cause". */
export function parseLlamaCppError(raw: string): { message: string; line: number | null; column: number | null } {
  const text = raw.replace(/^AddonJinjaRenderer: /, "");
  const at = /at line (\d+), column (\d+)/.exec(text);
  const cause = text.lastIndexOf("\nError: ");
  const message =
    cause >= 0 ? text.slice(cause + "\nError: ".length) : text.split("\n")[0].replace(/^failed to (?:render|compile) template: /, "");
  return { message: message.trim(), line: at ? Number(at[1]) : null, column: at ? Number(at[2]) : null };
}

const ID = "real-llamacpp";
const LABEL = "llama.cpp";

export function realLlamaCppEngine(options: RealLlamaCppOptions): PreviewEngine {
  // ELECTRON_RUN_AS_NODE: in VS Code the extension host's executable is Electron, which then runs as Node
  const proc = new LineProcess({ ...options, env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" } });
  return {
    id: ID,
    label: LABEL,
    real: true,
    note: () => (proc.version ? `node-llama-cpp ${proc.version} prebuilt` : null),
    async render({ doc, json }: EngineInput): Promise<EngineOutcome | null> {
      const r = await proc.request({ template: doc.text, context: json });
      if (!r) return null;
      if (!r.ok) return r.unavailable ? { status: "unavailable", reason: r.reason } : failed(r.reason);
      if (typeof r.reply.out === "string") return { status: "ok", output: r.reply.out, chunks: null };
      const { message, line, column } = parseLlamaCppError(String(r.reply.error));
      return { status: "error", output: "", chunks: null, error: { message, code: null, start: null, end: null, line, column } };
    },
    dispose: () => proc.dispose(),
  };
}

/** The column where the bundled llama.cpp does not exist (other platforms): it says why instead of a render. */
export function unavailableLlamaCppEngine(reason: string): PreviewEngine {
  return { id: ID, label: LABEL, real: true, note: () => null, render: () => ({ status: "unavailable", reason }), dispose() {} };
}
