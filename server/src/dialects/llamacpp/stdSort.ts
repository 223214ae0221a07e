// std::sort as libstdc++ implements it (bits/stl_algo.h: introsort, median-of-three pivot, heapsort
// past the depth limit, final insertion sort in runs of 16). It is not stable, so where the engine's
// comparator calls items equal (equal sort keys, or types value_compare cannot order) the order they
// end up in is this algorithm's, which a stable JS sort would not reproduce.
const THRESHOLD = 16;

export function stdSort<T>(a: T[], less: (x: T, y: T) => boolean): T[] {
  if (a.length > 1) {
    introsortLoop(a, 0, a.length, (31 - Math.clz32(a.length)) * 2, less);
    finalInsertionSort(a, 0, a.length, less);
  }
  return a;
}

function swap<T>(a: T[], i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

function introsortLoop<T>(a: T[], first: number, last: number, depth: number, less: (x: T, y: T) => boolean): void {
  while (last - first > THRESHOLD) {
    if (depth === 0) {
      heapSelect(a, first, last, last, less);
      sortHeap(a, first, last, less);
      return;
    }
    depth--;
    const cut = partitionPivot(a, first, last, less);
    introsortLoop(a, cut, last, depth, less);
    last = cut;
  }
}

function partitionPivot<T>(a: T[], first: number, last: number, less: (x: T, y: T) => boolean): number {
  const mid = first + Math.floor((last - first) / 2);
  moveMedianToFirst(a, first, first + 1, mid, last - 1, less);
  return unguardedPartition(a, first + 1, last, first, less);
}

function moveMedianToFirst<T>(a: T[], result: number, x: number, y: number, z: number, less: (p: T, q: T) => boolean): void {
  if (less(a[x], a[y])) {
    if (less(a[y], a[z])) swap(a, result, y);
    else if (less(a[x], a[z])) swap(a, result, z);
    else swap(a, result, x);
  } else if (less(a[x], a[z])) swap(a, result, x);
  else if (less(a[y], a[z])) swap(a, result, z);
  else swap(a, result, y);
}

function unguardedPartition<T>(a: T[], first: number, last: number, pivot: number, less: (x: T, y: T) => boolean): number {
  for (;;) {
    while (less(a[first], a[pivot])) first++;
    last--;
    while (less(a[pivot], a[last])) last--;
    if (!(first < last)) return first;
    swap(a, first, last);
    first++;
  }
}

function finalInsertionSort<T>(a: T[], first: number, last: number, less: (x: T, y: T) => boolean): void {
  if (last - first > THRESHOLD) {
    insertionSort(a, first, first + THRESHOLD, less);
    for (let i = first + THRESHOLD; i < last; i++) unguardedLinearInsert(a, i, less);
  } else {
    insertionSort(a, first, last, less);
  }
}

function insertionSort<T>(a: T[], first: number, last: number, less: (x: T, y: T) => boolean): void {
  if (first === last) return;
  for (let i = first + 1; i < last; i++) {
    if (less(a[i], a[first])) {
      const v = a[i];
      for (let k = i; k > first; k--) a[k] = a[k - 1];
      a[first] = v;
    } else {
      unguardedLinearInsert(a, i, less);
    }
  }
}

function unguardedLinearInsert<T>(a: T[], last: number, less: (x: T, y: T) => boolean): void {
  const v = a[last];
  let next = last - 1;
  while (less(v, a[next])) {
    a[last] = a[next];
    last = next;
    next--;
  }
  a[last] = v;
}

// ------------------------------------------------------------ heap (std::__partial_sort)

function adjustHeap<T>(a: T[], first: number, hole: number, len: number, value: T, less: (x: T, y: T) => boolean): void {
  const top = hole;
  let child = hole;
  while (child < Math.trunc((len - 1) / 2)) {
    child = 2 * (child + 1);
    if (less(a[first + child], a[first + child - 1])) child--;
    a[first + hole] = a[first + child];
    hole = child;
  }
  if ((len & 1) === 0 && child === Math.trunc((len - 2) / 2)) {
    child = 2 * (child + 1);
    a[first + hole] = a[first + child - 1];
    hole = child - 1;
  }
  // std::__push_heap
  let parent = Math.trunc((hole - 1) / 2);
  while (hole > top && less(a[first + parent], value)) {
    a[first + hole] = a[first + parent];
    hole = parent;
    parent = Math.trunc((hole - 1) / 2);
  }
  a[first + hole] = value;
}

function makeHeap<T>(a: T[], first: number, last: number, less: (x: T, y: T) => boolean): void {
  const len = last - first;
  if (len < 2) return;
  for (let parent = Math.trunc((len - 2) / 2); ; parent--) {
    adjustHeap(a, first, parent, len, a[first + parent], less);
    if (parent === 0) return;
  }
}

function popHeap<T>(a: T[], first: number, last: number, result: number, less: (x: T, y: T) => boolean): void {
  const value = a[result];
  a[result] = a[first];
  adjustHeap(a, first, 0, last - first, value, less);
}

function heapSelect<T>(a: T[], first: number, middle: number, last: number, less: (x: T, y: T) => boolean): void {
  makeHeap(a, first, middle, less);
  for (let i = middle; i < last; i++) if (less(a[i], a[first])) popHeap(a, first, middle, i, less);
}

function sortHeap<T>(a: T[], first: number, last: number, less: (x: T, y: T) => boolean): void {
  while (last - first > 1) {
    last--;
    popHeap(a, first, last, last, less);
  }
}
