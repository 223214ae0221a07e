// "Open Chat Template from tokenizer_config.json": picks the file (or takes the Explorer's) and, when it
// holds several named templates, which one.
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import * as vscode from "vscode";
import { HfConfigError, readChatTemplates } from "../../../server/src/hfConfig";
import { hfTemplateUri } from "./fileSystem";

export async function openTemplateFromHfConfig(target?: vscode.Uri): Promise<void> {
  const file =
    target ??
    (
      await vscode.window.showOpenDialog({
        canSelectMany: false,
        filters: { "Tokenizer configuration": ["json"] },
        openLabel: "Open Template",
      })
    )?.[0];
  if (!file) return;
  let templates;
  try {
    templates = readChatTemplates(readFileSync(file.fsPath, "utf8"));
  } catch (e) {
    if (!(e instanceof HfConfigError) && (e as NodeJS.ErrnoException).code === undefined) throw e;
    void vscode.window.showErrorMessage(`Cannot read a chat template from ${basename(file.fsPath)}: ${(e as Error).message}`);
    return;
  }
  let name = templates[0].name;
  if (templates.length > 1) {
    const picked = await vscode.window.showQuickPick(
      templates.map((t) => ({ label: t.name ?? "chat_template", description: `${t.template.length} characters`, name: t.name })),
      { placeHolder: `${basename(file.fsPath)} has ${templates.length} chat templates` },
    );
    if (!picked) return;
    name = picked.name;
  }
  await vscode.window.showTextDocument(hfTemplateUri(file, name), { preview: false });
}
