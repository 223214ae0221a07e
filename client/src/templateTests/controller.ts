// The Test Explorer for `*.chat-template-test.json`: a TestController lists every test file in the
// workspace with its cases (at their lines), runs them with the same runner as `chat-template test` (live
// cases on the editor's endpoint, skipped when none is running), shows failures at the case's line with a
// diff for render comparisons, and accepts a changed snapshot ("Update Snapshot", or the "Update
// Snapshots" run profile). The cases run in a helper process with limits (caseProcess.ts), so no template
// under test blocks or ends the extension host.
import * as vscode from "vscode";
import {
  type Endpoint,
  EndpointError,
  openEndpoint,
  parseTestFile,
  readTestFile,
  TEST_FILE_SUFFIX,
  type TestFile,
  TestFileError,
} from "../../../server/src/templateTests";
import type { EndpointService } from "../endpoint/service";
import { extensionCaseProcess } from "./caseProcess";
import { caseMessages } from "./messages";

const GLOB = `**/*${TEST_FILE_SUFFIX}`;
const SNAPSHOT_MESSAGE = "chatTemplate.snapshotMismatch";

export function registerTemplateTests(context: vscode.ExtensionContext, service: EndpointService): void {
  const ctrl = vscode.tests.createTestController("chatTemplate.tests", "Chat Template Tests");
  context.subscriptions.push(ctrl);

  /** Lists the cases of one test file under its item; a file that does not parse shows its error. */
  function load(uri: vscode.Uri, text?: string): void {
    let item = ctrl.items.get(uri.toString());
    if (!item) {
      item = ctrl.createTestItem(uri.toString(), vscode.workspace.asRelativePath(uri), uri);
      ctrl.items.add(item);
    }
    let file: TestFile;
    try {
      file = text === undefined ? readTestFile(uri.fsPath) : parseTestFile(uri.fsPath, text);
    } catch (e) {
      if (!(e instanceof TestFileError)) throw e;
      item.error = `${e.line}:${e.column}: ${e.detail}`;
      item.children.replace([]);
      return;
    }
    item.error = undefined;
    item.children.replace(
      file.cases.map((c) => {
        const child = ctrl.createTestItem(`${uri.toString()}#${c.name}`, c.name, uri);
        child.range = new vscode.Range(c.line - 1, 0, c.line - 1, 0);
        if (c.live) child.description = "live";
        return child;
      }),
    );
  }

  async function discover(): Promise<void> {
    for (const uri of await vscode.workspace.findFiles(GLOB, "**/node_modules/**")) load(uri);
  }

  ctrl.resolveHandler = async (item) => {
    if (!item) await discover();
  };
  ctrl.refreshHandler = async () => {
    ctrl.items.replace([]);
    await discover();
  };
  const watcher = vscode.workspace.createFileSystemWatcher(GLOB);
  context.subscriptions.push(
    watcher,
    watcher.onDidCreate((u) => load(u)),
    watcher.onDidChange((u) => load(u)),
    watcher.onDidDelete((u) => ctrl.items.delete(u.toString())),
    // the cases follow edits before a save, so the Explorer's lines stay right while typing
    vscode.workspace.onDidChangeTextDocument(
      (e) =>
        e.document.uri.path.endsWith(TEST_FILE_SUFFIX) &&
        ctrl.items.get(e.document.uri.toString()) &&
        load(e.document.uri, e.document.getText()),
    ),
  );

  /** The editor's endpoint for live cases, or why there is none (they are then skipped). */
  async function liveEndpoint(): Promise<Endpoint | string> {
    const c = await service.connection();
    if (!c) return "no endpoint is running (Chat Template: Start Endpoint, or an external one in chatTemplate.endpoint)";
    try {
      return await openEndpoint(c.url, c.apiKey);
    } catch (e) {
      if (e instanceof EndpointError) return e.message;
      throw e;
    }
  }

  async function run(request: vscode.TestRunRequest, token: vscode.CancellationToken, updateSnapshots: boolean): Promise<void> {
    const testRun = ctrl.createTestRun(request);
    const byFile = new Map<string, Set<string> | "all">();
    const roots = request.include ?? [...iterate(ctrl.items)];
    for (const item of roots) {
      const [file, name] = item.id.split(/#(.*)/s);
      if (name === undefined) byFile.set(file, "all");
      else if (byFile.get(file) !== "all") byFile.set(file, ((byFile.get(file) as Set<string> | undefined) ?? new Set()).add(name));
    }
    const excluded = new Set((request.exclude ?? []).map((i) => i.id));
    let live: Awaited<ReturnType<typeof liveEndpoint>> | undefined;
    const cases = extensionCaseProcess(context.extensionPath);
    try {
      for (const [fileId, names] of byFile) {
        if (token.isCancellationRequested) break;
        const fileItem = ctrl.items.get(fileId);
        if (!fileItem?.uri) continue;
        const items = [...iterate(fileItem.children)].filter(
          (i) => !excluded.has(i.id) && (names === "all" || names.has(i.id.split(/#(.*)/s)[1])),
        );
        let file: TestFile;
        try {
          file = readTestFile(fileItem.uri.fsPath);
        } catch (e) {
          if (!(e instanceof TestFileError)) throw e;
          for (const i of items) testRun.errored(i, new vscode.TestMessage(e.message));
          continue;
        }
        for (const item of items) {
          if (token.isCancellationRequested) break;
          const tc = file.cases.find((c) => c.name === item.label);
          if (!tc) {
            testRun.errored(item, new vscode.TestMessage("the case is no longer in the file"));
            continue;
          }
          testRun.started(item);
          if (tc.live && live === undefined) live = await liveEndpoint();
          const endpoint = tc.live && typeof live === "object" ? live : undefined;
          const reply = await cases.run(tc, { testFile: file.path, name: tc.name, updateSnapshots, endpoint });
          const at = new vscode.Location(fileItem.uri, new vscode.Position(tc.line - 1, 0));
          if (!reply.ok) {
            const msg = new vscode.TestMessage(reply.message);
            // a render that ended the helper: at the template's statement it had reached
            msg.location = reply.at
              ? new vscode.Location(vscode.Uri.file(file.templatePath), new vscode.Position(reply.at.line - 1, reply.at.column - 1))
              : at;
            testRun.failed(item, msg);
            continue;
          }
          const result = reply.result;
          for (const w of result.written) testRun.appendOutput(`wrote snapshot ${w}\r\n`, undefined, item);
          if (result.skipped) {
            testRun.appendOutput(`${tc.name}: skipped, ${typeof live === "string" ? live : result.skipped}\r\n`, undefined, item);
            testRun.skipped(item);
          } else if (result.failures.length) {
            const messages = caseMessages(result).map((m) => {
              const msg =
                m.expected !== undefined ? vscode.TestMessage.diff(m.text, m.expected, m.actual!) : new vscode.TestMessage(m.text);
              msg.location = at;
              if (m.snapshot) msg.contextValue = SNAPSHOT_MESSAGE;
              return msg;
            });
            testRun.failed(item, messages, result.durationMs);
          } else testRun.passed(item, result.durationMs);
        }
      }
    } finally {
      cases.dispose();
      testRun.end();
    }
  }

  ctrl.createRunProfile("Run", vscode.TestRunProfileKind.Run, (r, t) => run(r, t, false), true);
  ctrl.createRunProfile("Update Snapshots", vscode.TestRunProfileKind.Run, (r, t) => run(r, t, true), false);
  context.subscriptions.push(
    // the action on a snapshot failure's message in the Test Results and the peek view
    vscode.commands.registerCommand("chatTemplate.updateSnapshot", (args: { test: vscode.TestItem }) =>
      run(new vscode.TestRunRequest([args.test]), new vscode.CancellationTokenSource().token, true),
    ),
  );
}

function* iterate(items: vscode.TestItemCollection): Generator<vscode.TestItem> {
  const all: vscode.TestItem[] = [];
  items.forEach((i) => all.push(i));
  yield* all;
}
