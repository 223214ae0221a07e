// The testModels layer's entrance: everything other folders use from it.
export { AGENT_DEMO_KEY, isAgentDemo } from "./agentDemo";
export { ensureDemoModels } from "./demo";
export { writeFallingPair } from "./falling";
export { CYCLE, writeConstructedPair, writeRandomPair } from "./pairs";
export { writeScriptedPair } from "./scripted";
