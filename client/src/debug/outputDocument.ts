// The debugged render's output as a read-only document that grows as you step: the adapter's custom event at
// each stop carries the output so far and the range written since the previous stop, which is highlighted.
import * as vscode from "vscode";

const SCHEME = "chat-template-debug-output";
/** server/src/debugger/adapter.ts: OUTPUT_EVENT and its body, OutputSoFar (the adapter runs in its own process). */
const OUTPUT_EVENT = "chatTemplateOutput";
interface OutputSoFar {
  output: string;
  written: [number, number];
}

export function registerOutputDocument(context: vscode.ExtensionContext, debugType: string): void {
  const outputs = new Map<string, OutputSoFar>();
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const written = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor("editor.findMatchHighlightBackground"),
  });
  const uriOf = (s: vscode.DebugSession) => vscode.Uri.from({ scheme: SCHEME, path: `/${s.name} (output so far)`, query: s.id });
  const decorate = () => {
    for (const editor of vscode.window.visibleTextEditors) {
      const doc = editor.document;
      const out = doc.uri.scheme === SCHEME ? outputs.get(doc.uri.query) : undefined;
      if (!out) continue;
      const [start, end] = out.written;
      editor.setDecorations(written, end > start ? [new vscode.Range(doc.positionAt(start), doc.positionAt(end))] : []);
      if (end > start) editor.revealRange(new vscode.Range(doc.positionAt(end), doc.positionAt(end)));
    }
  };
  context.subscriptions.push(
    changed,
    written,
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
      onDidChange: changed.event,
      provideTextDocumentContent: (uri) => outputs.get(uri.query)?.output ?? "",
    }),
    vscode.debug.onDidReceiveDebugSessionCustomEvent((e) => {
      if (e.session.type !== debugType || e.event !== OUTPUT_EVENT) return;
      outputs.set(e.session.id, e.body as OutputSoFar);
      changed.fire(uriOf(e.session));
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document.uri.scheme === SCHEME) decorate();
    }),
    vscode.window.onDidChangeVisibleTextEditors(decorate),
    vscode.commands.registerCommand("chatTemplate.showDebugOutput", async () => {
      const session = vscode.debug.activeDebugSession;
      if (session?.type !== debugType) {
        void vscode.window.showErrorMessage("Start debugging a chat template to see its output so far.");
        return;
      }
      const doc = await vscode.workspace.openTextDocument(uriOf(session));
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
      decorate();
    }),
  );
}
