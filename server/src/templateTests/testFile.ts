// `*.chat-template-test.json`: a template named relative to the file and a list of cases, each with
// expectations. Parsed with jsonc-parser's tree so that every error in a bad test file names its line
// (the CLI exits 2 on those, before running anything).
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";
import { CAPS_KEYS } from "../analysis";
import { registeredEngines, DEFAULT_ENGINES, isEngineId } from "../dialects";
import type { EngineId, Severity } from "../document";
import { parseLive, type LiveSpec } from "./liveSpec";
import { resolveScenario, type ScenarioRef } from "./scenarioRef";

export const TEST_FILE_SUFFIX = ".chat-template-test.json";

export type CapsEngine = "llamacpp" | "minja";

export interface CapsExpectation {
  engine: CapsEngine;
  nullToolsProbe: boolean;
  /** Only the capabilities the case names; the others are not checked. */
  values: Partial<Record<(typeof CAPS_KEYS)[number], boolean>>;
}

export interface CaseExpectations {
  caps?: CapsExpectation;
  /** A subset of the detected tool-call format: every key given must match, nested objects alike. */
  toolCallFormat?: Record<string, unknown>;
  /** Every engine of the case renders the scenario (true) or every one throws (false). */
  renders?: boolean;
  /** llama-server renders an agent's next prompt starting with the previous one (no cache/earlier-turn-rerendered). */
  prefixStable?: boolean;
  /** Every engine of the case renders the same bytes as this one. */
  sameAs?: EngineId;
  /** Every engine of the case renders exactly the bytes of this file. */
  snapshot?: { path: string; written: string };
  /** The editor's diagnostics for these engines are at most this severe. */
  diagnostics?: { engines: EngineId[]; maxSeverity: Severity };
}

export interface TestCase {
  name: string;
  /** 1-based line of the case object in the test file, where failures are shown. */
  line: number;
  /** The conversation that renders, sameAs and snapshot render. */
  scenario?: ScenarioRef;
  /** The engines that render it (default: the editor's default engines). */
  engines: EngineId[];
  expect: CaseExpectations;
  /** Run on a model endpoint (`--endpoint`); skipped without one. */
  live?: LiveSpec;
}

/** Most severe first: `maxSeverity: "warning"` allows warnings, information and hints. */
export const SEVERITIES: readonly Severity[] = ["error", "warning", "information", "hint"];

export interface TestFile {
  path: string;
  templatePath: string;
  cases: TestCase[];
}

export class TestFileError extends Error {
  constructor(
    readonly path: string,
    readonly line: number,
    readonly column: number,
    readonly detail: string,
  ) {
    super(`${path}:${line}:${column}: ${detail}`);
  }
}

export function readTestFile(path: string): TestFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new TestFileError(path, 1, 1, `cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return parseTestFile(path, text);
}

export function parseTestFile(path: string, text: string): TestFile {
  const at = (offset: number, detail: string): TestFileError => {
    const before = text.slice(0, offset).split("\n");
    return new TestFileError(path, before.length, before[before.length - 1].length + 1, detail);
  };
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length) throw at(errors[0].offset, `invalid JSON: ${printParseErrorCode(errors[0].error)}`);
  if (!root || root.type !== "object") throw at(root?.offset ?? 0, "a test file is a JSON object");
  // "$schema" lets editors without the extension's schema binding find it.
  const props = properties(root, ["$schema", "template", "cases"], at);
  const template = props.get("template");
  if (!template || template.type !== "string")
    throw at(template?.offset ?? root.offset, `"template" must be a string: the template's path, relative to the test file`);
  const cases = props.get("cases");
  if (!cases || cases.type !== "array") throw at(cases?.offset ?? root.offset, `"cases" must be an array`);
  const seen = new Set<string>();
  const parsed = (cases.children ?? []).map((c) => {
    const tc = parseCase(c, at, path);
    if (seen.has(tc.name)) throw at(c.offset, `two cases are named "${tc.name}"`);
    seen.add(tc.name);
    return tc;
  });
  return { path, templatePath: resolve(dirname(path), template.value as string), cases: parsed };
}

type At = (offset: number, detail: string) => TestFileError;

function properties(obj: Node, allowed: readonly string[], at: At): Map<string, Node> {
  const out = new Map<string, Node>();
  for (const p of obj.children ?? []) {
    const [key, value] = p.children as [Node, Node];
    const name = key.value as string;
    if (!allowed.includes(name)) throw at(key.offset, `unknown key "${name}" (expected one of ${allowed.join(", ")})`);
    if (out.has(name)) throw at(key.offset, `"${name}" given twice`);
    out.set(name, value);
  }
  return out;
}

