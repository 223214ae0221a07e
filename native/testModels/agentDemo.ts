// The demo target's own mark that it stands in for a model that drives agent loops: the endpoint constrains
// its tool-turn output (native/endpoint/chat/agentDemo.ts) only for a GGUF that carries it, so no real model, and no
// other test model, is ever steered.
import { gguf, readGGUFHeader, type GGUFValue } from "../../server/src/gguf";

export const AGENT_DEMO_KEY = "chat_template_studio.agent_demo";

export const agentDemoMetadata = (): [string, GGUFValue] => [AGENT_DEMO_KEY, gguf.bool(true)];

/** Whether the GGUF's metadata marks it as the agent demo; false for any file that cannot be read as one. */
export function isAgentDemo(file: string): boolean {
  try {
    const v = readGGUFHeader(file).metadata.get(AGENT_DEMO_KEY);
    return v?.value === true;
  } catch {
    return false;
  }
}
