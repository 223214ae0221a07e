// "Chat Template: Compare Templates on the Model": `chat-template ab` for the active template and another
// one, on the editor's endpoint, with the live cases of a test file; the report opens as a chart.
import { readFileSync } from "node:fs";
import * as vscode from "vscode";
import {
  abHeader,
  type AbTemplate,
  EndpointError,
  MAX_SAMPLES,
  openEndpoint,
  readTestFile,
  runAb,
  TEST_FILE_SUFFIX,
  type TestFile,
  TestFileError,
} from "../../../server/src/templateTests";
import type { EndpointService } from "../endpoint/service";
import { abPage } from "./abPage";
import { extensionCaseProcess } from "./caseProcess";

async function pickOther(a: vscode.Uri): Promise<vscode.Uri | undefined> {
  const browse = "$(folder-opened) Browse…";
  const found = (await vscode.workspace.findFiles("**/*.jinja", "**/node_modules/**", 500)).filter((u) => u.toString() !== a.toString());
  const picked = await vscode.window.showQuickPick([...found.map((u) => vscode.workspace.asRelativePath(u)), browse], {
    title: "Compare with which template (B)?",
  });
  if (picked === undefined) return undefined;
  if (picked !== browse) return found.find((u) => vscode.workspace.asRelativePath(u) === picked);
  const chosen = await vscode.window.showOpenDialog({
    canSelectMany: false,
    filters: { "Chat templates": ["jinja", "j2", "txt"] },
    title: "Template B",
  });
  return chosen?.[0];
}

async function pickSuite(a: vscode.Uri): Promise<TestFile | undefined> {
  const suites: TestFile[] = [];
  for (const u of await vscode.workspace.findFiles(`**/*${TEST_FILE_SUFFIX}`, "**/node_modules/**")) {
    try {
      const f = readTestFile(u.fsPath);
      if (f.cases.some((c) => c.live)) suites.push(f);
    } catch (e) {
      if (!(e instanceof TestFileError)) throw e; // a broken file is shown in the Test Explorer, not here
    }
  }
  if (!suites.length) {
    void vscode.window.showErrorMessage(`No ${TEST_FILE_SUFFIX} file in the workspace has live cases to compare the templates with.`);
    return undefined;
  }
  // the suite written for template A first
  suites.sort((x, y) => Number(y.templatePath === a.fsPath) - Number(x.templatePath === a.fsPath));
  if (suites.length === 1) return suites[0];
  const picked = await vscode.window.showQuickPick(
    suites.map((s) => ({ label: vscode.workspace.asRelativePath(s.path), suite: s })),
    { title: "Which test file's live cases?" },
  );
  return picked?.suite;
}

export function registerCompareTemplates(context: vscode.ExtensionContext, service: EndpointService): void {
  context.subscriptions.push(
    vscode.commands.registerCommand("chatTemplate.compareTemplates", async (uri?: vscode.Uri) => {
      const a =
        uri ??
        (vscode.window.activeTextEditor?.document.languageId === "chat-template" ? vscode.window.activeTextEditor.document.uri : undefined);
      if (!a) return void vscode.window.showErrorMessage("Open a chat template to compare it with another one.");
      const b = await pickOther(a);
      if (!b) return;
      const suite = await pickSuite(a);
      if (!suite) return;
      const suiteSamples = suite.cases.find((c) => c.live)!.live!.samples;
      const samplesText = await vscode.window.showInputBox({
        title: "Samples per live case",
        value: String(Math.max(suiteSamples, 20)),
        validateInput: (v) =>
          /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= MAX_SAMPLES ? null : `a whole number from 1 to ${MAX_SAMPLES}`,
      });
      if (samplesText === undefined) return;
      const c = await service.connection();
      if (!c) {
        const start = "Start Endpoint";
        if ((await vscode.window.showErrorMessage("Comparing templates needs the model: no endpoint is running.", start)) === start) {
          await vscode.commands.executeCommand("chatTemplate.endpoint.start");
        }
        return;
      }
      let endpoint;
      try {
        endpoint = await openEndpoint(c.url, c.apiKey);
      } catch (e) {
        if (e instanceof EndpointError) return void vscode.window.showErrorMessage(e.message);
        throw e;
      }
      if (!endpoint.takesTemplate) {
        return void vscode.window.showErrorMessage(
          `${endpoint.base} (${endpoint.server}) takes no per-request chat template, so both templates would run with the one it serves. Use the bundled endpoint or vLLM.`,
        );
      }
      const templates: AbTemplate[] = [];
      // the markers probe the template: in a helper process with limits, not in the extension host
      const helper = extensionCaseProcess(context.extensionPath);
      try {
        for (const [i, u] of [a, b].entries()) {
          const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === u.toString());
          // an open editor's text, saved or not: what the user sees is what is compared
          const text = open?.getText() ?? readFileSync(u.fsPath, "utf8");
          const path = vscode.workspace.asRelativePath(u);
          const markers = await helper.markers(text);
          if (!markers.ok) return void vscode.window.showErrorMessage(`${path}: ${markers.message}`);
          templates.push({ label: i === 0 ? "A" : "B", path, text, markers: markers.markers });
        }
      } finally {
        helper.dispose();
      }
      const cases = suite.cases.flatMap((x) => (x.live ? [{ name: x.name, live: x.live }] : []));
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: "Comparing templates on the model", cancellable: true },
        async (progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          let last = 0;
          const r = await runAb(cases, templates as [AbTemplate, AbTemplate], endpoint, {
            samples: Number(samplesText),
            signal: abort.signal,
            onProgress: (done, total) => {
              progress.report({ increment: ((done - last) / total) * 100, message: `${done}/${total} case runs` });
              last = done;
            },
          });
          return abort.signal.aborted ? undefined : r;
        },
      );
      if (!result) return;
      const panel = vscode.window.createWebviewPanel(
        "chatTemplate.compare",
        `Compare: ${templates[0].path} vs ${templates[1].path}`,
        vscode.ViewColumn.Beside,
        { enableScripts: false },
      );
      panel.webview.html = abPage(abHeader(vscode.workspace.asRelativePath(suite.path), endpoint), result, panel.webview.cspSource);
    }),
  );
}
