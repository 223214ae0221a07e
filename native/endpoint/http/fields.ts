// Typed reads of a JSON request body. A known field of the wrong type is a 400 that names the field and
// what it got; fields we do not know are left alone (clients send their own extras). null counts as absent.
import { badRequest, type FieldPath } from "./errors";

function describe(v: unknown): string {
  if (Array.isArray(v)) return "an array";
  if (v === null) return "null";
  if (typeof v === "object") return "an object";
  const shown = JSON.stringify(v);
  return `${typeof v} ${shown.length > 40 ? shown.slice(0, 40) + "…" : shown}`;
}

export function wrongType(path: FieldPath, expected: string, got: unknown): Error {
  return badRequest(`must be ${expected}, got ${describe(got)}`, path);
}

export class Fields {
  private constructor(
    readonly value: Record<string, unknown>,
    readonly path: FieldPath,
  ) {}

  static of(v: unknown, path: FieldPath, what = "a JSON object"): Fields {
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw wrongType(path, what, v);
    return new Fields(v as Record<string, unknown>, path);
  }

  has(key: string): boolean {
    return this.value[key] !== undefined && this.value[key] !== null;
  }

  /** The raw value, for fields passed on as they are. */
  raw(key: string): unknown {
    return this.has(key) ? this.value[key] : undefined;
  }

  at(key: string | number): FieldPath {
    return [...this.path, key];
  }

  need<T>(key: string, read: (this: Fields, key: string) => T | undefined): T {
    const v = read.call(this, key);
    if (v === undefined) throw badRequest("required field is missing", this.at(key));
    return v;
  }

  string(key: string): string | undefined {
    const v = this.raw(key);
    if (v !== undefined && typeof v !== "string") throw wrongType(this.at(key), "a string", v);
    return v as string | undefined;
  }

  boolean(key: string): boolean | undefined {
    const v = this.raw(key);
    if (v !== undefined && typeof v !== "boolean") throw wrongType(this.at(key), "a boolean", v);
    return v as boolean | undefined;
  }

  number(key: string, min = -Infinity, max = Infinity): number | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (typeof v !== "number" || !Number.isFinite(v)) throw wrongType(this.at(key), "a number", v);
    if (v < min || v > max) throw badRequest(`must be from ${min} to ${max}, got ${v}`, this.at(key));
    return v;
  }

  integer(key: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (typeof v !== "number" || !Number.isInteger(v)) throw wrongType(this.at(key), "an integer", v);
    if (v < min || v > max) throw badRequest(`must be from ${min} to ${max}, got ${v}`, this.at(key));
    return v;
  }

  array(key: string): unknown[] | undefined {
    const v = this.raw(key);
    if (v !== undefined && !Array.isArray(v)) throw wrongType(this.at(key), "an array", v);
    return v as unknown[] | undefined;
  }

  object(key: string): Fields | undefined {
    return this.has(key) ? Fields.of(this.value[key], this.at(key), "an object") : undefined;
  }

  /** A string or a list of strings (stop sequences), as a list. */
  strings(key: string): string[] | undefined {
    const v = this.raw(key);
    if (v === undefined) return undefined;
    if (typeof v === "string") return [v];
    if (!Array.isArray(v)) throw wrongType(this.at(key), "a string or an array of strings", v);
    v.forEach((s, i) => {
      if (typeof s !== "string") throw wrongType(this.at(key).concat(i), "a string", s);
    });
    return v as string[];
  }

  /** Each element of an array field as Fields. */
  objects(key: string): Fields[] | undefined {
    return this.array(key)?.map((x, i) => Fields.of(x, this.at(key).concat(i), "an object"));
  }
}
