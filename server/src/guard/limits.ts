// The limits a template is held to before llama.cpp's Jinja engine, which has none, runs it. A template's
// work grows with its input (messages, tools), so the step and output budgets do too. The corpus and its
// scenarios grown 40-fold use at most 5 % of them (`npm run bench templateGuard`); a render past them loops
// or recurses without end, or would keep llama.cpp's engine (about 20 times slower per step than ours)
// busy for minutes.
import { DEFAULT_LIMITS, type Limits } from "../interpreter";

// the corpus: at most 2,300 steps on its scenarios, 108k on them grown 40-fold; about 9 steps per further
// input character, more for Gemma 4's template, which is quadratic in the number of messages
const BASE_STEPS = 1_000_000;
const STEPS_PER_INPUT_CHAR = 100;
// the corpus: at most 45k characters of output, about 3 per further input character
const BASE_OUTPUT = 4 * 1024 * 1024;
const OUTPUT_PER_INPUT_CHAR = 32;
// a request of about 2 MB reaches it, a prompt of millions of tokens; it keeps the output within what the guard's
// heap (guardProcess.ts) holds
const MAX_OUTPUT = 2 ** 26;
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
    // many values each within the output limit end there, not in an abort of the guard's process (guardProcess.ts)
    memory: DEFAULT_LIMITS.memory,
  };
}
