// The bounds a request's JSON, grammar and JSON schemas are checked against before llama.cpp sees them:
// llama.cpp's GBNF parser and schema converter recurse without a bound (a grammar nested 30,000 parentheses
// deep overflows the stack), and its grammar sampler's cost per token grows with the alternatives it tracks
// (80,000 of them hold a slot for minutes). Each is far above what a real request uses. README: Limits.

/** Arrays and objects nested in a request body (tool schemas in agents' requests nest under 20). */
export const MAX_JSON_DEPTH = 128;
/** Characters of a GBNF grammar, or of a JSON schema written as JSON. */
export const MAX_CONSTRAINT_CHARS = 256 * 1024;
/** Parentheses nested in a grammar or in a schema's `pattern`. */
export const MAX_CONSTRAINT_NESTING = 256;
/**
 * Alternatives a grammar offers (its `|`s) or a schema does (`enum` values, `anyOf`/`oneOf` branches, `type`
 * lists, `properties`: each optional property is a branch of the object's rule).
 */
export const MAX_CONSTRAINT_ALTERNATIVES = 1024;
/** A repetition's bound `{m,n}` in a grammar or a `pattern` (llama.cpp writes a rule per repetition). */
export const MAX_CONSTRAINT_REPETITION = 2000;
/**
 * A schema's `minItems`/`maxItems`/`minLength`/`maxLength`/`minProperties`/`maxProperties`: also a rule per
 * repetition, but real clients ask for large ones (Claude Code's Bash tool: `maxLength` 524288), which llama.cpp
 * builds in well under a second; 10^7 would take gigabytes.
 */
export const MAX_SCHEMA_LENGTH_BOUND = 1 << 20;
/** Characters the repetitions of one grammar or pattern copy in all (`"abc"{3}` copies 3 × 5). */
export const MAX_CONSTRAINT_EXPANSION = 1 << 20;
/** llama.cpp's samplers take 32-bit integers and floats. */
export const MAX_INT32 = 2 ** 31 - 1;
export const MAX_FLOAT32 = 3.4028234663852886e38;
/** The penalty window is allocated in full up front: no context is longer than 1 Mi tokens. */
export const MAX_REPEAT_LAST_N = 1 << 20;
