// `chat-template check [--engines LIST] [--unsupported-scenarios] [--format text|json|sarif] [--fail-on LEVEL] [--ignore-file FILE] [--gguf MODEL] [--llama-server-args FLAGS] FILE...`
// A FILE ending in .gguf is checked by its embedded template, against its own tokenizer; a .json one (a Hugging
// Face tokenizer_config.json or chat_template.json) by each of its templates, at their places in the JSON; --gguf checks
// template files against a model's tokenizer.
import { existsSync, readFileSync } from "node:fs";
import manifest from "../../../package.json";
import { DEFAULT_ENGINES, ENGINE_IDS } from "../dialects";
import { type Diagnostic, type EngineId, type Severity, TemplateDocument } from "../document";
import { validate } from "../services";
import { type CommandHelp, type CommandIO, oneOf, parseArgs, UsageError } from "../commandLine";
import type { ModelTokenizer } from "../analysis";
import { positionInFile } from "../hfConfig";
import { isHfConfigFile, readHfConfig } from "./hfConfigFile";
import { readModelFile, type ModelFile } from "./modelFile";
import { IGNORE_FILE, ignoredBy, readIgnoreFile, type IgnoreList } from "./ignoreFile";
import { sarifLog, type SarifFinding } from "./sarif";
import { LLAMA_SERVER_ARGS, llamaServerArgs } from "./llamaServerArgs";

export const help: CommandHelp = {
  usage:
    "chat-template check [--engines LIST] [--unsupported-scenarios] [--format text|json|sarif] [--fail-on error|warning|information] [--ignore-file FILE] [--gguf MODEL.gguf] [--llama-server-args FLAGS] FILE...",
  summary: "report syntax errors, engine incompatibilities and security findings, as the editor shows them",
  description:
    "Checks each template file (the template inside a .gguf, or each one in a Hugging Face tokenizer_config.json or " +
    "chat_template.json, at its place in the JSON) and prints one line per finding, " +
    "file:line:col: severity: message [code]: syntax errors; where llama.cpp, minja or @huggingface/jinja cannot run " +
    "the template or render different bytes from Python Jinja2 on the built-in sample scenarios; where llama.cpp's " +
    "capability probe throws; what a template in a downloaded model could do to the machine that renders it " +
    "(security/...); and, against a model's tokenizer, special tokens it does not have or a doubled BOS (model/...). " +
    "Findings accepted in .chat-template-ignore.json are left out.",
  options: [
    [
      "--engines LIST",
      "comma-separated engines to compare with Jinja2 (default jinja2,llamacpp,minja; also hfjinja, llama-server, jinja2-3.1.2)",
    ],
    ["--format text|json|sarif", "one line per finding (default), a JSON array per file, or a SARIF 2.1.0 log for code scanning"],
    ["--fail-on LEVEL", "exit 1 when a finding is at this level or above: error (default), warning or information"],
    ["--ignore-file FILE", "the accepted findings (default .chat-template-ignore.json in the working directory)"],
    ["--gguf MODEL.gguf", "also check the templates against this model's tokenizer and bos/eos"],
    ["--unsupported-scenarios", "also report findings about scenarios Jinja2 itself refuses (left out by default)"],
    ["--llama-server-args FLAGS", "llama-server engine: the flags your llama-server starts with (--chat-template-kwargs, --reasoning, …)"],
  ],
  examples: [
    "chat-template check chat_template.jinja",
    "chat-template check --fail-on warning --format sarif templates/*.jinja > results.sarif",
    "chat-template check model.gguf",
  ],
  exitCodes: [
    [0, "no finding at the --fail-on level (findings below it are still printed)"],
    [1, "a finding at the --fail-on level or above"],
    [2, "usage error, or a file cannot be read"],
  ],
};

/** Most severe first: `--fail-on warning` fails on warnings and errors. */
const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

export function parseEngineList(list: string): EngineId[] {
  const engines = list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (engines.length === 0) throw new UsageError("--engines needs at least one engine");
  return engines.map((e) => oneOf("engines", e, ENGINE_IDS));
}

interface FileReport {
  file: string;
  diagnostics: {
    line: number;
    column: number;
    endLine: number;
    endColumn: number;
    severity: Diagnostic["severity"];
    code: string;
    engine: EngineId | null;
    message: string;
  }[];
}

