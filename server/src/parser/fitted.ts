// The lists of a parsed tree without spare room. An array grown by `push` keeps room for 16 more items, and
// the one-item bodies, branch and argument lists of a 10 MB template made that a third of its tree.

/** `list`, or a copy of it holding no spare room. */
export function fitted<T>(list: T[]): T[] {
  return list.length === 0 ? list : list.slice();
}
