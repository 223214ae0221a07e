// The few PEG combinators llama.cpp's autoparser builds its marker extractors from
// (common/peg-parser.cpp): ordered choice, greedy repetition without backtracking, `until` that
// also stops at a delimiter cut off by the end of the input, and named tags (the last one wins).
export type Parser = (input: string, pos: number) => { end: number; tags: [string, string][] } | null;

const ok = (end: number, tags: [string, string][] = []) => ({ end, tags });

export const literal =
  (s: string): Parser =>
  (input, pos) =>
    input.startsWith(s, pos) ? ok(pos + s.length) : null;

/** Everything up to the first delimiter (not consumed); with none, the rest of the input. */
export const until =
  (...delimiters: string[]): Parser =>
  (input, pos) => {
    for (let i = pos; i < input.length; i++) {
      for (const d of delimiters) {
        if (input.startsWith(d, i)) return ok(i);
        // A delimiter the input ends inside of counts as found (common_trie PARTIAL_MATCH).
        if (i + d.length > input.length && d.startsWith(input.slice(i))) return ok(i);
      }
    }
    return ok(input.length);
  };

export const rest: Parser = until();

/** isspace in the C locale. */
export const space: Parser = (input, pos) => {
  let i = pos;
  while (i < input.length && " \t\n\v\f\r".includes(input[i])) i++;
  return ok(i);
};

/** One code point. */
export const any: Parser = (input, pos) => {
  if (pos >= input.length) return null;
  const c = input.codePointAt(pos)!;
  return ok(pos + (c > 0xffff ? 2 : 1));
};

export const end: Parser = (input, pos) => (pos >= input.length ? ok(pos) : null);

export const not =
  (p: Parser): Parser =>
  (input, pos) =>
    p(input, pos) ? null : ok(pos);

export const seq =
  (...ps: Parser[]): Parser =>
  (input, pos) => {
    const tags: [string, string][] = [];
    let at = pos;
    for (const p of ps) {
      const r = p(input, at);
      if (!r) return null;
      tags.push(...r.tags);
      at = r.end;
    }
    return ok(at, tags);
  };

export const choice =
  (...ps: Parser[]): Parser =>
  (input, pos) => {
    for (const p of ps) {
      const r = p(input, pos);
      if (r) return r;
    }
    return null;
  };

export const zeroOrMore =
  (p: Parser): Parser =>
  (input, pos) => {
    const tags: [string, string][] = [];
    let at = pos;
    while (at < input.length) {
      const r = p(input, at);
      if (!r || r.end === at) break;
      tags.push(...r.tags);
      at = r.end;
    }
    return ok(at, tags);
  };

export const optional = (p: Parser): Parser => choice(p, (_i, pos) => ok(pos));

export const tag =
  (name: string, p: Parser): Parser =>
  (input, pos) => {
    const r = p(input, pos);
    return r && ok(r.end, [...r.tags, [name, input.slice(pos, r.end)]]);
  };

/** `<…>` or `[…]`. */
export const marker: Parser = choice(seq(literal("<"), until(">"), literal(">")), seq(literal("["), until("]"), literal("]")));

export interface Tagged {
  success: boolean;
  tags: Record<string, string>;
}

const collect = (r: ReturnType<Parser>): Tagged => {
  const tags: Record<string, string> = {};
  if (r) for (const [k, v] of r.tags) tags[k] = v;
  return { success: r !== null, tags };
};

/** parse_and_extract: from the start of the input (not necessarily to its end). */
export function parse(p: Parser, input: string): Tagged {
  return collect(p(input, 0));
}

/** parse_anywhere_and_extract: from the first position where the parser succeeds. */
export function parseAnywhere(p: Parser, input: string): Tagged {
  for (let i = 0; i < Math.max(input.length, 1); i++) {
    const r = p(input, i);
    if (r) return collect(r);
  }
  return { success: false, tags: {} };
}
