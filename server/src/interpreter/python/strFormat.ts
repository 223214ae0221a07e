// Python's str.format / format_map, with field lookups going through the runtime's (sandboxed)
// getattr/getitem, as Jinja2's SandboxedFormatter does.
import { PyDict } from "../dict";
import { Fault } from "../errors";
import type { Runtime } from "../dialect";
import { Markup, type Value } from "../values";
import { escapeHtml } from "./markup";
import { formatValue } from "./formatSpec";
import { reprValue, strValue } from "./repr";

/**
 * `escape`: the format string is a Markup, formatted by markupsafe's EscapeFormatter (Jinja2's
 * SandboxedEscapeFormatter): each field's text is HTML-escaped unless the value is Markup itself.
 */
export function strFormat(
  fmt: string,
  args: readonly Value[],
  kwargs: ReadonlyMap<string, Value> | PyDict,
  rt: Runtime,
  escape = false,
  depth = 0,
): string {
  if (depth > 2) throw Fault.value("Max string recursion exceeded");
  let auto = 0;
  let out = "";
  let i = 0;
  while (i < fmt.length) {
    const c = fmt[i];
    if (c === "}") {
      if (fmt[i + 1] !== "}") throw Fault.value("Single '}' encountered in format string");
      out += "}";
      i += 2;
      continue;
    }
    if (c !== "{") {
      out += c;
      i++;
      continue;
    }
    if (fmt[i + 1] === "{") {
      out += "{";
      i += 2;
      continue;
    }
    // Find the matching '}' (format specs may nest one level of {} themselves).
    let j = i + 1;
    let level = 1;
    while (j < fmt.length && level > 0) {
      if (fmt[j] === "{") level++;
      else if (fmt[j] === "}") level--;
      if (level > 0) j++;
    }
    if (j >= fmt.length)
      throw Fault.value(i + 1 >= fmt.length ? "Single '{' encountered in format string" : "expected '}' before end of string");
    const field = fmt.slice(i + 1, j);
    i = j + 1;
    const m = /^([^.[!:]*)((?:\.[^.[!:]+|\[[^\]]*\])*)(?:!([rsa]))?(?::(.*))?$/s.exec(field);
    if (!m) throw Fault.value("unmatched '{' in format spec");
    const [, name, path, conv, spec = ""] = m;
    let v: Value;
    if (name === "") {
      if (auto < 0) throw Fault.value("cannot switch from manual field specification to automatic field numbering");
      v = positionalArg(args, auto++);
    } else if (/^\d+$/.test(name)) {
      if (auto > 0) throw Fault.value("cannot switch from automatic field numbering to manual field specification");
      auto = -1;
      v = positionalArg(args, Number(name));
    } else {
      const k = kwargs instanceof PyDict ? kwargs.get(name) : kwargs.get(name);
      if (k === undefined) throw new Fault("runtime/key", "KeyError", reprValue(name));
      v = k;
    }
    for (const part of path.match(/\.[^.[]+|\[[^\]]*\]/g) ?? []) {
      if (part[0] === ".") v = rt.getattr(v, part.slice(1));
      else {
        const key = part.slice(1, -1);
        v = rt.getitem(v, /^\d+$/.test(key) ? BigInt(key) : key);
      }
    }
    if (conv === "r" || conv === "a") v = reprValue(v);
    else if (conv === "s") v = strValue(v);
    const fullSpec = spec.includes("{") ? strFormat(spec, args, kwargs, rt, false, depth + 1) : spec;
    out += escape ? escapedField(v, fullSpec) : formatValue(v, fullSpec);
  }
  rt.checkSize(out.length);
  return out;
}

function positionalArg(args: readonly Value[], i: number): Value {
  // Jinja2's sandbox formats with string.Formatter, which indexes the args tuple itself.
  if (i >= args.length) throw new Fault("runtime/index", "IndexError", "tuple index out of range");
  return args[i];
}

/** EscapeFormatter.format_field: Markup goes in as is (and takes no spec), anything else is formatted, then escaped. */
function escapedField(v: Value, spec: string): string {
  if (v instanceof Markup) {
    if (spec) throw Fault.value("Unsupported format specification for Markup.");
    return v.s;
  }
  return escapeHtml(formatValue(v, spec));
}
