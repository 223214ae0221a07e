// The limits a template is held to before llama.cpp's Jinja engine, which has none, runs it. A template's
// work grows with its input (messages, tools), so the step and output budgets do too. The corpus and its
// scenarios grown 40-fold use at most 5 % of them (`npm run bench templateGuard`); a render past them loops
// or recurses without end, or would keep llama.cpp's engine (about 20 times slower per step than ours)
// busy for minutes.
import type { Limits } from "../../../server/src/interpreter/limits";

// the corpus: at most 2,300 steps on its scenarios, 108k on them grown 40-fold; about 9 steps per further
// input character, more for Gemma 4's template, which is quadratic in the number of messages
const BASE_STEPS = 1_000_000;
const STEPS_PER_INPUT_CHAR = 100;
// the corpus: at most 45k characters of output, about 3 per further input character
const BASE_OUTPUT = 4 * 1024 * 1024;
const OUTPUT_PER_INPUT_CHAR = 32;
// below what a JS string can hold (2^29 - 24 characters)
const MAX_OUTPUT = 2 ** 28;
// the corpus nests macro calls 9 deep at most; llama.cpp's engine overflows an 8 MiB stack between 3,000 and
// 4,000 nested calls of a trivial macro, and between 600 and 1,200 schema levels in gpt-oss's render_typescript_type
const RECURSION = 200;

/**
 * Input nesting (arrays and objects): our conversion of the input to template values recurses and overflows
 * Node's stack past about 3,500 levels; real tool schemas nest a few dozen.
 */
export const MAX_INPUT_DEPTH = 1000;

/** For a render whose context is `inputChars` long as JSON. */
export function guardLimits(inputChars: number): Limits {
  return {
    steps: BASE_STEPS + STEPS_PER_INPUT_CHAR * inputChars,
    output: Math.min(MAX_OUTPUT, BASE_OUTPUT + OUTPUT_PER_INPUT_CHAR * inputChars),
    recursion: RECURSION,
  };
}
