// What the preview asks of an engine, whether one of our dialects (synchronous, with provenance; the
// extension runs each in a helper process with limits, dialectProcess.ts) or a real engine in another process
// (asynchronous, output and error only).
import { renderRequest, ServerArgsError, withServerArgs } from "../../../../server/src/analysis";
import { dialectFor, registeredEngines, ENGINE_LABELS } from "../../../../server/src/dialects";
import type { TemplateDocument } from "../../../../server/src/document";
import type { Chunk, PyDict, WallClock } from "../../../../server/src/interpreter";

export interface EngineInput {
  doc: TemplateDocument;
  context: PyDict;
  /** The context as Python-faithful JSON (context.ts), for engines in other processes. */
  json: string;
  now: WallClock;
  /** chatTemplate.llamaServer.args: the flags the user's llama-server starts with (for the llama-server column). */
  serverArgs?: readonly string[];
}

export interface EngineError {
  message: string;
  code: string | null;
  /** Offsets into the template where the engine says; null when it gives only a line (or nothing). */
  start: number | null;
  end: number | null;
  /** 1-based. */
  line: number | null;
  column: number | null;
}

export type EngineOutcome =
  | { status: "ok"; output: string; chunks: readonly Chunk[] | null }
  | { status: "error"; output: string; chunks: readonly Chunk[] | null; error: EngineError }
  | { status: "unavailable"; reason: string };

export interface PreviewEngine {
  id: string;
  label: string;
  real: boolean;
  /** What the engine turned out to be (a real engine's version), once known. */
  note(): string | null;
  /** null: a newer render replaced this one before it ran. */
  render(input: EngineInput): EngineOutcome | Promise<EngineOutcome | null>;
  dispose(): void;
}

/** An error of no engine's (a helper process that died, an internal error), at the place the render had reached if known. */
export function failed(reason: string, at?: { start: number; end: number; line: number; column: number }): EngineOutcome {
  return {
    status: "error",
    output: "",
    chunks: null,
    error: { message: reason, code: null, start: null, end: null, line: null, column: null, ...at },
  };
}

/** The reference every other engine is compared with. */
export const REFERENCE_ENGINE = "jinja2";

/** One preview engine per registered dialect, in the registry's order (the reference first). */
export function dialectEngines(): PreviewEngine[] {
  return registeredEngines().map((id) => {
    const dialect = dialectFor(id)!;
    return {
      id,
      label: ENGINE_LABELS[id],
      real: false,
      note: () => dialect.version,
      render({ doc, context, now, serverArgs }): EngineOutcome {
        let served;
        try {
          served = withServerArgs(dialect, serverArgs ?? []);
        } catch (e) {
          if (e instanceof ServerArgsError) return failed(`chatTemplate.llamaServer.args: ${e.message}`);
          throw e;
        }
        // llama-server renders what its chat layer builds from the conversation (analysis/chatLayer)
        const r = renderRequest(doc, context, { dialect: served, now });
        if (!r.error) return { status: "ok", output: r.output, chunks: r.chunks };
        const p = doc.lines.positionAt(r.error.start);
        const error = {
          message: r.error.message,
          code: r.error.code,
          start: r.error.start,
          end: r.error.end,
          line: p.line + 1,
          column: p.character + 1,
        };
        return { status: "error", output: r.output, chunks: r.chunks, error };
      },
      dispose() {},
    };
  });
}
