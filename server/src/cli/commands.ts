// The language commands and the dispatch every `chat-template` command line goes through. The command
// line's composition root (cli/main.ts) adds the native commands; this folder knows nothing of them.
import { abCommand, usage as abUsage } from "./ab";
import { type CommandIO, UsageError } from "../commandLine";
import { capsCommand, usage as capsUsage } from "./caps";
import { checkCommand, usage as checkUsage } from "./check";
import { extractCommand, usage as extractUsage } from "./extract";
import { fixCommand, usage as fixUsage } from "./fix";
import { renderCommand, usage as renderUsage } from "./render";
import { testCommand, usage as testUsage } from "./test";
import { versionText } from "./version";

export type Command = (argv: string[], io: CommandIO) => number | Promise<number>;
export interface Subcommand {
  run: Command;
  usage: string;
}

export const languageCommands = {
  check: { run: checkCommand, usage: checkUsage },
  render: { run: renderCommand, usage: renderUsage },
  extract: { run: extractCommand, usage: extractUsage },
  caps: { run: capsCommand, usage: capsUsage },
  fix: { run: fixCommand, usage: fixUsage },
  test: { run: testCommand, usage: testUsage },
  ab: { run: abCommand, usage: abUsage },
} satisfies Record<string, Subcommand>;

function helpText(commands: Record<string, Subcommand>): string {
  return ["usage:", ...Object.values(commands).map((c) => "  " + c.usage), "  chat-template --version"].join("\n") + "\n";
}

/** Runs one command line against these subcommands (help, --version, usage errors as exit 2). */
export async function dispatch(commands: Record<string, Subcommand>, argv: string[], io: CommandIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--help" || name === "-h" || name === "help") {
    io.stdout(helpText(commands));
    return 0;
  }
  if (name === "--version" || name === "-v") {
    io.stdout(versionText());
    return 0;
  }
  const cmd = name ? commands[name] : undefined;
  if (!cmd) {
    io.stderr((name ? `unknown command '${name}'\n` : "") + helpText(commands));
    return 2;
  }
  try {
    return await cmd.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`chat-template ${name}: ${e.message}\nusage: ${cmd.usage}\n`);
      return 2;
    }
    throw e;
  }
}
