// The `chat-template` command line: one subcommand per file, dispatched here.
import { abCommand, help as abHelp } from "./ab";
import { type CommandHelp, type CommandIO, formatCommandList, formatHelp, processIO, UsageError, wantsHelp } from "../commandLine";
import { capsCommand, help as capsHelp } from "./caps";
import { checkCommand, help as checkHelp } from "./check";
import { extractCommand, help as extractHelp } from "./extract";
import { fixCommand, help as fixHelp } from "./fix";
import {
  benchCommand,
  benchHelp,
  installCudaCommand,
  installCudaHelp,
  makeTestModelsCommand,
  makeTestModelsHelp,
} from "../../../native/cli";
import { renderCommand, help as renderHelp } from "./render";
import { serveCommand, serveHelp } from "../../../native/endpoint";
import { testCommand, help as testHelp } from "./test";
import { versionText } from "./version";

type Command = (argv: string[], io: CommandIO) => number | Promise<number>;

const commands: Record<string, { run: Command; help: CommandHelp }> = {
  check: { run: checkCommand, help: checkHelp },
  render: { run: renderCommand, help: renderHelp },
  caps: { run: capsCommand, help: capsHelp },
  fix: { run: fixCommand, help: fixHelp },
  extract: { run: extractCommand, help: extractHelp },
  test: { run: testCommand, help: testHelp },
  ab: { run: abCommand, help: abHelp },
  serve: { run: serveCommand, help: serveHelp },
  bench: { run: benchCommand, help: benchHelp },
  "make-test-models": { run: makeTestModelsCommand, help: makeTestModelsHelp },
  "install-cuda": { run: installCudaCommand, help: installCudaHelp },
};

function helpText(): string {
  return formatCommandList(Object.fromEntries(Object.entries(commands).map(([name, c]) => [name, c.help])));
}

export async function main(argv: string[], io: CommandIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" && rest[0] !== undefined ? commands[rest[0]] : undefined;
    io.stdout(topic ? formatHelp(topic.help) : helpText());
    return 0;
  }
  if (name === "--version" || name === "-v") {
    io.stdout(versionText());
    return 0;
  }
  const cmd = name ? commands[name] : undefined;
  if (!cmd) {
    io.stderr((name ? `unknown command '${name}'\n` : "") + helpText());
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

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`chat-template: internal error: ${(e as Error).stack ?? e}\n`);
      process.exitCode = 70;
    },
  );
}
