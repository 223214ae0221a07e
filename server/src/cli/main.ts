// The `chat-template` command line: one subcommand per file, dispatched here.
import { abCommand, usage as abUsage } from "./ab";
import { type CommandIO, processIO, UsageError } from "../commandLine";
import { capsCommand, usage as capsUsage } from "./caps";
import { checkCommand, usage as checkUsage } from "./check";
import { extractCommand, usage as extractUsage } from "./extract";
import { fixCommand, usage as fixUsage } from "./fix";
import {
  benchCommand,
  benchUsage,
  installCudaCommand,
  installCudaUsage,
  makeTestModelsCommand,
  makeTestModelsUsage,
} from "../../../native/cli";
import { renderCommand, usage as renderUsage } from "./render";
import { serveCommand, serveUsage } from "../../../native/endpoint";
import { testCommand, usage as testUsage } from "./test";
import { versionText } from "./version";

type Command = (argv: string[], io: CommandIO) => number | Promise<number>;

const commands: Record<string, { run: Command; usage: string }> = {
  check: { run: checkCommand, usage: checkUsage },
  render: { run: renderCommand, usage: renderUsage },
  extract: { run: extractCommand, usage: extractUsage },
  serve: { run: serveCommand, usage: serveUsage },
  caps: { run: capsCommand, usage: capsUsage },
  fix: { run: fixCommand, usage: fixUsage },
  test: { run: testCommand, usage: testUsage },
  ab: { run: abCommand, usage: abUsage },
  "make-test-models": { run: makeTestModelsCommand, usage: makeTestModelsUsage },
  bench: { run: benchCommand, usage: benchUsage },
  "install-cuda": { run: installCudaCommand, usage: installCudaUsage },
};

function helpText(): string {
  return ["usage:", ...Object.values(commands).map((c) => "  " + c.usage), "  chat-template --version"].join("\n") + "\n";
}

export async function main(argv: string[], io: CommandIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--help" || name === "-h" || name === "help") {
    io.stdout(helpText());
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
