// `chat-template make-test-models DIR [--seed N]`: writes the tiny test pairs (random and constructed).
import { UsageError, parseArgs } from "../../server/src/cli/args";
import type { CommandIO } from "../../server/src/cli/io";
import { writeConstructedPair, writeRandomPair } from "../testModels/pairs";

export const usage = "chat-template make-test-models DIR [--seed N]";

export function makeTestModelsCommand(argv: string[], io: CommandIO): number {
  const args = parseArgs(argv, { values: ["seed"] });
  if (args.positionals.length !== 1) throw new UsageError("give one output folder");
  const seed = Number(args.values.get("seed") ?? 1);
  if (!Number.isInteger(seed) || seed < 0) throw new UsageError("--seed must be a non-negative integer");
  const [dir] = args.positionals;
  const random = writeRandomPair(dir, "random", { seed });
  const constructed = writeConstructedPair(dir);
  io.stdout(
    `${random.target} + ${random.draft}: random weights (seed ${seed})\n` +
      `${constructed.target} + ${constructed.draft}: hand-set weights; the target cycles "abc…x" and the draft predicts it\n`,
  );
  return 0;
}
