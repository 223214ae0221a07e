// "Click in the output, see the template": the chunk of a render that wrote a given output offset.
import type { Chunk } from "../../../../server/src/interpreter";

/**
 * The chunk covering `offset` (chunks are in output order and do not overlap). A click just past the
 * end of the output, or on a gap no chunk covers, takes the nearest chunk before it.
 */
export function chunkAt(chunks: readonly Chunk[], offset: number): Chunk | undefined {
  let lo = 0;
  let hi = chunks.length - 1;
  let best: Chunk | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = chunks[mid];
    if (c.start <= offset) {
      if (offset < c.end) return c;
      best = c;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best ?? chunks[0];
}
