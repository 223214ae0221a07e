// The GGUF commands: open a template from a model file, and save an edited one into a copy of it.
import { basename } from "node:path";
import * as vscode from "vscode";
import { GGUFError } from "../../../server/src/gguf";
import { boundModel } from "./binding";
import { ggufOf, GGUF_TEMPLATE_SCHEME, templateUri } from "./fileSystem";
import { saveTemplateCopy } from "./saveCopy";
import { variantLabel } from "./templateName";

export async function openTemplateFromGguf(target?: vscode.Uri): Promise<void> {
  const file =
    target ??
    (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { "GGUF models": ["gguf"] }, openLabel: "Open Template" }))?.[0];
  if (!file) return;
  let templates;
  try {
    templates = boundModel(file.fsPath).info.templates;
  } catch (e) {
    if (!(e instanceof GGUFError) && (e as NodeJS.ErrnoException).code === undefined) throw e;
    void vscode.window.showErrorMessage(`Cannot read the GGUF: ${(e as Error).message}`);
    return;
  }
  let variant: string | null = null;
  if (templates.length === 0) {
    void vscode.window.showWarningMessage(
      `${basename(file.fsPath)} has no tokenizer.chat_template; an empty one is opened, which a copy can carry.`,
    );
  } else if (templates.length > 1) {
    const picked = await vscode.window.showQuickPick(
      templates.map((t) => ({ label: variantLabel(t.name), description: `${t.text.length} characters`, name: t.name })),
      { placeHolder: `${basename(file.fsPath)} has ${templates.length} chat templates` },
    );
    if (!picked) return;
    variant = picked.name;
  } else {
    variant = templates[0].name;
  }
  await vscode.window.showTextDocument(templateUri(file, variant), { preview: false });
}

export async function saveTemplateToGgufCopy(): Promise<void> {
  const doc = vscode.window.activeTextEditor?.document;
  if (doc?.uri.scheme !== GGUF_TEMPLATE_SCHEME) {
    void vscode.window.showErrorMessage("The active editor does not show a template opened from a GGUF.");
    return;
  }
  const { file, variant } = ggufOf(doc.uri);
  const suggested = vscode.Uri.file(file.fsPath.replace(/(\.gguf)?$/i, "-edited.gguf"));
  const dst = await vscode.window.showSaveDialog({ defaultUri: suggested, filters: { "GGUF models": ["gguf"] }, saveLabel: "Save Copy" });
  if (!dst) return;
  const text = doc.getText();
  try {
    await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Writing ${basename(dst.fsPath)}` },
      async (progress) => {
        let reported = 0;
        await saveTemplateCopy(file.fsPath, variant, text, dst.fsPath, (copied, total) => {
          const pct = total ? Math.floor((copied / total) * 100) : 100;
          progress.report({ increment: pct - reported });
          reported = pct;
        });
      },
    );
  } catch (e) {
    void vscode.window.showErrorMessage(`Could not write ${dst.fsPath}: ${(e as Error).message}`);
    return;
  }
  const open = await vscode.window.showInformationMessage(
    `Saved ${variantLabel(variant)} into ${basename(dst.fsPath)}.`,
    "Open Its Template",
  );
  if (open) await vscode.window.showTextDocument(templateUri(dst, variant), { preview: false });
}
