// A JSON schema (response_format, json_schema, a tool's parameters) checked before llama.cpp converts it to a
// grammar: its size, the alternatives and repetitions the grammar would spell out, and the two things the
// converter cannot take, refused the same way wherever the schema comes from: a `pattern` that is no regular
// expression (ECMA-262, as JSON Schema says), and a `$ref` that is not a pointer into the schema (`#/…`; `#`
// alone, the whole schema in itself, is a recursion llama.cpp does not convert).
import {
  MAX_CONSTRAINT_ALTERNATIVES,
  MAX_CONSTRAINT_CHARS,
  MAX_CONSTRAINT_EXPANSION,
  MAX_CONSTRAINT_NESTING,
  MAX_SCHEMA_LENGTH_BOUND,
} from "./constraintLimits";
import { badRequest, type FieldPath } from "../http/errors";
import type { Fields } from "../http/fields";
import { repetitionAt } from "./grammarCheck";

/** Keywords whose values are data, not schemas: never walked. */
const DATA = new Set(["const", "default", "examples", "enum", "description", "title"]);
/** Keywords whose values map names to schemas: every name may be any word, "description" and "enum" included. */
const MAPS = new Set(["properties", "$defs", "definitions", "patternProperties", "dependentSchemas"]);
const BRANCHES = ["enum", "anyOf", "oneOf", "type"];
const BOUNDS = [
  ["minItems", "maxItems"],
  ["minLength", "maxLength"],
  ["minProperties", "maxProperties"],
] as const;

/** What is wrong with a `pattern`, or undefined. */
function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, "u");
  } catch (e) {
    return `is not a valid regular expression: ${(e as Error).message}`;
  }
  // as in a grammar (grammarCheck.ts), counting a group as long as its text
  const groups: number[] = [];
  let element = 0;
  let expanded = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    const from = i;
    if (c === "\\") i++;
    else if (c === "[") {
      while (i < pattern.length && pattern[i] !== "]") i += pattern[i] === "\\" ? 2 : 1;
    } else if (c === "(" && groups.push(i) > MAX_CONSTRAINT_NESTING) return `nests groups deeper than ${MAX_CONSTRAINT_NESTING} levels`;
    else if (c === ")") {
      element = i - (groups.pop() ?? i) + 1;
      continue;
    } else if (c === "{") {
      const r = repetitionAt(pattern, i);
      if (r?.problem) return `at character ${i + 1}: ${r.problem}`;
      if (r && (expanded += element * r.copies) > MAX_CONSTRAINT_EXPANSION)
        return `at character ${i + 1}: repetitions copy more than ${MAX_CONSTRAINT_EXPANSION} characters`;
      if (r) i = r.end - 1;
      continue;
    }
    element = i - from + 1;
  }
  return undefined;
}

/** Throws a 400 naming the keyword (its path under `path`) that passes a limit or cannot be converted. */
export function checkJsonSchema(schema: unknown, path: FieldPath): void {
  const chars = JSON.stringify(schema).length;
  if (chars > MAX_CONSTRAINT_CHARS)
    throw badRequest(`has ${chars} characters as JSON, more than the limit of ${MAX_CONSTRAINT_CHARS}`, path);
  let alternatives = 0;
  const stack: { node: unknown; at: FieldPath }[] = [{ node: schema, at: path }];
  while (stack.length) {
    const { node, at } = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (Array.isArray(node)) {
      node.forEach((x, i) => stack.push({ node: x, at: [...at, i] }));
      continue;
    }
    const o = node as Record<string, unknown>;
    for (const key of BRANCHES) {
      const n = Array.isArray(o[key]) ? (o[key] as unknown[]).length : 0;
      if ((alternatives += n) > MAX_CONSTRAINT_ALTERNATIVES)
        throw badRequest(
          `the schema has more than ${MAX_CONSTRAINT_ALTERNATIVES} alternatives (enum values, anyOf/oneOf branches, types, properties)`,
          [...at, key],
        );
    }
    if (
      typeof o.properties === "object" &&
      o.properties !== null &&
      (alternatives += Object.keys(o.properties).length) > MAX_CONSTRAINT_ALTERNATIVES
    )
      throw badRequest(
        `the schema has more than ${MAX_CONSTRAINT_ALTERNATIVES} alternatives (enum values, anyOf/oneOf branches, types, properties)`,
        [...at, "properties"],
      );
    for (const [lo, hi] of BOUNDS) {
      for (const key of [lo, hi]) {
        if (typeof o[key] === "number" && (o[key] as number) > MAX_SCHEMA_LENGTH_BOUND)
          throw badRequest(`${o[key]} is more than the limit of ${MAX_SCHEMA_LENGTH_BOUND} repetitions`, [...at, key]);
      }
      if (typeof o[lo] === "number" && typeof o[hi] === "number" && (o[lo] as number) > (o[hi] as number))
        throw badRequest(`${o[lo]} is above ${hi} ${o[hi]}: nothing matches`, [...at, lo]);
    }
    if (typeof o.pattern === "string") {
      const problem = patternProblem(o.pattern);
      if (problem) throw badRequest(problem, [...at, "pattern"]);
    }
    if (typeof o.$ref === "string" && !o.$ref.startsWith("#/"))
      throw badRequest(
        `'${o.$ref}' cannot be converted: only references into the schema ('#/$defs/…') are supported, and '#' (the whole schema within itself) is not`,
        [...at, "$ref"],
      );
    for (const [key, child] of Object.entries(o)) {
      if (DATA.has(key)) continue;
      if (MAPS.has(key) && typeof child === "object" && child !== null && !Array.isArray(child)) {
        for (const [name, s] of Object.entries(child)) stack.push({ node: s, at: [...at, key, name] });
      } else stack.push({ node: child, at: [...at, key] });
    }
  }
}

/** Each OpenAI-shaped tool's `function.parameters` in the request's `tools`. */
export function checkToolSchemas(f: Fields): void {
  f.objects("tools")?.forEach((t) => {
    const fn = t.object("function");
    if (fn?.has("parameters")) checkJsonSchema(fn.raw("parameters"), fn.at("parameters"));
  });
}
