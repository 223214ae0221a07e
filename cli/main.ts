// The `chat-template` command line's composition root and process entry (bundled as dist/cli.js): the one
// place that registers the language commands (server/src/cli) and the native ones (native/cli,
// native/endpoint), so that neither side imports the other.
import { type CommandIO, processIO } from "../server/src/commandLine";
import { dispatch, languageCommands, type Subcommand } from "../server/src/cli";
import { benchCommand, benchHelp, installCudaCommand, installCudaHelp, makeTestModelsCommand, makeTestModelsHelp } from "../native/cli";
import { serveCommand, serveHelp } from "../native/endpoint";

const { check, render, extract, caps, fix, format, test, ab, "debug-adapter": debugAdapter } = languageCommands;
// the order `--help` lists them in
const commands: Record<string, Subcommand> = {
  check,
  render,
  caps,
  fix,
  format,
  extract,
  test,
  ab,
  "debug-adapter": debugAdapter,
  serve: { run: serveCommand, help: serveHelp },
  bench: { run: benchCommand, help: benchHelp },
  "make-test-models": { run: makeTestModelsCommand, help: makeTestModelsHelp },
  "install-cuda": { run: installCudaCommand, help: installCudaHelp },
};

export function main(argv: string[], io: CommandIO = processIO): Promise<number> {
  return dispatch(commands, argv, io);
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
