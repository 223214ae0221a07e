// `chat-template make-test-models DIR [--seed N]`: writes the tiny test pairs (random, constructed, falling, scripted).
import { type CommandHelp, type CommandIO, parseArgs, UsageError } from "../../server/src/commandLine";
import { writeConstructedPair, writeFallingPair, writeRandomPair, writeScriptedPair } from "../testModels";

export const help: CommandHelp = {
  usage: "chat-template make-test-models DIR [--seed N]",
  summary: "write tiny Qwen3-shaped target + DFlash draft GGUF pairs for tests and demos",
  description:
    "Writes four tiny target + DFlash draft pairs into DIR, each with a byte-level vocabulary, the chat special tokens " +
    "and Qwen3's template: random-* (random weights), constructed-* (hand-set weights: the target repeats a letter " +
    "cycle and the draft predicts it), falling-* (the constructed pair whose draft gets worse as the context grows) " +
    "and scripted-* (a target that writes a get_weather tool call, for testing tool-call harnesses). No download.",
  options: [["--seed N", "the random pair's seed (default 1)"]],
  examples: [
    "chat-template make-test-models models",
    "chat-template serve --target models/scripted-target.gguf --draft models/scripted-draft.gguf",
  ],
  exitCodes: [
    [0, "written"],
    [2, "usage error"],
  ],
};

export function makeTestModelsCommand(argv: string[], io: CommandIO): number {
  const args = parseArgs(argv, { values: ["seed"] });
  if (args.positionals.length !== 1) throw new UsageError("give one output folder");
  const seed = Number(args.values.get("seed") ?? 1);
  if (!Number.isInteger(seed) || seed < 0) throw new UsageError("--seed must be a non-negative integer");
  const [dir] = args.positionals;
  const random = writeRandomPair(dir, "random", { seed });
  const constructed = writeConstructedPair(dir);
  const falling = writeFallingPair(dir);
  const scripted = writeScriptedPair(dir);
  io.stdout(
    `${random.target} + ${random.draft}: random weights (seed ${seed})\n` +
      `${constructed.target} + ${constructed.draft}: hand-set weights; the target cycles "abc…x" and the draft predicts it\n` +
      `${falling.target} + ${falling.draft}: the constructed pair, whose draft forgets letter k of the cycle past ${falling.forgetsAfter[0]} + ${falling.forgetsAfter[1] - falling.forgetsAfter[0]}·k tokens of context (acceptance falls from 1 to 0 by ${falling.forgetsAfter.at(-1)! + 1})\n` +
      `${scripted.target} + ${scripted.draft}: scripted target; after "assistant\\n" a well-formed get_weather call, after "<think>" a well-formed or a malformed one, half and half\n`,
  );
  return 0;
}
