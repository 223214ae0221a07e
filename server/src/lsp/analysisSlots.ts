// One analysis process per document: a template stuck in its analysis holds up only its own document, and the
// others' checks, quick fixes and hovers go on in their own processes. Past `MAX_SLOTS` documents the least
// recently used one that is idle gives its process back; one that is busy keeps it until it is done.
import type { AnalysisRequest } from "./analysisProtocol";
import type { AnalysisOutcome, AnalysisWorker } from "./analysisWorker";

export const MAX_SLOTS = 4;

export class AnalysisSlots {
  /** In the order of last use, the least recent first. */
  private readonly slots = new Map<string, AnalysisWorker>();

  constructor(private readonly start: () => AnalysisWorker) {}

  /** See AnalysisWorker.run; `uri`'s requests run one at a time, beside other documents'. */
  run(uri: string, key: string, request: AnalysisRequest): Promise<AnalysisOutcome | null> {
    const worker = this.slots.get(uri) ?? this.start();
    this.slots.delete(uri);
    this.slots.set(uri, worker);
    const outcome = worker.run(key, request);
    this.trim();
    return outcome;
  }

  close(uri: string): void {
    this.slots.get(uri)?.dispose();
    this.slots.delete(uri);
  }

  dispose(): void {
    for (const worker of this.slots.values()) worker.dispose();
    this.slots.clear();
  }

  private trim(): void {
    for (const [uri, worker] of this.slots) {
      if (this.slots.size <= MAX_SLOTS) return;
      if (worker.busy) continue;
      worker.dispose();
      this.slots.delete(uri);
    }
  }
}
