// Reads a template file named on the command line; an unreadable one is a usage error (exit 2).
import { readFileSync } from "node:fs";
import { UsageError } from "../commandLine";

export function readTemplate(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
