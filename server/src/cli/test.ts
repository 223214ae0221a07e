// `chat-template test [FILE|DIR…] [--endpoint URL] [--reporter text|json|junit] [--update-snapshots]`: runs
// the cases of `*.chat-template-test.json` files (a directory is searched for them; no argument means the
// current one). Live cases run on the OpenAI-compatible server at --endpoint, each request rendered with
// the file's template where the server takes a per-request template; without --endpoint they are skipped.
// --update-snapshots writes the snapshot files of snapshot cases from this run's renders. Exit 0 when
// every case passes, 1 when any fails, 2 on usage or file errors (a bad test file is named with its line,
// before any case runs; an endpoint that cannot be reached).
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { TemplateDocument } from "../document";
import {
  type Endpoint,
  EndpointError,
  endpointNotes,
  type FileResult,
  markersOf,
  openEndpoint,
  readTestFile,
  report,
  REPORTERS,
  runCase,
  TEST_FILE_SUFFIX,
  type TestFile,
  TestFileError,
} from "../templateTests";
import { type CommandHelp, type CommandIO, oneOf, parseArgs, progressLine, UsageError } from "../commandLine";
import { readTemplate } from "./readTemplate";

export const help: CommandHelp = {
  usage: "chat-template test [FILE|DIR…] [--endpoint URL] [--reporter text|json|junit] [--update-snapshots]",
  summary: "run the cases of *.chat-template-test.json files (capabilities, renders, snapshots, live tool calls)",
  description:
    "Runs every *.chat-template-test.json file given, or found under the folders given (default: the current one). " +
    "A test file pins what its template must keep doing: the capabilities llama.cpp infers, the tool-call format, " +
    "that engines render a scenario (the same bytes as another engine, or a snapshot), the most severe diagnostic, " +
    "and live cases that ask a model for tool calls and count the well-formed ones. Live cases run on the " +
    "OpenAI-compatible server at --endpoint and are skipped without it. A bad test file is reported at its line " +
    "before anything runs. On a terminal, stderr shows which case is running.",
  options: [
    ["--endpoint URL", "the server live cases run on ($CHAT_TEMPLATE_API_KEY or $OPENAI_API_KEY is its bearer key)"],
    ["--reporter text|json|junit", "the report's format (default text)"],
    ["--update-snapshots", "write snapshot files from this run's renders"],
  ],
  examples: [
    "chat-template test",
    "chat-template test --reporter junit templates/ > template-tests.xml",
    "chat-template test weather.chat-template-test.json --endpoint http://127.0.0.1:8080",
  ],
  exitCodes: [
    [0, "every case passed"],
    [1, "a case failed (each failure names the case, its line, what was expected and seen)"],
    [2, "usage error, a bad test file, or an endpoint that cannot be reached"],
  ],
};

export async function testCommand(argv: string[], io: CommandIO): Promise<number> {
  const args = parseArgs(argv, { values: ["reporter", "endpoint"], switches: ["update-snapshots"] });
  const reporter = oneOf("reporter", args.values.get("reporter") ?? "text", REPORTERS);
  const files = readTestFiles(args.positionals.length ? args.positionals : ["."]);
  const url = args.values.get("endpoint");
  const endpoint = url === undefined || !files.some((f) => f.file.cases.some((c) => c.live)) ? undefined : await reach(url);
  const notes = endpoint ? endpointNotes(endpoint) : [];
  const results: FileResult[] = [];
  const progress = progressLine(io, "test");
  const total = files.reduce((n, f) => n + f.file.cases.length, 0);
  for (const { file, doc, text } of files) {
    const live = endpoint && { endpoint, template: text, markers: markersOf(doc) };
    const cases = [];
    for (const c of file.cases) {
      progress.update(`${results.reduce((n, r) => n + r.cases.length, 0) + cases.length + 1} of ${total} cases: ${file.path}, '${c.name}'`);
      cases.push(await runCase(doc, c, { updateSnapshots: args.switches.has("update-snapshots"), live }));
    }
    results.push({ path: file.path, templatePath: file.templatePath, cases });
  }
  progress.done();
  io.stdout(report(reporter, results, notes));
  return results.some((f) => f.cases.some((c) => c.failures.length)) ? 1 : 0;
}

/** Every test file and its template, read before anything runs so that a bad one stops the run. */
export function readTestFiles(paths: string[]): { file: TestFile; doc: TemplateDocument; text: string }[] {
  const found = paths.flatMap(testFilesUnder);
  if (!found.length) throw new UsageError(`no *${TEST_FILE_SUFFIX} files in ${paths.join(", ")}`);
  try {
    return found.map((p) => {
      const file = readTestFile(p);
      const text = readTemplate(file.templatePath);
      return { file, doc: new TemplateDocument(text), text };
    });
  } catch (e) {
    if (e instanceof TestFileError) throw new UsageError(e.message);
    throw e;
  }
}

export async function reach(url: string): Promise<Endpoint> {
  try {
    return await openEndpoint(url);
  } catch (e) {
    if (e instanceof EndpointError) throw new UsageError(e.message);
    throw e;
  }
}

function testFilesUnder(path: string): string[] {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (!st.isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((d) => !d.name.startsWith(".") && d.name !== "node_modules")
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((d) => (d.isDirectory() ? testFilesUnder(join(path, d.name)) : d.name.endsWith(TEST_FILE_SUFFIX) ? [join(path, d.name)] : []));
}
