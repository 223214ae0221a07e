// The installed package's folder (a checkout, the npm package, or the .vsix's extension folder), found from
// this file upward, so the same code works from sources (tsx), from a dist/ bundle and from an installed copy:
// `--version` reads its package.json, the native engine finds its addons under it.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

export function packageRoot(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, "utf8")).name === "chat-template-studio") return dir;
  }
  throw new Error(`cannot find the chat-template-studio package above ${__dirname}`);
}
