// `chat-template check [--engines LIST] [--format text|json] FILE...`
import { readFileSync } from "node:fs";
import { TemplateDocument } from "../document";
import { validate } from "../services/diagnostics";
import { DEFAULT_ENGINES, ENGINE_IDS, type Diagnostic, type EngineId } from "../types";
import { oneOf, parseArgs, UsageError } from "./args";
import type { CommandIO } from "./io";

export const usage = "chat-template check [--engines LIST] [--format text|json] FILE...";

export function parseEngineList(list: string): EngineId[] {
  const engines = list.split(",").map((s) => s.trim()).filter(Boolean);
  if (engines.length === 0) throw new UsageError("--engines needs at least one engine");
  return engines.map((e) => oneOf("engines", e, ENGINE_IDS));
}

interface FileReport {
  file: string;
  diagnostics: {
    line: number;
    column: number;
    endLine: number;
    endColumn: number;
    severity: Diagnostic["severity"];
    code: string;
    engine: EngineId | null;
    message: string;
  }[];
}

export function checkCommand(argv: string[], io: CommandIO): number {
  const args = parseArgs(argv, { values: ["engines", "format"] });
  const format = oneOf("format", args.values.get("format") ?? "text", ["text", "json"] as const);
  const engines = args.values.has("engines") ? parseEngineList(args.values.get("engines")!) : DEFAULT_ENGINES;
  if (args.positionals.length === 0) throw new UsageError("no template file given");
  let failed = false;
  const reports: FileReport[] = [];
  for (const file of args.positionals) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    const doc = new TemplateDocument(text);
    const diagnostics = validate(doc, { engines }).map((d) => {
      const s = doc.lines.positionAt(d.start);
      const e = doc.lines.positionAt(d.end);
      return {
        line: s.line + 1,
        column: s.character + 1,
        endLine: e.line + 1,
        endColumn: e.character + 1,
        severity: d.severity,
        code: d.code,
        engine: d.engine,
        message: d.message,
      };
    });
    if (diagnostics.some((d) => d.severity === "error")) failed = true;
    reports.push({ file, diagnostics });
  }
  if (format === "json") {
    io.stdout(JSON.stringify(reports, null, 2) + "\n");
  } else {
    for (const r of reports) {
      for (const d of r.diagnostics) {
        io.stdout(`${r.file}:${d.line}:${d.column}: ${d.severity}: ${d.message.replace(/\n/g, " ")} [${d.code}]\n`);
      }
    }
  }
  return failed ? 1 : 0;
}
