// The first-run walkthrough's commands (its steps are contributes.walkthroughs in package.json): a new chat
// template from the ChatML starter, and a sample whose engine diagnostic has a quick fix. Both open untitled
// documents, so that trying the walkthrough writes no file.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";

async function openUntitled(context: vscode.ExtensionContext, templateFile: string): Promise<void> {
  const content = readFileSync(context.asAbsolutePath(join("templates", templateFile)), "utf8");
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: "chat-template", content }));
}

export function registerWalkthrough(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand("chatTemplate.newTemplate", () => openUntitled(context, join("starters", "chatml.jinja"))),
    vscode.commands.registerCommand("chatTemplate.openEngineProblemSample", () =>
      openUntitled(context, join("walkthrough", "engine-problem.jinja")),
    ),
  );
}
