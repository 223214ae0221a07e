// Character differences between the reference engine's output and another engine's, as ranges in
// both strings, so the preview can mark exactly the bytes an engine renders differently.
// Myers' O(ND) algorithm on UTF-16 units after trimming the common prefix and suffix; past `maxEdits`
// the whole differing middle is one change, which keeps a keystroke's re-render bounded.

/** `a[aStart, aEnd)` in the reference became `b[bStart, bEnd)` in the other output; either side may be empty. */
export interface Change {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

export function diffChanges(a: string, b: string, maxEdits = 2000): Change[] {
  let pre = 0;
  const minLen = Math.min(a.length, b.length);
  while (pre < minLen && a.charCodeAt(pre) === b.charCodeAt(pre)) pre++;
  let suf = 0;
  while (suf < minLen - pre && a.charCodeAt(a.length - 1 - suf) === b.charCodeAt(b.length - 1 - suf)) suf++;
  const aEnd = a.length - suf;
  const bEnd = b.length - suf;
  if (pre === aEnd && pre === bEnd) return [];
  const raw = myers(a, b, pre, aEnd, pre, bEnd, maxEdits) ?? [{ aStart: pre, aEnd, bStart: pre, bEnd }];
  return mergeShortEqualities(raw).map((c) => widenToCodePoints(c, a, b));
}

/** The edit script as changes, or null when it needs more than maxEdits insertions and deletions. */
function myers(a: string, b: string, a0: number, a1: number, b0: number, b1: number, maxEdits: number): Change[] | null {
  const n = a1 - a0;
  const m = b1 - b0;
  const max = Math.min(n + m, maxEdits);
  const off = max + 1;
  // v[off + k]: furthest x on diagonal k; step d writes only diagonals of d's parity, so one array serves
  const v = new Int32Array(2 * max + 3);
  // trace[d] keeps the frontier before step d, diagonals -d..d (what backtracking step d reads): D² ints in all
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(off - d, off + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a.charCodeAt(a0 + x) === b.charCodeAt(b0 + y)) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m, d, a0, b0);
    }
  }
  return null;
}

/** Walks the saved frontiers back from (n, m), one edit per step, grouping adjacent edits into changes. */
function backtrack(trace: Int32Array[], n: number, m: number, dEnd: number, a0: number, b0: number): Change[] {
  const changes: Change[] = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const at = (k: number) => trace[d][k + d];
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    // the edit goes from (prevX, prevY) one step down (an insertion) or right (a deletion); then equal characters follow
    const edit: Change = {
      aStart: a0 + prevX,
      aEnd: a0 + (down ? prevX : prevX + 1),
      bStart: b0 + prevY,
      bEnd: b0 + (down ? prevY + 1 : prevY),
    };
    const next = changes[0];
    if (next && next.aStart === edit.aEnd && next.bStart === edit.bEnd) {
      next.aStart = edit.aStart;
      next.bStart = edit.bStart;
    } else {
      changes.unshift(edit);
    }
    x = prevX;
    y = prevY;
  }
  return changes;
}

const size = (c: Change) => Math.max(c.aEnd - c.aStart, c.bEnd - c.bStart);

/** `None`→`null` should read as one change, not four scattered letters: absorb equalities no longer than both neighbours. */
function mergeShortEqualities(changes: Change[]): Change[] {
  const out: Change[] = [];
  for (const c of changes) {
    const prev = out[out.length - 1];
    const gap = prev ? c.aStart - prev.aEnd : Infinity;
    if (prev && gap <= size(prev) && gap <= size(c)) {
      prev.aEnd = c.aEnd;
      prev.bEnd = c.bEnd;
    } else {
      out.push({ ...c });
    }
  }
  return out;
}

const isLow = (s: string, i: number) => i > 0 && i < s.length && (s.charCodeAt(i) & 0xfc00) === 0xdc00;

/** Never split a surrogate pair: 😀 and 😁 share their first unit, yet differ as characters. */
function widenToCodePoints(c: Change, a: string, b: string): Change {
  let { aStart, aEnd, bStart, bEnd } = c;
  while (isLow(a, aStart) || isLow(b, bStart)) {
    aStart--;
    bStart--;
  }
  while (isLow(a, aEnd) || isLow(b, bEnd)) {
    aEnd++;
    bEnd++;
  }
  return { aStart, aEnd, bStart, bEnd };
}

/** Where an offset of the other output falls in the reference: shifted past changes, the change's start inside one. */
export function toReferenceOffset(changes: readonly Change[], offset: number): number {
  let delta = 0;
  for (const c of changes) {
    if (offset < c.bStart) break;
    if (offset < c.bEnd) return c.aStart + Math.min(offset - c.bStart, Math.max(0, c.aEnd - c.aStart - 1));
    delta = c.aEnd - c.bEnd;
  }
  return offset + delta;
}
