// Collects every diagnostic for a template: syntax problems first, then the security rules, which hold
// for any engine, then each enabled engine's findings (server/src/analysis) about the scenarios the
// template supports (unsupportedScenarios.ts). Diagnostics run on every keystroke, so results are kept per text:
// typing and undoing back to a text seen recently costs nothing.
import {
  BUILTIN_SCENARIOS,
  dialectsOf,
  engineFindings,
  modelFindings,
  type ModelTokenizer,
  type Scenario,
  securityDiagnostics,
  ServerArgsError,
  toDiagnostic,
} from "../analysis";
import { aboutSupportedScenarios } from "./unsupportedScenarios";
import { DEFAULT_ENGINES } from "../dialects";
import type { Diagnostic, EngineId, TemplateDocument } from "../document";

export interface ValidationOptions {
  engines: readonly EngineId[];
  /** The sample conversations the engines are compared on; default templates/scenarios.json. */
  scenarios?: readonly Scenario[];
  /** Also run llama.cpp's older capability probe with tools=[null]; default true. */
  nullToolsProbe?: boolean;
  /** The flags the user's llama-server starts with (`--chat-template-kwargs`, `--reasoning` …): what its engine renders with. */
  llamaServerArgs?: readonly string[];
  /** The tokenizer of the model the template serves (a template from a GGUF): adds the `model/…` checks. */
  tokenizer?: ModelTokenizer;
  /** Also report what engines do in the scenarios the template does not support (where Jinja2 itself throws); default false. */
  unsupportedScenarios?: boolean;
}

export const defaultValidationOptions: ValidationOptions = { engines: DEFAULT_ENGINES };

export function syntaxDiagnostics(doc: TemplateDocument): Diagnostic[] {
  return doc.problems.map((p) => ({
    start: p.start,
    end: p.end,
    severity: p.severity,
    code: p.code,
    engine: null,
    message: p.message,
    ...(p.related ? { related: p.related } : {}),
  }));
}

/** The engines to check, or, for llama-server flags its engine cannot read, the diagnostic saying so at the top. */
function enginesOrProblem(options: ValidationOptions): ReturnType<typeof dialectsOf> | Diagnostic {
  try {
    return dialectsOf(options.engines, options.llamaServerArgs);
  } catch (e) {
    if (!(e instanceof ServerArgsError)) throw e;
    const message = `the llama-server flags (chatTemplate.llamaServer.args) cannot be read, so no engine is checked: ${e.message}`;
    return { start: 0, end: 0, severity: "error", code: "settings/llama-server-args", engine: null, message };
  }
}

function computeDiagnostics(doc: TemplateDocument, options: ValidationOptions): Diagnostic[] {
  const scenarios = options.scenarios ?? BUILTIN_SCENARIOS;
  const engines = enginesOrProblem(options);
  if (!Array.isArray(engines)) return [engines, ...syntaxDiagnostics(doc), ...securityDiagnostics(doc)];
  const findings = engineFindings(doc, engines, scenarios, { nullToolsProbe: options.nullToolsProbe ?? true });
  const model = options.tokenizer ? modelFindings(doc, options.tokenizer) : [];
  const shown = options.unsupportedScenarios ? findings : aboutSupportedScenarios(findings);
  return [...syntaxDiagnostics(doc), ...securityDiagnostics(doc), ...model, ...shown.map((f) => toDiagnostic(f, scenarios.length))];
}

const RECENT = 8;
/** Diagnostics of the texts checked last with the built-in scenarios, least recently used first. */
const recent = new Map<string, Diagnostic[]>();

export function validate(doc: TemplateDocument, options: ValidationOptions = defaultValidationOptions): Diagnostic[] {
  if (options.scenarios || options.tokenizer) return computeDiagnostics(doc, options);
  const key = `${options.engines.join(",")}\u0000${options.nullToolsProbe ?? true}\u0000${options.unsupportedScenarios ?? false}\u0000${JSON.stringify(options.llamaServerArgs ?? [])}\u0000${doc.text}`;
  const found = recent.get(key) ?? computeDiagnostics(doc, options);
  recent.delete(key);
  recent.set(key, found);
  if (recent.size > RECENT) recent.delete(recent.keys().next().value!);
  return found;
}
