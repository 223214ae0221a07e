// What request handlers share: the configuration, the model, the generation queue and the metrics.
import type { ServeConfig } from "./config";
import type { Metrics } from "./metrics";
import type { ModelHost } from "./model";
import type { GenerationQueue } from "./queue";

export interface Services {
  config: ServeConfig;
  model: ModelHost;
  queue: GenerationQueue;
  metrics: Metrics;
  /** A line for people (stderr). */
  log: (line: string) => void;
}
