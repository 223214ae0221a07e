// Hugging Face tokenizer files' chat templates: read them and write one back into the file.
export { findChatTemplate, HfConfigError, pickChatTemplate, positionInFile, readChatTemplates, spliceChatTemplate } from "./chatTemplates";
export type { HfChatTemplate } from "./chatTemplates";
