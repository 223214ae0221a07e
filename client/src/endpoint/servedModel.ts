// The GGUF a bundled endpoint serves (the configured target, else the demo target `chat-template serve`
// generates) and what the editor reads from its header: its own chat template, the seed of the served
// copy when no template editor is open yet, and its bos/eos texts, for prompts rendered for it.
import { ensureDemoModels } from "../../../native/testModels";
import { readModelInfo, type ModelInfo } from "../gguf/modelInfo";
import type { EndpointSettings } from "./settings";

/** The same demo pair the endpoint serves (generated once, then cached). */
export function servedModelFile(s: EndpointSettings): string {
  return s.targetModel || ensureDemoModels().target;
}

/** Header only; throws GGUFError (with the byte offset) for a file that is not a GGUF. */
export function servedModelInfo(s: EndpointSettings): ModelInfo {
  return readModelInfo(servedModelFile(s));
}

/** The model's default chat template, or null when it has none (llama.cpp then falls back to ChatML). */
export function ownTemplate(info: ModelInfo): string | null {
  return info.templates.find((t) => t.name === null)?.text ?? null;
}
