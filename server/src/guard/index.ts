// The template guard's entrance: the interface the engine is given (types.ts) and the implementation that checks
// in a process of its own (processGuard).
export { processGuard } from "./guardProcess";
export type { GuardedTemplates, ModelTemplates, Refusal, TemplateGuard, Tokens } from "./types";
