// The commandLine layer's entrance: everything other folders use from it.
export { UsageError, oneOf, parseArgs, type ParsedArgs } from "./args";
export { processIO } from "./io";
export type { CommandIO } from "./io";
export { intOption, onOff } from "./args";
export { packageRoot } from "./packageRoot";
export { shellWords } from "./shellWords";
export { formatCommandList, formatHelp, wantsHelp } from "./help";
export type { CommandHelp } from "./help";
export { progressLine } from "./progress";
