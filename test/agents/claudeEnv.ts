// What Claude Code (the CLI, or the one the Agent SDK bundles) needs in its environment to use the endpoint offline:
// only this, since a client's environment here replaces the process's.
export function claudeEnv(url: string, home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: home,
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: "dummy",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  };
}
