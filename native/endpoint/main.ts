// The endpoint process (dist/endpoint.js): `chat-template serve` without the rest of the CLI, for the
// extension host to spawn. Same flags, same stdout lines (see serve.ts).
import { formatHelp, processIO, UsageError, wantsHelp } from "../../server/src/commandLine";
import { help, serveCommand } from "./serve";

const argv = process.argv.slice(2);
if (wantsHelp(argv)) process.stdout.write(formatHelp(help));
else
  serveCommand(argv, processIO).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      if (e instanceof UsageError) {
        process.stderr.write(`chat-template serve: ${e.message}\nusage: ${help.usage}\n`);
        process.exitCode = 2;
      } else {
        process.stderr.write(`chat-template serve: internal error: ${(e as Error).stack ?? e}\n`);
        process.exitCode = 70;
      }
    },
  );