function parseCase(node: Node, at: At, testFilePath: string): TestCase {
  if (node.type !== "object") throw at(node.offset, 'a case is an object with "name" and "expect"');
  const line = lineOf(at, node.offset);
  const props = properties(node, ["name", "scenario", "engines", "expect", "live"], at);
  const name = props.get("name");
  if (!name || name.type !== "string" || !(name.value as string).trim())
    throw at(name?.offset ?? node.offset, 'a case needs a non-empty "name"');
  const liveNode = props.get("live");
  const live = liveNode && parseLive(liveNode, at);
  const expect = props.get("expect") ?? (live ? { type: "object" as const, offset: node.offset, length: 0, children: [] } : undefined);
  if (!expect || expect.type !== "object")
    throw at(expect?.offset ?? node.offset, `case "${name.value}" needs an "expect" object or a "live" one`);
  const ex = properties(expect, ["caps", "toolCallFormat", "renders", "sameAs", "snapshot", "diagnostics", "prefixStable"], at);
  if (ex.size === 0 && !live) throw at(expect.offset, `case "${name.value}" expects nothing`);
  const out: CaseExpectations = {};
  const caps = ex.get("caps");
  if (caps) out.caps = parseCaps(caps, at);
  const format = ex.get("toolCallFormat");
  if (format) {
    if (format.type !== "object") throw at(format.offset, `"toolCallFormat" must be an object, e.g. {"mode": "TAG_WITH_TAGGED"}`);
    out.toolCallFormat = getNodeValue(format) as Record<string, unknown>;
  }
  const renders = ex.get("renders");
  if (renders) {
    if (renders.type !== "boolean") throw at(renders.offset, `"renders" must be true or false`);
    out.renders = renders.value as boolean;
  }
  const sameAs = ex.get("sameAs");
  if (sameAs) out.sameAs = engineName(sameAs, at, `"sameAs"`);
  const snapshot = ex.get("snapshot");
  if (snapshot) {
    if (snapshot.type !== "string" || !(snapshot.value as string))
      throw at(snapshot.offset, `"snapshot" must be a file path, relative to the test file`);
    out.snapshot = { path: resolve(dirname(testFilePath), snapshot.value as string), written: snapshot.value as string };
  }
  const diagnostics = ex.get("diagnostics");
  if (diagnostics) out.diagnostics = parseDiagnostics(diagnostics, at);
  const prefixStable = ex.get("prefixStable");
  if (prefixStable) {
    if (prefixStable.type !== "boolean") throw at(prefixStable.offset, `"prefixStable" must be true or false`);
    out.prefixStable = prefixStable.value as boolean;
  }

  const rendering = out.renders !== undefined || out.sameAs !== undefined || out.snapshot !== undefined;
  const scenarioNode = props.get("scenario");
  const enginesNode = props.get("engines");
  if (!rendering && (scenarioNode || enginesNode)) {
    throw at(
      (scenarioNode ?? enginesNode)!.offset,
      `"scenario" and "engines" are for "renders", "sameAs" and "snapshot", which case "${name.value}" does not expect`,
    );
  }
  let scenario: ScenarioRef | undefined;
  if (rendering) {
    if (!scenarioNode)
      throw at(expect.offset, `case "${name.value}" renders, so it needs a "scenario" (a built-in name or a scenario file)`);
    if (scenarioNode.type !== "string")
      throw at(scenarioNode.offset, `"scenario" must be a built-in scenario's name or a path to a scenario file`);
    const found = resolveScenario(scenarioNode.value as string, testFilePath);
    if (typeof found === "string") throw at(scenarioNode.offset, found);
    scenario = found;
  }
  const engines = enginesNode ? engineList(enginesNode, at, `"engines"`) : [...DEFAULT_ENGINES];
  return { name: name.value as string, line, scenario, engines, expect: out, ...(live ? { live } : {}) };
}

function engineName(node: Node, at: At, what: string): EngineId {
  const available = registeredEngines();
  if (node.type !== "string" || !isEngineId(node.value as string) || !available.includes(node.value as EngineId)) {
    throw at(node.offset, `${what} must name an engine: one of ${available.join(", ")}`);
  }
  return node.value as EngineId;
}

function engineList(node: Node, at: At, what: string): EngineId[] {
  if (node.type !== "array" || !node.children?.length) throw at(node.offset, `${what} must be a non-empty list of engines`);
  const out = node.children.map((c) => engineName(c, at, `each of ${what}`));
  const twice = out.find((e, i) => out.indexOf(e) !== i);
  if (twice) throw at(node.offset, `${what} names ${twice} twice`);
  return out;
}

function parseDiagnostics(node: Node, at: At): NonNullable<CaseExpectations["diagnostics"]> {
  if (node.type !== "object")
    throw at(node.offset, `"diagnostics" must be an object, e.g. {"engines": ["minja"], "maxSeverity": "information"}`);
  const props = properties(node, ["engines", "maxSeverity"], at);
  const max = props.get("maxSeverity");
  if (!max || max.type !== "string" || !SEVERITIES.includes(max.value as Severity)) {
    throw at(max?.offset ?? node.offset, `"diagnostics" needs "maxSeverity": one of ${SEVERITIES.join(", ")}`);
  }
  const engines = props.get("engines");
  return { engines: engines ? engineList(engines, at, `"diagnostics.engines"`) : [...DEFAULT_ENGINES], maxSeverity: max.value as Severity };
}

function parseCaps(node: Node, at: At): CapsExpectation {
  if (node.type !== "object") throw at(node.offset, `"caps" must be an object`);
  const props = properties(node, ["engine", "nullToolsProbe", ...CAPS_KEYS], at);
  const engine = props.get("engine");
  if (engine && !(engine.type === "string" && (engine.value === "llamacpp" || engine.value === "minja"))) {
    throw at(engine.offset, `"engine" must be "llamacpp" or "minja"`);
  }
  const nullTools = props.get("nullToolsProbe");
  if (nullTools && nullTools.type !== "boolean") throw at(nullTools.offset, `"nullToolsProbe" must be true or false`);
  const values: CapsExpectation["values"] = {};
  for (const k of CAPS_KEYS) {
    const v = props.get(k);
    if (!v) continue;
    if (v.type !== "boolean") throw at(v.offset, `"${k}" must be true or false`);
    values[k] = v.value as boolean;
  }
  if (Object.keys(values).length === 0) throw at(node.offset, `"caps" names no capability (one of ${CAPS_KEYS.join(", ")})`);
  return { engine: (engine?.value as CapsEngine | undefined) ?? "llamacpp", nullToolsProbe: nullTools?.value === true, values };
}

function lineOf(at: At, offset: number): number {
  return at(offset, "").line;
}
