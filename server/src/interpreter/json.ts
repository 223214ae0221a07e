// Reads a JSON context the way Python's json.loads does, which JSON.parse cannot: `1` is an int,
// `1.0` a float (printed "1.0"), 12345678901234567890 stays exact, NaN/Infinity are accepted,
// objects keep key order with the last duplicate winning. Errors carry line and column.
import { PyDict } from "./dict";
import { PyObject, type Value } from "./values";

export class JsonError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${message} at line ${line}, column ${column}`);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const WORDS: [string, Value][] = [
  ["true", true],
  ["false", false],
  ["null", null],
  ["NaN", NaN],
  ["Infinity", Infinity],
  ["-Infinity", -Infinity],
];
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

export function parseJson(text: string): Value {
  let i = 0;
  const fail = (msg: string, at = i): never => {
    const before = text.slice(0, at);
    const line = before.split("\n").length;
    throw new JsonError(msg, line, at - before.lastIndexOf("\n"));
  };
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const value = (depth: number): Value => {
    if (depth > 10_000) fail("JSON nested too deeply");
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const d = new PyDict();
      ws();
      if (text[i] === "}") {
        i++;
        return d;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("Expecting property name enclosed in double quotes");
        const k = string();
        ws();
        if (text[i] !== ":") fail("Expecting ':' delimiter");
        i++;
        d.set(k, value(depth + 1));
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return d;
        }
        fail("Expecting ',' delimiter");
      }
    }
    if (c === "[") {
      i++;
      const a: Value[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return a;
      }
      for (;;) {
        a.push(value(depth + 1));
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return a;
        }
        fail("Expecting ',' delimiter");
      }
    }
    if (c === '"') return string();
    for (const [w, v] of WORDS) {
      if (text.startsWith(w, i)) {
        i += w.length;
        return v;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) return fail("Expecting value");
    i += m[0].length;
    return m[1] === undefined && m[2] === undefined ? BigInt(m[0]) : Number(m[0]);
  };
  const string = (): string => {
    i++;
    let out = "";
    for (;;) {
      const j = i;
      while (i < text.length && text[i] !== '"' && text[i] !== "\\" && text.charCodeAt(i) >= 0x20) i++;
      out += text.slice(j, i);
      if (i >= text.length) fail("Unterminated string starting", j - 1);
      const c = text[i];
      if (c === '"') {
        i++;
        return out;
      }
      if (c !== "\\") fail("Invalid control character");
      const e = text[i + 1];
      if (e === "u") {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("Invalid \\uXXXX escape");
        out += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else if (e !== undefined && Object.hasOwn(ESCAPES, e)) {
        out += ESCAPES[e];
        i += 2;
      } else {
        fail("Invalid \\escape");
      }
    }
  };
  const v = value(0);
  ws();
  if (i < text.length) fail("Extra data");
  return v;
}

/**
 * Converts plain JS data (what a caller without JSON text has) to template values. A JS number
 * cannot say whether it was `1` or `1.0`: integral numbers become ints. Use parseJson for fidelity.
 */
export function fromJS(v: unknown): Value {
  switch (typeof v) {
    case "string":
    case "boolean":
    case "bigint":
      return v;
    case "number":
      return Number.isInteger(v) ? BigInt(v) : v;
    case "undefined":
      return null;
  }
  if (v === null) return null;
  if (Array.isArray(v)) return v.map(fromJS);
  if (v instanceof PyObject) return v;
  if (typeof v === "object") return PyDict.from(Object.entries(v).map(([k, x]) => [k, fromJS(x)]));
  throw new TypeError(`cannot pass a ${typeof v} to a template`);
}
