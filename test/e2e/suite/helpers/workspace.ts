// The fixture workspace (test/e2e/fixtures/workspace, opened as the test window's folder) and waits on what
// the language server publishes.
import * as vscode from "vscode";

export function fixtureUri(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error("the e2e window has no workspace folder");
  return vscode.Uri.joinPath(folder.uri, name);
}

export async function openFixture(name: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(fixtureUri(name));
  return vscode.window.showTextDocument(doc);
}

// Resolves with the diagnostics of `uri` once `accept` holds for them (the server publishes after a debounce).
export function waitForDiagnostics(
  uri: vscode.Uri,
  accept: (diagnostics: vscode.Diagnostic[]) => boolean,
  timeoutMs = 20_000,
): Promise<vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const current = vscode.languages.getDiagnostics(uri);
      if (!accept(current)) return false;
      done();
      resolve(current);
      return true;
    };
    const listener = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === uri.toString())) check();
    });
    const timer = setTimeout(() => {
      done();
      reject(new Error(`diagnostics of ${uri.fsPath} never matched; last: ${JSON.stringify(vscode.languages.getDiagnostics(uri))}`));
    }, timeoutMs);
    const done = () => {
      listener.dispose();
      clearTimeout(timer);
    };
    check();
  });
}
