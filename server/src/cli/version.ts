// `chat-template --version`: the version of the package this command came from (a checkout, the npm package,
// or the .vsix), read from its package.json so that it cannot drift from what was published.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../commandLine";

export function versionText(): string {
  const { version } = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as { version: string };
  return `chat-template ${version}\n`;
}
