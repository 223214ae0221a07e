// The template context as node-llama-cpp's addon hands it to the engine (AddonJinjaRenderer.cpp,
// InputConverter): through JS values, so an integral number becomes an Integer — 1.0 is the int 1
// there (llama-server's JSON path would keep a float) — and a number outside int64, NaN or ±inf
// refuses the whole render; strings are UTF-8, so a lone surrogate becomes U+FFFD; nesting deeper
// than 256 is refused.
import { PyDict, Tuple, type Value } from "../../interpreter/kit";
import { fault } from "./values";

const LIMIT = 2 ** 63;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function convert(v: Value, path: string, depth: number): Value {
  if (depth > 256) throw conversion(path, "Template input is too deeply nested or contains a cycle");
  if (typeof v === "string") return v.replace(LONE_SURROGATE, "\ufffd");
  if (typeof v === "bigint" || typeof v === "number") {
    const x = Number(v);
    if (!Number.isFinite(x) || x < -LIMIT || x >= LIMIT) throw conversion(path, "Number is outside the native Jinja numeric range");
    return Number.isInteger(x) ? BigInt(x) : x;
  }
  if (Array.isArray(v)) return v.map((x, i) => convert(x, `${path}[${i}]`, depth + 1));
  if (v instanceof Tuple) return v.items.map((x, i) => convert(x, `${path}[${i}]`, depth + 1));
  if (v instanceof PyDict) {
    const out = new PyDict();
    for (const [k, x] of v.entries()) out.set(String(k), convert(x, `${path}["${String(k)}"]`, depth + 1));
    return out;
  }
  return v;
}

function conversion(path: string, why: string) {
  return fault(`failed to convert input at items${path}: ${why}`, "runtime/value");
}

/** The context after the addon's conversion; throws the addon's error for values it refuses. */
export function llamaContext(ctx: PyDict): PyDict {
  const out = new PyDict();
  for (const [k, v] of ctx.entries()) out.set(String(k), convert(v, `["${String(k)}"]`, 1));
  return out;
}
