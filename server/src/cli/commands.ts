// The language commands and the dispatch every `chat-template` command line goes through. The command
// line's composition root (cli/main.ts) adds the native commands; this folder knows nothing of them.
import { abCommand, help as abHelp } from "./ab";
import { type CommandHelp, type CommandIO, formatCommandList, formatHelp, UsageError, wantsHelp } from "../commandLine";
import { capsCommand, help as capsHelp } from "./caps";
import { checkCommand, help as checkHelp } from "./check";
import { debugAdapterCommand, help as debugAdapterHelp } from "./debugAdapter";
import { extractCommand, help as extractHelp } from "./extract";
import { fixCommand, help as fixHelp } from "./fix";
import { formatCommand, help as formatCommandHelp } from "./format";
import { renderCommand, help as renderHelp } from "./render";
import { testCommand, help as testHelp } from "./test";
import { versionText } from "./version";

export type Command = (argv: string[], io: CommandIO) => number | Promise<number>;
export interface Subcommand {
  run: Command;
  help: CommandHelp;
}

export const languageCommands = {
  check: { run: checkCommand, help: checkHelp },
  render: { run: renderCommand, help: renderHelp },
  extract: { run: extractCommand, help: extractHelp },
  caps: { run: capsCommand, help: capsHelp },
  fix: { run: fixCommand, help: fixHelp },
  format: { run: formatCommand, help: formatCommandHelp },
  test: { run: testCommand, help: testHelp },
  ab: { run: abCommand, help: abHelp },
  "debug-adapter": { run: debugAdapterCommand, help: debugAdapterHelp },
} satisfies Record<string, Subcommand>;

function helpText(commands: Record<string, Subcommand>): string {
  return formatCommandList(Object.fromEntries(Object.entries(commands).map(([name, c]) => [name, c.help])));
}

/** Runs one command line against these subcommands (help, --version, usage errors as exit 2). */
export async function dispatch(commands: Record<string, Subcommand>, argv: string[], io: CommandIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" && rest[0] !== undefined ? commands[rest[0]] : undefined;
    io.stdout(topic ? formatHelp(topic.help) : helpText(commands));
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
  if (wantsHelp(rest)) {
    io.stdout(formatHelp(cmd.help));
    return 0;
  }
  try {
    return await cmd.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`chat-template ${name}: ${e.message}\nusage: ${cmd.help.usage}\n(chat-template ${name} --help tells more)\n`);
      return 2;
    }
    throw e;
  }
}
