// The preview's dialect columns as the extension runs them: each dialect renders in a helper process of its
// own (dialectWorker.ts) with a heap limit and the preview's time limit per render (LimitedProcess), so that a
// template that exhausts either becomes an error in that column, at the statement its render had reached, never a
// dead extension host. The other
// columns go on. "Test Template Against Model" renders its prompt with the reference dialect the same way.
import { registeredEngines, ENGINE_LABELS } from "../../../../server/src/dialects";
import type { EngineId } from "../../../../server/src/document";
import { LimitedProcess, type LimitedProcessOptions } from "../../helperProcess/limitedProcess";
import { failed, type EngineInput, type EngineOutcome, type PreviewEngine } from "./engine";

/** `command args` start dialectWorker (`node dialectWorker.js`, or `node --import tsx dialectWorker.ts` in tests); the engine id follows. */
export type DialectProcessOptions = LimitedProcessOptions;

/** The dialect of engine `id` in a helper process of its own. */
export function dialectProcessEngine(o: DialectProcessOptions, id: EngineId): PreviewEngine {
  const proc = new LimitedProcess({ ...o, args: [...o.args, id] });
  return {
    id,
    label: ENGINE_LABELS[id],
    real: false,
    note: () => proc.version,
    async render({ doc, json, now, serverArgs }: EngineInput): Promise<EngineOutcome | null> {
      const r = await proc.request({ template: doc.text, context: json, now, serverArgs }, () => doc.text);
      if (!r) return null;
      return r.ok ? (r.reply as unknown as EngineOutcome) : failed(r.message, r.at);
    },
    dispose: () => proc.dispose(),
  };
}

export function dialectProcessEngines(o: DialectProcessOptions): PreviewEngine[] {
  return registeredEngines().map((id) => dialectProcessEngine(o, id));
}
