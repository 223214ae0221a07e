// Checks of a template against the model it serves.
export { modelFindings } from "./modelChecks";
export type { ModelTokenizer } from "./modelTokenizer";
