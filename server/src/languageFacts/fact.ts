// The shape of every language fact: what a name is, how it is called, a short doc, and (filled in
// by whoever measures it) how each engine departs from Jinja2 for it. Facts are plain data; hover,
// completion and later the engine rules read the same records.
import type { EngineId } from "../document";

/** How one engine treats a fact, where it departs from Jinja2 (the reference). */
export interface EngineNote {
  support: "unsupported" | "differs";
  /** What happens there, e.g. "throws 'unknown filter'" or "prints True as 'true'". */
  note: string;
}

export interface Fact {
  name: string;
  /** Call signature as users write it, e.g. `default(default_value='', boolean=false)`; absent for plain values. */
  signature?: string;
  /** One or two sentences of Markdown. */
  doc: string;
  /** Per-engine departures from Jinja2; an engine that is absent behaves as Jinja2 does. */
  engines?: Partial<Record<EngineId, EngineNote>>;
}

/** A value's type, as far as the editor can know it: enough to complete `message.` or `loop.`. */
export type ValueType =
  | { kind: "scalar"; label: string }
  | { kind: "list"; item: ValueType }
  | { kind: "object"; shape: ObjectShape }
  | { kind: "union"; of: ValueType[] };

/** A value with known keys or attributes (a message, a tool call, `loop`). */
export interface ObjectShape {
  name: string;
  /** A Python dict (so `get`, `items`, … work on it), rather than an object such as `loop`. */
  dict: boolean;
  fields: readonly FieldFact[];
}

/** A variable or a field of an object, with its type. */
export interface FieldFact extends Fact {
  type: ValueType;
}

export const scalar = (label: string): ValueType => ({ kind: "scalar", label });
export const listOf = (item: ValueType): ValueType => ({ kind: "list", item });
export const objectOf = (shape: ObjectShape): ValueType => ({ kind: "object", shape });

/** How a type reads in hover and completion details: `list[Message]`, `str | list[ContentPart]`. */
export function typeLabel(t: ValueType): string {
  switch (t.kind) {
    case "scalar":
      return t.label;
    case "list":
      return `list[${typeLabel(t.item)}]`;
    case "object":
      return t.shape.name;
    case "union":
      return t.of.map(typeLabel).join(" | ");
  }
}

/** The fields of an object type (or of every object in a union). */
export function fieldsOf(t: ValueType | null): readonly FieldFact[] {
  if (!t) return [];
  if (t.kind === "object") return t.shape.fields;
  if (t.kind === "union") return t.of.flatMap(fieldsOf);
  return [];
}

/** The members of `t` besides its fields: dict methods for dicts, str methods for strings. */
export function methodKinds(t: ValueType | null): { dict: boolean; str: boolean } {
  const parts = !t ? [] : t.kind === "union" ? t.of : [t];
  return {
    dict: parts.some((p) => (p.kind === "object" && p.shape.dict) || (p.kind === "scalar" && p.label === "dict")),
    str: parts.some((p) => p.kind === "scalar" && p.label === "str"),
  };
}

/** The item type when iterating or indexing `t`. */
export function itemOf(t: ValueType | null): ValueType | null {
  if (!t) return null;
  if (t.kind === "list") return t.item;
  if (t.kind === "union") {
    const items = t.of.map(itemOf).filter((x): x is ValueType => x !== null);
    return items.length === 0 ? null : items.length === 1 ? items[0] : { kind: "union", of: items };
  }
  return null;
}

export function indexByName<T extends { name: string }>(facts: readonly T[]): ReadonlyMap<string, T> {
  return new Map(facts.map((f) => [f.name, f]));
}
