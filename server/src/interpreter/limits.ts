// Resource limits of one render. A template is a program: without them a `{% for %}` over
// range(10**5) nested thrice, or a macro calling itself, would hang the editor.
export interface Limits {
  /** Nodes evaluated plus items processed inside builtins. */
  steps: number;
  /** Longest output, or string/list built on the way, in UTF-16 code units / items. */
  output: number;
  /** Nesting of macro calls and recursive loops. */
  recursion: number;
  /** Bytes the render may add to the JS heap, over what it held when the render started (see heap.ts). */
  memory: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  steps: 10_000_000,
  output: 16 * 1024 * 1024,
  recursion: 200,
  // far above what a chat template holds (its output is at most 32 MB), far below what would take a process down
  memory: 256 * 1024 * 1024,
});
