// The model the endpoint serves, from process start to shutdown: loading (with progress), ready, or
// failed. The HTTP server is up before loading starts, so /health can show the progress.
import { statSync } from "node:fs";
import { basename } from "node:path";
import { Engine, type ModelInfo } from "../../engine";
import { isAgentDemo } from "../../testModels";
import type { ServeConfig } from "../config";
import { ApiError } from "../http/errors";
import { TemplateSource, type TemplateEvent } from "./templateSource";

export type ModelStatus =
  { state: "loading"; stage: "target" | "draft"; progress: number } | { state: "ready" } | { state: "error"; message: string };

export interface ModelFiles {
  target: string;
  draft?: string;
  /** Set for the demo pair: what it is, to tell users that its output means nothing. */
  demo?: string;
}

export interface Loaded {
  engine: Engine;
  info: ModelInfo;
  template: TemplateSource;
}

export class ModelHost {
  status: ModelStatus = { state: "loading", stage: "target", progress: 0 };
  private loaded: Loaded | null = null;
  private closing = false;
  /** When the model became ready (ms since the epoch). */
  loadedAt = 0;
  readonly id: string;
  /** The target's metadata marks it as the agent demo (native/testModels/agentDemo.ts): its tool turns are steered. */
  agentDemo = false;

  constructor(
    readonly files: ModelFiles,
    private readonly config: ServeConfig,
  ) {
    this.id = config.modelName ?? (files.demo ? "demo-random" : basename(files.target).replace(/\.gguf$/i, ""));
  }

  /** Loads the engine and the template; never rejects (a failure becomes the error status). */
  async load(onTemplate: (e: TemplateEvent) => void): Promise<void> {
    const size = (f?: string) => (f ? statSync(f).size : 0);
    let weights: { target: number; draft: number };
    try {
      weights = { target: size(this.files.target), draft: size(this.files.draft) };
    } catch (e) {
      this.status = { state: "error", message: (e as Error).message };
      return;
    }
    const total = weights.target + weights.draft || 1;
    try {
      const engine = await Engine.load({
        target: this.files.target,
        draft: this.files.draft,
        contextSize: this.config.contextSize,
        gpuLayers: this.config.gpuLayers,
        threads: this.config.threads,
        draftMax: this.config.draftMax,
        draftAdaptive: this.config.draftAdaptive,
        draftWindow: this.config.draftWindow,
        cacheRamMiB: this.config.cacheRamMiB,
        onProgress: (stage, p) => {
          // one bar for both files, in proportion to their size
          const done = stage === "target" ? p * weights.target : weights.target + p * weights.draft;
          if (this.status.state === "loading") this.status = { state: "loading", stage, progress: Math.min(1, done / total) };
        },
      });
      const template = await TemplateSource.open(engine, this.config, onTemplate);
      if (this.closing) {
        template.close();
        await engine.close();
        return;
      }
      this.agentDemo = isAgentDemo(this.files.target);
      this.loaded = { engine, info: engine.info, template };
      this.loadedAt = Date.now();
      this.status = { state: "ready" };
    } catch (e) {
      this.status = { state: "error", message: (e as Error).message };
    }
  }

  /** The loaded model, or the 503/500 a request gets while there is none. */
  ready(): Loaded {
    if (this.loaded) return this.loaded;
    const s = this.status;
    if (s.state === "error") throw new ApiError(500, "server", `the model failed to load: ${s.message}`);
    throw new ApiError(
      503,
      "unavailable",
      `the model is loading (${Math.round((s.state === "loading" ? s.progress : 0) * 100)}%); retry when GET /health says ready`,
    );
  }

  async close(): Promise<void> {
    this.closing = true;
    const l = this.loaded;
    this.loaded = null;
    if (!l) return;
    l.template.close();
    await l.engine.close();
  }
}
