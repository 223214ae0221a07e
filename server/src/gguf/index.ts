// The gguf layer's entrance: everything other folders use from it.
export { copyWithMetadata, setChatTemplate } from "./copy";
export { chatTemplate, chatTemplateNames, specialToken } from "./metadata";
export { readGGUFHeader } from "./reader";
export { vocabularyOf } from "./vocabulary";
export type { Vocabulary } from "./vocabulary";
export { GGML_TYPE, GGUFError, ValueType } from "./types";
export type { GGUFHeader, GGUFValue } from "./types";
export { gguf, writeGGUF } from "./writer";
export type { TensorData } from "./writer";
