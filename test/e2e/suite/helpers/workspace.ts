// The fixture workspace (test/e2e/fixtures/workspace, opened as the test window's folder) and waits on what
// the language server publishes.
import * as vscode from "vscode";

export function fixtureUri(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error("the e2e window has no workspace folder");
  return vscode.Uri.joinPath(folder.uri, name);
}

// The extension under test (publisher.name in package.json).
const EXTENSION_ID = "chat-template-studio.chat-template-studio";

function extension(): vscode.Extension<unknown> {
  const found = vscode.extensions.getExtension(EXTENSION_ID);
  if (!found) throw new Error(`${EXTENSION_ID} is not loaded`);
  return found;
}

// A file of the extension under test (the repo root), e.g. the shared corpus in test/fixtures/corpus.
export function extensionFile(relativePath: string): vscode.Uri {
  return vscode.Uri.joinPath(extension().extensionUri, relativePath);
}

// Opens a fixture (a file of the workspace folder, or a document the test made) in an editor and waits until the extension is active, i.e. its language client has
// started: until then hover, completion and the other providers are not registered yet.
export async function openFixture(name: string | vscode.TextDocument): Promise<vscode.TextEditor> {
  const doc = typeof name === "string" ? await vscode.workspace.openTextDocument(fixtureUri(name)) : name;
  const editor = await vscode.window.showTextDocument(doc);
  await extension().activate();
  return editor;
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
