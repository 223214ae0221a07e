// `.chat-template-ignore.json`: findings a project has reviewed and accepts, each with its reason, so a
// CI gate can be strict without being noisy. An entry names a code (`*` at the end matches a family:
// `llamacpp/*`), optionally a file (relative to the ignore file; `*` and `**` globs) and a line range.
// An entry without a reason is an error: an ignore nobody can explain is a finding hidden, not reviewed.
import { readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import picomatch from "picomatch";
import { UsageError } from "../commandLine";

export const IGNORE_FILE = ".chat-template-ignore.json";

export interface IgnoreEntry {
  code: string;
  file: string | null;
  lines: [number, number] | null;
  reason: string;
}

export interface IgnoreList {
  /** The folder file patterns are relative to. */
  base: string;
  entries: IgnoreEntry[];
}

function entryError(path: string, i: number, what: string): UsageError {
  return new UsageError(`${path}: entry ${i + 1}: ${what}`);
}

function parseEntry(path: string, i: number, e: unknown): IgnoreEntry {
  if (typeof e !== "object" || e === null || Array.isArray(e)) throw entryError(path, i, "must be an object");
  const o = e as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!["code", "file", "lines", "reason"].includes(k)) throw entryError(path, i, `unknown key "${k}"`);
  if (typeof o.code !== "string" || !o.code)
    throw entryError(path, i, `"code" must be a finding code such as "llamacpp/throws" or "minja/*"`);
  if (typeof o.reason !== "string" || !o.reason.trim()) throw entryError(path, i, `"reason" is required: say why this finding is accepted`);
  if (o.file !== undefined && typeof o.file !== "string") throw entryError(path, i, `"file" must be a path or glob`);
  let lines: [number, number] | null = null;
  if (o.lines !== undefined) {
    const l = o.lines;
    const ok = Array.isArray(l) && l.length === 2 && l.every((n) => Number.isInteger(n) && n >= 1) && l[0] <= l[1];
    if (!ok) throw entryError(path, i, `"lines" must be [first, last], 1-based`);
    lines = [l[0], l[1]];
  }
  return { code: o.code, file: (o.file as string | undefined) ?? null, lines, reason: o.reason };
}

export function readIgnoreFile(path: string): IgnoreList {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const list = Array.isArray(data) ? data : (data as { ignore?: unknown })?.ignore;
  if (!Array.isArray(list)) throw new UsageError(`${path}: expected an array of entries (or {"ignore": [...]})`);
  return { base: dirname(resolve(path)), entries: list.map((e, i) => parseEntry(path, i, e)) };
}

/** The entry that accepts a finding, if any. `line` and `endLine` are 1-based. */
export function ignoredBy(list: IgnoreList, file: string, code: string, line: number, endLine: number): IgnoreEntry | null {
  const rel = relative(list.base, resolve(file)).split("\\").join("/");
  for (const e of list.entries) {
    const codeOk = e.code.endsWith("*") ? code.startsWith(e.code.slice(0, -1)) : code === e.code;
    if (!codeOk) continue;
    if (e.file !== null && !picomatch.isMatch(rel, e.file, { dot: true })) continue;
    if (e.lines !== null && (endLine < e.lines[0] || line > e.lines[1])) continue;
    return e;
  }
  return null;
}
