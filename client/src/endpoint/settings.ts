// The chatTemplate.endpoint.* settings, read through a getter (VS Code's configuration in the extension,
// plain objects in tests), and the `chat-template serve` arguments of a bundled endpoint.
import { isAbsolute, join } from "node:path";

export type EndpointMode = "bundled" | "external";
export type TemplateSourceSetting = "activeEditor" | "file" | "gguf";

export interface EndpointSettings {
  mode: EndpointMode;
  /** "" serves the demo models. */
  targetModel: string;
  draftModel: string;
  /** -1: all layers (the engine's default). */
  gpuLayers: number;
  contextSize: number;
  /** 0: a free port. */
  port: number;
  /** 0: llama.cpp's default (the math cores). */
  threads: number;
  /** Tokens drafted per DFlash step at most; 0: the draft's block size - 1. */
  draftMax: number;
  /** Choose each step's draft length for speed (0: a plain step); off drafts draftMax every step. */
  draftAdaptive: boolean;
  /** Positions the DFlash draft attends to (--draft-window); 0: the draft's own window. */
  draftWindow: number;
  /** MiB of host memory for the prompt cache (earlier conversations' KV state); 0: none. */
  cacheRam: number;
  /** Web origins whose pages may call the endpoint (--allowed-origins); others get 403. */
  allowedOrigins: string[];
  templateSource: TemplateSourceSetting;
  templateFile: string;
  externalUrl: string;
}

export const DEFAULT_SETTINGS: EndpointSettings = {
  mode: "bundled",
  targetModel: "",
  draftModel: "",
  gpuLayers: -1,
  contextSize: 4096,
  port: 0,
  threads: 0,
  draftMax: 0,
  draftAdaptive: true,
  draftWindow: 0,
  cacheRam: 8192,
  allowedOrigins: [],
  templateSource: "activeEditor",
  templateFile: "",
  externalUrl: "",
};

type Getter = <K extends keyof EndpointSettings>(key: K, fallback: EndpointSettings[K]) => EndpointSettings[K];

/** Paths relative to `folder` (the first workspace folder) become absolute; `~` is not expanded, as in VS Code. */
export function readEndpointSettings(get: Getter, folder: string | undefined): EndpointSettings {
  const s = Object.fromEntries(
    Object.entries(DEFAULT_SETTINGS).map(([k, v]) => [k, get(k as keyof EndpointSettings, v as never)]),
  ) as unknown as EndpointSettings;
  const abs = (p: string) => (p && !isAbsolute(p) && folder ? join(folder, p) : p);
  return {
    ...s,
    targetModel: abs(s.targetModel.trim()),
    draftModel: abs(s.draftModel.trim()),
    templateFile: abs(s.templateFile.trim()),
    externalUrl: s.externalUrl.trim().replace(/\/+$/, "").replace(/\/v1$/, ""),
  };
}

/** What is wrong with the settings for this mode, or null. */
export function settingsProblem(s: EndpointSettings): string | null {
  if (s.mode === "external") {
    if (!s.externalUrl) return "chatTemplate.endpoint.externalUrl is empty: set the URL of the external server";
    if (!/^https?:\/\/[^/]+/.test(s.externalUrl))
      return `chatTemplate.endpoint.externalUrl must be an http:// or https:// URL (got '${s.externalUrl}')`;
    return null;
  }
  if (s.draftModel && !s.targetModel) return "chatTemplate.endpoint.draftModel needs a target model (chatTemplate.endpoint.targetModel)";
  if (s.templateSource === "file" && !s.templateFile)
    return "chatTemplate.endpoint.templateSource is 'file' but chatTemplate.endpoint.templateFile is empty";
  return null;
}

/**
 * `chat-template serve` flags; templateFile: the --chat-template-file to serve (null: the GGUF's own);
 * mirrorOf: the document that file is the editor's copy of, which the endpoint's messages name.
 */
export function serveArgs(s: EndpointSettings, templateFile: string | null, mirrorOf: string | null = null): string[] {
  const args = ["--port", String(s.port), "--context", String(s.contextSize)];
  if (s.targetModel) args.push("--target", s.targetModel);
  if (s.draftModel) args.push("--draft", s.draftModel);
  if (s.gpuLayers !== -1) args.push("--gpu-layers", String(s.gpuLayers));
  if (s.threads > 0) args.push("--threads", String(s.threads));
  if (s.draftMax > 0) args.push("--draft-max", String(s.draftMax));
  if (!s.draftAdaptive) args.push("--draft-adaptive", "off");
  if (s.draftWindow > 0) args.push("--draft-window", String(s.draftWindow));
  args.push("--cache-ram", String(s.cacheRam));
  if (s.allowedOrigins.length) args.push("--allowed-origins", s.allowedOrigins.join(","));
  if (templateFile !== null) args.push("--chat-template-file", templateFile);
  if (templateFile !== null && mirrorOf !== null) args.push("--chat-template-mirror-of", mirrorOf);
  return args;
}
