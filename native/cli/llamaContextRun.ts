// node-llama-cpp's own LlamaContext on a GGUF: the reference `bench --compare-llama` measures the engine
// against. Same prebuilt llama.cpp libraries, its own context and batching, so the difference is ours.
import type { Llama } from "node-llama-cpp";

export interface RunFigures {
  /** Prompt tokens decoded per second (prompt ÷ time to first token). */
  prefill: number;
  /** Generated tokens per second after the first. */
  decode: number;
  ttftMs: number;
}

export interface LlamaSetting {
  flashAttention: boolean;
  batchSize: number;
}

let llama: Promise<Llama> | undefined;

async function load(): Promise<Llama> {
  const lib = await import("node-llama-cpp");
  llama ??= lib.getLlama({
    gpu: "auto",
    build: "never",
    skipDownload: true,
    progressLogs: false,
    logLevel: lib.LlamaLogLevel.error,
    logger: () => {},
  });
  return llama;
}

/** Prefills `prompt` and decodes `tokens` greedily in a fresh context, as a llama.cpp user would. */
export async function runLlamaContext(
  target: string,
  prompt: number[],
  tokens: number,
  options: LlamaSetting & { threads: number; contextSize: number; gpuLayers: number },
): Promise<RunFigures> {
  const model = await (await load()).loadModel({ modelPath: target, gpuLayers: options.gpuLayers < 0 ? "max" : options.gpuLayers });
  try {
    const context = await model.createContext({
      contextSize: options.contextSize,
      threads: options.threads,
      flashAttention: options.flashAttention,
      batchSize: options.batchSize,
    });
    try {
      const sequence = context.getSequence();
      const start = performance.now();
      let first = 0;
      let count = 0;
      // node-llama-cpp's Token is a branded number: the ids are the same
      for await (const _ of sequence.evaluate(prompt as never, { temperature: 0 })) {
        if (count === 0) first = performance.now();
        if (++count > tokens) break;
      }
      const end = performance.now();
      return {
        prefill: prompt.length / ((first - start) / 1000),
        decode: tokens / ((end - first) / 1000),
        ttftMs: first - start,
      };
    } finally {
      await context.dispose();
    }
  } finally {
    await model.dispose();
  }
}
