// SARIF 2.1.0 output of `check`, what GitHub code scanning and other CI dashboards read: one run, one
// rule per finding code, results located by 1-based line and UTF-16 column (declared in `columnKind`,
// as VS Code counts them), and findings the ignore file accepts kept as suppressed results with their
// reason, so a dashboard shows what was reviewed rather than losing it.
import { relative } from "node:path";
import type { Severity } from "../document";

export interface SarifFinding {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: Severity;
  code: string;
  message: string;
  /** The ignore file's reason, when it accepts this finding. */
  suppressedBecause: string | null;
}

const LEVEL: Record<Severity, "error" | "warning" | "note"> = { error: "error", warning: "warning", information: "note", hint: "note" };

/** The rule's one-line description: the family and the code's own words. */
function describe(code: string): string {
  const [family, name] = code.split("/");
  const what = family === "security" ? "security" : family === "syntax" ? "syntax" : `${family} engine`;
  return `${what}: ${(name ?? code).replace(/-/g, " ")}`;
}

export function sarifLog(findings: readonly SarifFinding[], tool: { version: string; informationUri: string }): object {
  const codes = [...new Set(findings.map((f) => f.code))].sort();
  const uri = (file: string) => relative(process.cwd(), file).split("\\").join("/");
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "chat-template",
            version: tool.version,
            informationUri: tool.informationUri,
            rules: codes.map((id) => ({ id, shortDescription: { text: describe(id) } })),
          },
        },
        columnKind: "utf16CodeUnits",
        results: findings.map((f) => ({
          ruleId: f.code,
          ruleIndex: codes.indexOf(f.code),
          level: LEVEL[f.severity],
          message: { text: f.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: uri(f.file) },
                region: { startLine: f.line, startColumn: f.column, endLine: f.endLine, endColumn: f.endColumn },
              },
            },
          ],
          ...(f.suppressedBecause !== null ? { suppressions: [{ kind: "external", justification: f.suppressedBecause }] } : {}),
        })),
      },
    ],
  };
}
