// `chat-template debug-adapter`: the chat-template debugger as a Debug Adapter Protocol server on stdin/stdout,
// for VS Code (which starts it from the extension) and any other editor with a DAP client.
import { ChatTemplateDebugSession } from "../debugger";
import { type CommandHelp, type CommandIO, parseArgs, UsageError } from "../commandLine";

export const help: CommandHelp = {
  usage: "chat-template debug-adapter",
  summary: "a debugger for a template's render, speaking the Debug Adapter Protocol on stdin/stdout",
  description:
    "Serves the Debug Adapter Protocol on stdin/stdout until the client disconnects: one render of a template " +
    "for a scenario in one engine, stopped at breakpoints (conditions, hit counts and log messages in the engine's " +
    "own Jinja), stepped through statements and into macros, with the scopes, the loop, macro arguments and the " +
    "output so far shown as that engine sees them. Launch attributes: template (a path), scenario (a built-in " +
    "name, a scenario file, or a JSON list of messages; default basic), engine (jinja2, jinja2-3.1.2, llamacpp, " +
    "minja, hfjinja, llama-server; default jinja2), addGenerationPrompt, stopOnEntry. The render runs under the " +
    "preview's limits (steps, output, memory, 5 s of running time). stdout carries only the protocol.",
  options: [],
  examples: ["chat-template debug-adapter"],
  exitCodes: [
    [0, "the client disconnected or closed stdin"],
    [2, "usage error: an argument was given"],
  ],
};

export function debugAdapterCommand(argv: string[], _io: CommandIO): Promise<number> {
  const args = parseArgs(argv, {});
  if (args.positionals.length > 0) throw new UsageError("debug-adapter takes no arguments");
  return new Promise((resolve) => {
    const session = new ChatTemplateDebugSession(() => {
      // let the process end once the last message is written
      process.stdin.destroy();
      resolve(0);
    });
    session.start(process.stdin, process.stdout);
  });
}
