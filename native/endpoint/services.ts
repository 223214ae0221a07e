// What request handlers share: the configuration, the model, the generation queue, the metrics and the recent prompts.
import type { ServeConfig } from "./config";
import type { Metrics } from "./llama/metrics";
import type { ModelHost } from "./llama/model";
import type { PromptHistory } from "./chat/promptHistory";
import type { GenerationQueue } from "./llama/queue";

export interface Services {
  config: ServeConfig;
  model: ModelHost;
  queue: GenerationQueue;
  metrics: Metrics;
  /** The prompts served lately, to say where a request lost the prompt cache. */
  promptHistory: PromptHistory;
  /** A line for people (stderr). */
  log: (line: string) => void;
}
