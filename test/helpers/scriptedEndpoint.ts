// The endpoint on the scripted test pair (native/testModels/scripted.ts) and two templates for it that
// differ only in their generation prompt: "plain" ends "…assistant\n" (the script then always writes
// the well-formed call), "thinking" ends "…assistant\n<think>" (reasoning, then the well-formed call or
// the malformed one, half and half).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { QWEN3_CHAT_TEMPLATE } from "../../native/testModels/chatTemplate";
import { writeScriptedPair } from "../../native/testModels/scripted";
import { startEndpoint, storageDir, type EndpointProcess } from "./endpoint";

const PLAIN_OPENER = "{{- '<|im_start|>assistant\\n' }}";
export const PLAIN_TEMPLATE = QWEN3_CHAT_TEMPLATE;
export const THINKING_TEMPLATE = QWEN3_CHAT_TEMPLATE.replace(PLAIN_OPENER, "{{- '<|im_start|>assistant\\n<think>' }}");
if (THINKING_TEMPLATE === PLAIN_TEMPLATE) throw new Error("the Qwen3 template's generation prompt moved; update scriptedEndpoint.ts");

export interface ScriptedSetup {
  endpoint: EndpointProcess;
  dir: string;
  plain: string;
  thinking: string;
}

export async function startScriptedEndpoint(): Promise<ScriptedSetup> {
  const dir = join(storageDir, "scripted");
  const pair = writeScriptedPair(dir);
  const plain = join(dir, "plain.jinja");
  const thinking = join(dir, "thinking.jinja");
  writeFileSync(plain, PLAIN_TEMPLATE);
  writeFileSync(thinking, THINKING_TEMPLATE);
  const endpoint = await startEndpoint(["--target", pair.target, "--draft", pair.draft, "--model-name", "scripted"]);
  return { endpoint, dir, plain, thinking };
}

export const WEATHER = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};
