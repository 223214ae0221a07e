// The guard's face to the engine: what it checks and what it answers. native/engine imports these types only;
// native/endpoint gives the engine an implementation (processGuard), so the engine knows nothing of Jinja.

export interface Tokens {
  bos: string;
  eos: string;
}

/** The GGUF's `tokenizer.chat_template` and `tokenizer.chat_template.tool_use`. */
export interface ModelTemplates {
  default?: string;
  toolUse?: string;
}

/** The templates llama.cpp's chat layer serves: `override` non-empty replaces the model's, with these bos/eos texts. */
export interface GuardedTemplates {
  override: string;
  model: ModelTemplates;
  tokens: Tokens;
}

/**
 * Why the guard will not let llama.cpp's Jinja engine run a template, as plain data (it crosses a process
 * boundary; the engine makes its own errors of it). `line` and `column` are 1-based (UTF-16 columns).
 */
export type Refusal =
  /** it would run past a limit (llama.cpp's engine has none) */
  | { kind: "limit"; limit: "steps" | "output" | "recursion" | "memory" | "nesting"; line: number; column: number; message: string }
  /** a construct the guard cannot vouch for, or a check that failed as a whole (at 1, 1) */
  | { kind: "refused"; line: number; column: number; message: string }
  /** input the guard cannot check (nested too deeply): the caller's error */
  | { kind: "invalid"; message: string };

/** The verdict on each thing llama.cpp renders: null when the guard vouches for it. */
export interface TemplateGuard {
  /** The checks of these templates that hold for every request. */
  checkTemplates(templates: GuardedTemplates): Promise<Refusal | null>;
  /** The renders llama.cpp makes for one request, as `template_inputs` gives them. */
  checkRequest(templates: GuardedTemplates, inputsJson: string): Promise<Refusal | null>;
  /** A template rendered with these variables (as JSON). */
  checkRender(source: string, variablesJson: string): Promise<Refusal | null>;
}
