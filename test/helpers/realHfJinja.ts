// Runs the real @huggingface/jinja (the exact version pinned in package.json) in process, so tests can
// compare our `hfjinja` dialect with the engine itself rather than with remembered behaviour.
import { Template } from "@huggingface/jinja";

export type EngineResult = { out: string } | { error: string };

export interface RealRenderOptions {
  /**
   * Pins the clock that the engine's `strftime_now` reads. The engine formats the local-time fields of
   * `new Date()` and lets no caller override the global (a context key of that name throws "Variable already
   * declared"), so the helper swaps `Date` for the duration of the render: `now` is the wall-clock time the
   * template sees, whatever the machine's time zone.
   */
  now?: { year: number; month: number; day: number; hour: number; minute: number; second?: number };
}

/** Parses and renders `template` with the real engine; any throw (parse or render) becomes `{ error }`. */
export function renderRealHfJinja(template: string, context: Record<string, unknown>, options: RealRenderOptions = {}): EngineResult {
  const restore = options.now ? pinDate(options.now) : () => {};
  try {
    return { out: new Template(template).render(context) };
  } catch (e) {
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  } finally {
    restore();
  }
}

function pinDate(now: NonNullable<RealRenderOptions["now"]>): () => void {
  const RealDate = Date;
  const pinned = new RealDate(now.year, now.month - 1, now.day, now.hour, now.minute, now.second ?? 0).getTime();
  class PinnedDate extends RealDate {
    constructor(...args: ConstructorParameters<typeof Date> | []) {
      if (args.length === 0) super(pinned);
      else super(...(args as ConstructorParameters<typeof Date>));
    }
    static override now(): number {
      return pinned;
    }
  }
  globalThis.Date = PinnedDate as DateConstructor;
  return () => {
    globalThis.Date = RealDate;
  };
}
