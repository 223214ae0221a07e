// The preview's dialect columns as the extension runs them: each dialect renders in a helper process of its
// own (dialectWorker.ts) with a heap limit and the preview's time limit per render, so that a template that
// exhausts either becomes an error in that column, never a dead extension host. The other columns go on.
import { registeredEngines } from "../../../../server/src/dialects";
import { ENGINE_LABELS } from "../../../../server/src/document";
import { failed, type EngineInput, type EngineOutcome, type PreviewEngine } from "./engine";
import { LineProcess } from "./lineProcess";

export interface DialectProcessOptions {
  /** How to start a helper: `node dialectWorker.js`, or `node --import tsx dialectWorker.ts` in tests; the engine id follows. */
  command: string;
  args: string[];
  timeoutMs: number;
  /** Each helper's V8 heap (--max-old-space-size). */
  memoryMb: number;
}

const HEAP_EXHAUSTED = /heap out of memory|Reached heap limit|invalid (size|array length|table size)/i;

/** Why the helper gave no outcome, in the preview's words. */
function stopped(reason: string, stderr: string, o: DialectProcessOptions): string {
  if (HEAP_EXHAUSTED.test(stderr)) return `this template exhausted the render memory limit (${o.memoryMb} MB); its process was stopped`;
  if (reason.startsWith("no answer within"))
    return `this template ran past the render time limit (${o.timeoutMs / 1000} s); its process was stopped`;
  return `the render process ended: ${reason}`;
}

export function dialectProcessEngines(o: DialectProcessOptions): PreviewEngine[] {
  return registeredEngines().map((id) => {
    const proc = new LineProcess({
      command: o.command,
      args: [`--max-old-space-size=${o.memoryMb}`, ...o.args, id],
      // in VS Code, process.execPath is Electron, which runs as plain Node with ELECTRON_RUN_AS_NODE
      env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" },
      timeoutMs: o.timeoutMs,
    });
    return {
      id,
      label: ENGINE_LABELS[id],
      real: false,
      note: () => proc.version,
      async render({ doc, json, now }: EngineInput): Promise<EngineOutcome | null> {
        const r = await proc.request({ template: doc.text, context: json, now });
        if (!r) return null;
        return r.ok ? (r.reply as unknown as EngineOutcome) : failed(stopped(r.reason, r.stderr ?? "", o));
      },
      dispose: () => proc.dispose(),
    };
  });
}
