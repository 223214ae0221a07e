// How llama.cpp's autoparser diffs two renders (common/chat-auto-parser-helpers.cpp): the outputs are
// cut into markers (`<…>`, `[…]`) and text, whole equal segments are peeled off both ends, then
// the characters of the remainders. `left`/`right` are what only one render has.
export interface DiffSplit {
  prefix: string;
  suffix: string;
  left: string;
  right: string;
}

interface Segment {
  marker: boolean;
  value: string;
}

const isSpace = (c: string): boolean => " \t\n\v\f\r".includes(c);

export function trimWhitespace(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isSpace(s[a])) a++;
  while (b > a && isSpace(s[b - 1])) b--;
  return s.slice(a, b);
}

export function trimLeadingWhitespace(s: string): string {
  let a = 0;
  while (a < s.length && isSpace(s[a])) a++;
  return s.slice(a);
}

export function segmentize(text: string): Segment[] {
  const out: Segment[] = [];
  let opener = "";
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (!opener && (c === "<" || c === "[")) {
      if (last < i) out.push({ marker: false, value: text.slice(last, i) });
      last = i;
      opener = c;
    } else if (opener && ((opener === "<" && c === ">") || (opener === "[" && c === "]"))) {
      out.push({ marker: true, value: text.slice(last, i + 1) });
      last = i + 1;
      opener = "";
    }
  }
  if (last < text.length) out.push({ marker: false, value: text.slice(last) });
  return out;
}

export function pruneWhitespaceSegments(segments: Segment[]): Segment[] {
  return segments.filter((s) => trimWhitespace(s.value) !== "");
}

const same = (a: Segment, b: Segment): boolean => a.marker === b.marker && a.value === b.value;

function commonPrefixLength(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

function commonSuffixLength(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/** calculate_diff_split, step for step (segment indices stand in for the C++ iterators). */
export function diffSplit(left: string, right: string): DiffSplit {
  const result: DiffSplit = { prefix: "", suffix: "", left: "", right: "" };
  const L = segmentize(left);
  const R = segmentize(right);
  if (L.length === 0) return { ...result, right };
  if (R.length === 0) return { ...result, left };
  let ls = 0;
  let le = L.length - 1;
  let rs = 0;
  let re = R.length - 1;
  let leftConsumed = false;
  let rightConsumed = false;
  while (ls !== le && rs !== re) {
    let advanced = false;
    if (same(L[ls], R[rs])) {
      result.prefix += L[ls].value;
      ls++;
      rs++;
      advanced = true;
    }
    if (same(L[le], R[re])) {
      result.suffix = L[le].value + result.suffix;
      if (ls !== le) le--;
      else leftConsumed = true;
      if (rs !== re) re--;
      else rightConsumed = true;
      advanced = true;
    }
    if (!advanced) break;
  }
  if (ls === le && rs !== re) {
    if (same(L[ls], R[re])) {
      result.suffix = R[re].value + result.suffix;
      re--;
      leftConsumed = true;
    } else if (same(L[ls], R[rs])) {
      result.prefix += R[rs].value;
      rs++;
      leftConsumed = true;
    }
  } else if (rs === re && ls !== le) {
    if (same(L[le], R[rs])) {
      result.suffix = L[le].value + result.suffix;
      le--;
      rightConsumed = true;
    } else if (same(L[ls], R[rs])) {
      result.prefix += L[ls].value;
      ls++;
      rightConsumed = true;
    }
  } else if (ls === le && rs === re && same(L[ls], R[rs]) && L[ls].marker) {
    result.prefix += R[rs].value;
    leftConsumed = true;
    rightConsumed = true;
  }
  const textSuffix = !L[le].marker && !R[re].marker;
  const textPrefix = !R[rs].marker && !L[ls].marker;
  const join = (segs: Segment[], from: number, to: number): string =>
    segs
      .slice(from, to)
      .map((s) => s.value)
      .join("");
  const remLeft = join(L, ls, leftConsumed ? le : le + 1);
  const remRight = join(R, rs, rightConsumed ? re : re + 1);
  const suffixLength = textSuffix ? commonSuffixLength(remLeft, remRight) : 0;
  const prefixLength = textPrefix
    ? commonPrefixLength(remLeft.slice(0, remLeft.length - suffixLength), remRight.slice(0, remRight.length - suffixLength))
    : 0;
  result.prefix += remLeft.slice(0, prefixLength);
  result.suffix = remLeft.slice(remLeft.length - suffixLength) + result.suffix;
  result.left = remLeft.slice(prefixLength, remLeft.length - suffixLength);
  result.right = remRight.slice(prefixLength, remRight.length - suffixLength);
  if (result.left === "" && result.right === "") {
    result.prefix = left;
    result.suffix = "";
  }
  // When left is all shared with right, the prefix/suffix peeling can rotate the diff.
  if (result.left === "" && result.right !== "" && left.length <= right.length && right.startsWith(left)) {
    result.prefix = left;
    result.suffix = "";
    result.right = right.slice(left.length);
  }
  return result;
}