/** A template a file holds, where its offsets are in that file, and the tokenizer its model checks use. */
interface HeldTemplate {
  doc: TemplateDocument;
  position: (offset: number) => { line: number; character: number };
  tokenizer: ModelTokenizer | undefined;
}

/** The templates a file named on the command line holds: a template file, a GGUF's, or a tokenizer_config.json's (each named one). */
function templatesIn(file: string, model: ModelFile | null): HeldTemplate[] {
  if (isHfConfigFile(file)) {
    const { text, templates } = readHfConfig(file);
    return templates.map((t) => ({
      doc: new TemplateDocument(t.template),
      position: positionInFile(text, t),
      tokenizer: model?.tokenizer,
    }));
  }
  let text: string;
  let tokenizer = model?.tokenizer;
  if (file.endsWith(".gguf")) {
    const own = readModelFile(file);
    if (own.template === undefined) throw new UsageError(`${file} has no tokenizer.chat_template`);
    text = own.template;
    tokenizer ??= own.tokenizer;
  } else {
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  const doc = new TemplateDocument(text);
  return [{ doc, position: (o) => doc.lines.positionAt(o), tokenizer }];
}

export function checkCommand(argv: string[], io: CommandIO): number {
  const args = parseArgs(argv, {
    values: ["engines", "format", "fail-on", "ignore-file", "gguf", LLAMA_SERVER_ARGS],
    switches: ["unsupported-scenarios"],
  });
  const serverArgs = llamaServerArgs(args.values);
  const format = oneOf("format", args.values.get("format") ?? "text", ["text", "json", "sarif"] as const);
  const failOn = oneOf("fail-on", args.values.get("fail-on") ?? "error", ["error", "warning", "information"] as const);
  const engines = args.values.has("engines") ? parseEngineList(args.values.get("engines")!) : DEFAULT_ENGINES;
  if (args.positionals.length === 0) throw new UsageError("no template file given");
  // The project's ignore file is found where the command runs, as linters find theirs.
  const ignorePath = args.values.get("ignore-file") ?? (existsSync(IGNORE_FILE) ? IGNORE_FILE : null);
  const ignores: IgnoreList | null = ignorePath ? readIgnoreFile(ignorePath) : null;
  let failed = false;
  const reports: FileReport[] = [];
  const sarif: SarifFinding[] = [];
  const model: ModelFile | null = args.values.has("gguf") ? readModelFile(args.values.get("gguf")!) : null;
  const unsupportedScenarios = args.switches.has("unsupported-scenarios");
  for (const file of args.positionals) {
    const all = templatesIn(file, model).flatMap(({ doc, position, tokenizer }) =>
      validate(doc, { engines, unsupportedScenarios, llamaServerArgs: serverArgs, ...(tokenizer ? { tokenizer } : {}) }).map((d) => {
        const s = position(d.start);
        const e = position(d.end);
        return {
          line: s.line + 1,
          column: s.character + 1,
          endLine: e.line + 1,
          endColumn: e.character + 1,
          severity: d.severity,
          code: d.code,
          engine: d.engine,
          message: d.message,
        };
      }),
    );
    const diagnostics: FileReport["diagnostics"] = [];
    for (const d of all) {
      const accepted = ignores ? ignoredBy(ignores, file, d.code, d.line, d.endLine) : null;
      if (!accepted) diagnostics.push(d);
      sarif.push({ file, ...d, suppressedBecause: accepted ? accepted.reason : null });
    }
    if (diagnostics.some((d) => SEVERITY_RANK[d.severity] <= SEVERITY_RANK[failOn])) failed = true;
    reports.push({ file, diagnostics });
  }
  if (format === "sarif") {
    io.stdout(JSON.stringify(sarifLog(sarif, { version: manifest.version, informationUri: manifest.repository.url }), null, 2) + "\n");
  } else if (format === "json") {
    io.stdout(JSON.stringify(reports, null, 2) + "\n");
  } else {
    for (const r of reports) {
      for (const d of r.diagnostics) {
        io.stdout(`${r.file}:${d.line}:${d.column}: ${d.severity}: ${d.message.replace(/\n/g, " ")} [${d.code}]\n`);
      }
    }
  }
  return failed ? 1 : 0;
}
