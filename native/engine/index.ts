// The native engine's public API (the endpoint and the CLI import from here).
export { loadBackend, type BackendOptions } from "./backend";
export { ChatTemplate, parseChatOutput, renderTemplate } from "./chat";
export { Engine } from "./engine";
export { ContextOverflowError, EngineError, ModelFileError, TemplateLimitError, type EngineErrorCode } from "./errors";
export type * from "./types";
