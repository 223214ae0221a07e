// The fixture workspace (test/e2e/fixtures/workspace, opened as the test window's folder) and waits on what
// the language server publishes.
import { join } from "node:path";
import * as vscode from "vscode";

export function fixtureUri(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error("the e2e window has no workspace folder");
  return vscode.Uri.joinPath(folder.uri, name);
}

// The extension under test (publisher.name in package.json).
const EXTENSION_ID = "chat-template-studio.chat-template-studio";

export function extension(): vscode.Extension<unknown> {
  const found = vscode.extensions.getExtension(EXTENSION_ID);
  if (!found) throw new Error(`${EXTENSION_ID} is not loaded`);
  return found;
}

// A file of the repo, e.g. the shared corpus in test/fixtures/corpus: the code-server driver names the repo
// (the extension under test is the installed package, which has no tests); under test-electron the
// extension under development is the repo.
export function repoFile(relativePath: string): vscode.Uri {
  const root = process.env.CHAT_TEMPLATE_E2E_REPO;
  return root ? vscode.Uri.file(join(root, relativePath)) : vscode.Uri.joinPath(extension().extensionUri, relativePath);
}

// The package under test: "linux-x64" (with the native engine) or "universal" (without, as on macOS, Windows
// and arm64); undefined under test-electron, where the development folder (with the engine) runs.
export const installedPackage = process.env.CHAT_TEMPLATE_E2E_PACKAGE as "linux-x64" | "universal" | undefined;
export const hasNativeEngine = installedPackage !== "universal";

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
