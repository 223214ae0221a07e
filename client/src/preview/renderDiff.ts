// Two columns of the preview in VS Code's diff editor: each output is a read-only virtual document
// (`chat-template-render:`), so the diff editor's own navigation, inline view and copy work on the exact bytes.
import * as vscode from "vscode";
import type { RenderedColumn } from "./controller";

export const RENDER_SCHEME = "chat-template-render";

/** The outputs shown in diff editors, by URI path; the latest few are kept so reopened diffs still resolve. */
const MAX_KEPT = 64;
const outputs = new Map<string, string>();
let next = 0;

export const renderContentProvider: vscode.TextDocumentContentProvider = {
  provideTextDocumentContent: (uri) => outputs.get(uri.path) ?? "",
};

function documentOf(column: RenderedColumn): vscode.Uri {
  const path = `/${next++}/${column.title.replace(/[^\w.() -]+/g, "_")}.txt`;
  outputs.set(path, column.text);
  if (outputs.size > MAX_KEPT) outputs.delete(outputs.keys().next().value!);
  return vscode.Uri.from({ scheme: RENDER_SCHEME, path });
}

/** Asks which column to compare with (the reference first) and opens the diff. */
export async function showRenderDiff(mine: RenderedColumn, others: readonly RenderedColumn[]): Promise<void> {
  if (others.length === 0) {
    void vscode.window.showInformationMessage("No other column has an output to compare with.");
    return;
  }
  const picked =
    others.length === 1
      ? others[0]
      : (
          await vscode.window.showQuickPick(
            others.map((c) => ({ label: c.title, column: c })),
            { placeHolder: `Compare ${mine.title}'s output with…` },
          )
        )?.column;
  if (!picked) return;
  await vscode.commands.executeCommand("vscode.diff", documentOf(picked), documentOf(mine), `${picked.title} ↔ ${mine.title}`);
}
