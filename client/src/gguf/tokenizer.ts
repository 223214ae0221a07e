// Token counts with llama.cpp's own tokenizer: node-llama-cpp's prebuilt library loads a GGUF's
// vocabulary only (no tensors), so a count is exactly what llama.cpp would feed the model for that text,
// special tokens parsed, no BOS added (a template writes its own).
import type { Llama } from "node-llama-cpp";
import { readGGUFHeader } from "../../../server/src/gguf";
import type { Tokenizer } from "./modelBinding";

export interface GGUFTokenizer extends Tokenizer {
  dispose(): Promise<void>;
}

let llama: Promise<Llama> | null = null;

export async function loadGGUFTokenizer(file: string): Promise<GGUFTokenizer> {
  // node-llama-cpp's own GGUF parser loops on some malformed files: only well-formed ones reach it
  readGGUFHeader(file);
  // an ES module: imported on first use, so the extension starts without loading llama.cpp
  const lib = await import("node-llama-cpp");
  llama ??= lib.getLlama({
    gpu: false,
    build: "never",
    skipDownload: true,
    progressLogs: false,
    logLevel: lib.LlamaLogLevel.error,
    logger: () => {},
  });
  const model = await (await llama).loadModel({ modelPath: file, vocabOnly: true });
  const bos = model.tokens.bos;
  return {
    count: async (text) => model.tokenize(text, true).length,
    tokenize: async (text) =>
      model.tokenize(text, true).map((id) => ({ id: Number(id), text: model.detokenize([id], true), special: model.isSpecialToken(id) })),
    bos: bos === null ? null : { id: Number(bos), addedByRuntime: model.tokens.shouldPrependBosToken },
    dispose: () => model.dispose(),
  };
}
