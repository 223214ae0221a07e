// Keeps the run's logs as artifacts and finds the errors the extension host logged.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { ExitReport } from "./workbench";

export function saveLogs(serverLogsDir: string, workbenchLogs: ExitReport["logs"], dest: string): void {
  if (existsSync(serverLogsDir)) cpSync(serverLogsDir, join(dest, "server"), { recursive: true });
  for (const { relativePath, contents } of workbenchLogs) {
    const file = join(dest, "workbench", relativePath);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, contents);
  }
}

// `[error]` lines of the extension host's logs (its own and each extension's output channels), as
// "file: line". Everything under an exthost* folder of the server's logs counts.
export function extensionHostErrors(serverLogsDir: string): string[] {
  const errors: string[] = [];
  const walk = (dir: string, inExtHost: boolean) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, inExtHost || entry.name.startsWith("exthost"));
      else if (inExtHost && entry.name.endsWith(".log")) {
        for (const line of readFileSync(path, "utf8").split("\n")) {
          if (line.includes("[error]")) errors.push(`${relative(serverLogsDir, path)}: ${line}`);
        }
      }
    }
  };
  if (existsSync(serverLogsDir)) walk(serverLogsDir, false);
  return errors;
}
