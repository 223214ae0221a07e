// Checks a JSON value against the part of JSON Schema that the project's schemas use (type, required,
// properties, items, anyOf, enum, const, local $ref), so a test can show that a schema accepts what the
// extension accepts. Returns the problems found, as "path: what".
type Schema = Record<string, unknown>;

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

export function validate(value: unknown, schema: Schema, root: Schema = schema, path = "$"): string[] {
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.replace("#/definitions/", "");
    return validate(value, (root.definitions as Record<string, Schema>)[name], root, path);
  }
  const problems: string[] = [];
  if (schema.type !== undefined) {
    const allowed = ([] as string[]).concat(schema.type as string);
    const t = typeOf(value);
    if (!allowed.includes(t) && !(t === "integer" && allowed.includes("number"))) return [`${path}: is ${t}, not ${allowed.join("|")}`];
  }
  if (schema.enum && !(schema.enum as unknown[]).includes(value)) problems.push(`${path}: not one of ${JSON.stringify(schema.enum)}`);
  if ("const" in schema && schema.const !== value) problems.push(`${path}: is not ${JSON.stringify(schema.const)}`);
  if (schema.anyOf && !(schema.anyOf as Schema[]).some((s) => validate(value, s, root, path).length === 0))
    problems.push(`${path}: matches no alternative`);
  if (typeOf(value) === "object") {
    const obj = value as Record<string, unknown>;
    for (const k of (schema.required as string[] | undefined) ?? []) if (!(k in obj)) problems.push(`${path}: missing '${k}'`);
    for (const [k, s] of Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {})) {
      if (k in obj) problems.push(...validate(obj[k], s, root, `${path}.${k}`));
    }
  }
  if (Array.isArray(value) && schema.items)
    value.forEach((v, i) => problems.push(...validate(v, schema.items as Schema, root, `${path}[${i}]`)));
  return problems;
}
