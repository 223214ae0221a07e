// A small, strict argument parser: unknown flags and missing values are usage errors (exit 2).
export class UsageError extends Error {}

export interface FlagSpec {
  /** Flags that take a value (`--engine x` or `--engine=x`). */
  values?: readonly string[];
  /** Flags that take none. */
  switches?: readonly string[];
}

export interface ParsedArgs {
  positionals: string[];
  values: Map<string, string>;
  switches: Set<string>;
}

export function parseArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith("--") || a === "-") {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    if (spec.values?.includes(name)) {
      const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new UsageError(`--${name} needs a value`);
      if (values.has(name)) throw new UsageError(`--${name} given twice`);
      values.set(name, v);
    } else if (spec.switches?.includes(name) && eq < 0) {
      switches.add(name);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return { positionals, values, switches };
}

export function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${flag} must be one of ${allowed.join(", ")} (got '${value}')`);
  }
  return value as T;
}

/** An integer flag's value, undefined when it is absent; `max` left out: no upper bound. */
export function intOption(flag: string, value: string | undefined, min: number, max?: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^-?\d+$/.test(value) || n < min || (max !== undefined && n > max)) {
    const range = max === undefined ? `>= ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`--${flag} must be an integer ${range} (got '${value}')`);
  }
  return n;
}

/** An on|off flag's value; `def` when it is absent. */
export function onOff(flag: string, value: string | undefined, def: boolean): boolean {
  return value === undefined ? def : oneOf(flag, value, ["on", "off"] as const) === "on";
}
