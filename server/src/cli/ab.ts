// `chat-template ab A.jinja B.jinja --suite FILE [--samples N] [--endpoint URL] [--json]`: runs the live
// cases of a test file for each template on the same model and seeds and compares how often each gets
// well-formed tool calls. Without --endpoint it runs on the bundled endpoint (its demo models) and says so. Our endpoint and vLLM render each request with the template it names, so no
// restart is needed; a server without a per-request template field cannot compare templates (exit 2).
import { resolve } from "node:path";
import { TemplateDocument } from "../document";
import { abHeader, abJson, type AbTemplate, abText, markersOf, MAX_SAMPLES, runAb } from "../templateTests";
import { type CommandHelp, type CommandIO, intOption, parseArgs, progressLine, UsageError } from "../commandLine";
import { startBundledEndpoint } from "./bundledEndpoint";
import { readTemplate } from "./readTemplate";
import { reach, readTestFiles } from "./test";

export const help: CommandHelp = {
  usage: "chat-template ab A.jinja B.jinja --suite FILE [--samples N] [--endpoint URL] [--json]",
  summary: "compare two templates on a model: how often each gets well-formed tool calls, with 95 % intervals",
  description:
    "Runs the live cases of the test file --suite for template A and template B on the same model with the same " +
    "seeds, and reports per template the share of well-formed samples with its 95 % interval (Wilson), the failures " +
    "by kind, tokens and time per sample, then the difference B - A with its 95 % interval (Newcombe) and whether it " +
    "is significant. The server must take a per-request template (our endpoint, vLLM). Without --endpoint it starts " +
    "the bundled endpoint on its demo models for the run, whose rates say nothing about a real model. On a terminal, " +
    "stderr shows how far the run is.",
  options: [
    ["--suite FILE", "a *.chat-template-test.json file with live cases (required)"],
    ["--samples N", "samples per case, replacing each case's own"],
    ["--endpoint URL", "the OpenAI-compatible server to run on (default: start the bundled one)"],
    ["--json", "print the report as JSON"],
  ],
  examples: [
    "chat-template ab plain.jinja thinking.jinja --suite weather.chat-template-test.json --samples 40 --endpoint http://127.0.0.1:8080",
  ],
  exitCodes: [
    [0, "the comparison ran (significant or not)"],
    [2, "usage error, a bad test file, an endpoint that cannot be reached or takes no per-request template"],
  ],
};

export async function abCommand(argv: string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, { values: ["suite", "samples", "endpoint"], switches: ["json"] });
  if (args.positionals.length !== 2) throw new UsageError("give two templates, A and B");
  const suitePath = args.values.get("suite");
  if (suitePath === undefined) throw new UsageError("--suite FILE is required: a *.chat-template-test.json file with live cases");
  const samples = intOption("samples", args.values.get("samples"), 1, MAX_SAMPLES);
  const url = args.values.get("endpoint");
  const [{ file }] = readTestFiles([suitePath]);
  const cases = file.cases.flatMap((c) => (c.live ? [{ name: c.name, live: c.live }] : []));
  if (!cases.length) throw new UsageError(`${suitePath} has no live cases`);
  const templates = args.positionals.map((p, i): AbTemplate => {
    const text = readTemplate(p);
    return { label: i === 0 ? "A" : "B", path: p, text, markers: markersOf(new TemplateDocument(text)) };
  }) as [AbTemplate, AbTemplate];
  const progress = progressLine(io, "ab");
  if (url === undefined) progress.update("starting the bundled endpoint (demo models)…");
  const bundled = url === undefined ? await startBundledEndpoint().finally(() => progress.done()) : undefined;
  try {
    const options = { suitePath, cases, templates, samples, json: args.switches.has("json") };
    return await compare(io, bundled ? bundled.url : url!, options).finally(() => progress.done());
  } finally {
    bundled?.stop();
  }
}

interface Comparison {
  suitePath: string;
  cases: Parameters<typeof runAb>[0];
  templates: [AbTemplate, AbTemplate];
  samples?: number;
  json: boolean;
}

async function compare(io: CommandIO, url: string, c: Comparison): Promise<number> {
  const { suitePath, cases, templates, samples } = c;
  const endpoint = await reach(url);
  if (!endpoint.takesTemplate) {
    throw new UsageError(
      `${endpoint.base} (${endpoint.server}) takes no per-request chat template, so both templates would run with the one it serves; ` +
        "use our endpoint (chat-template serve) or vLLM, or restart the server with each template and compare `chat-template test --reporter json` runs",
    );
  }
  const progress = progressLine(io, "ab");
  const onSample = (template: string, caseName: string, done: number, total: number) =>
    progress.update(`template ${template}, case '${caseName}': ${done} of ${total} samples`);
  progress.update(`template A, case '${cases[0]!.name}': starting`);
  const result = await runAb(cases, templates, endpoint, { samples, onSample }).finally(() => progress.done());
  const header = abHeader(resolve(suitePath), endpoint);
  io.stdout(c.json ? abJson(header, result) : abText(header, result));
  return 0;
}
