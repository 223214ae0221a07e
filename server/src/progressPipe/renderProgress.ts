// Where this process's renders are in their template: the statement the interpreter entered last, kept in
// shared memory so that another thread can read it while the rendering thread is busy, and can have passed it
// on before that thread dies (an exhausted heap or a V8 abort ends the process with no chance to say where). A
// helper process (the language server's analysis process, the extension host's render helpers) reports it to
// the process that started it (reportProgress.ts, progressThread.ts), which places the failure there. Each render says which text it runs, because an analysis also renders
// texts that are not the document (rewritten templates for quick fixes, samples of a builtin): a position is
// the document's only when the render that wrote it was of the text being watched.

const buffer = new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT);
/** The watched text's tag while a render of it runs, 0 while a render of another text runs. */
const tag = new Int32Array(buffer, 0, 1);

/**
 * [start, end] of the statement a render entered last. The interpreter stores into it directly, two plain stores
 * per statement (through a function imported from another module, the calls cost ~20 % of a statement-only loop).
 */
export const renderPosition = new Int32Array(buffer, Int32Array.BYTES_PER_ELEMENT, 2);

/** The shared memory itself, for the thread that reads it (readRenderProgress). */
export const renderProgressBuffer = buffer;

let watched: string | null = null;
let watchedTag = 0;

/** From now on, renders of `text` mark their positions with `tag` (not 0); renders of any other text with 0. */
export function watchRenders(text: string, tagOfText: number): void {
  watched = text;
  watchedTag = tagOfText;
}

/** A render of `source` starts: its positions are marked as the watched text's or not. */
export function renderStarting(source: string): void {
  tag[0] = source === watched ? watchedTag : 0;
}

export interface RenderPosition {
  /** The watched text's tag, or 0 when the last render was of another text. */
  tag: number;
  start: number;
  end: number;
}

/**
 * The last position in `shared` (renderProgressBuffer, lent to another thread). Read twice: a read that
 * overlapped the rendering thread's stores differs from the second and is dropped (the next read takes it).
 */
export function readRenderProgress(shared: SharedArrayBuffer): RenderPosition | null {
  const c = new Int32Array(shared);
  const [t, start, end] = c;
  return t === c[0] && start === c[1] && end === c[2] ? { tag: t, start, end } : null;
}
