// The analysis layer's entrance: everything other folders use from it.
export { CAPS_KEYS, capsOf, probeCaps } from "./caps/capsProbe";
export type { Caps, ProbeError } from "./caps/capsProbe";
export { detectToolCallFormat } from "./caps/toolCallFormat";
export {
  directContext,
  renderRequest,
  requestContexts,
  ServerArgsError,
  SERVER_DEFAULTS,
  serverStartup,
  withServerArgs,
} from "./chatLayer";
export type { RenderParams, RequestRenderOptions, ServedTemplate, ServerStartup, TemplateInputs } from "./chatLayer";
export type { ToolCallFormat } from "./caps/toolCallFormat";
export { dialectsOf, engineFindings } from "./engineChecks";
export { toDiagnostic } from "./finding";
export { behaviourDifference } from "./sameBehaviour";
export { renderScenario } from "./scenarioRenders";
export { fixAll, quickFixesFor } from "./fixes/quickFixes";
export { applyEdits, type TextEdit } from "./fixes/rewrites";
export { renderDifference, type RenderDifference } from "./renderDifference";
export { BUILTIN_SCENARIOS, CHECK_NOW } from "./scenarios";
export { modelFindings } from "./model";
export { PREFIX_CODE, prefixStabilityFindings } from "./prefixStability";
export type { ModelTokenizer } from "./model";
export { securityDiagnostics, securityHover } from "./security";
export { DEFAULT_SPECIAL_TOKENS, parseScenario, parseScenarios, scenarioContext } from "./scenario";
export type { Scenario } from "./scenario";
