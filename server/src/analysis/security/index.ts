// The security rule family's face: diagnostics, the guard for automatic rewrites, and the hover.
export { hasSecurityFindings, securityDiagnostics } from "./securityFindings";
export { securityHover } from "./explain";
