// Registers the `hf-template:` file system and the command that opens a tokenizer_config.json's template.
import * as vscode from "vscode";
import { openTemplateFromHfConfig } from "./commands";
import { HF_TEMPLATE_SCHEME, HfTemplateFileSystem } from "./fileSystem";

export function registerHfTemplates(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.workspace.registerFileSystemProvider(HF_TEMPLATE_SCHEME, new HfTemplateFileSystem(), { isCaseSensitive: true }),
    vscode.commands.registerCommand("chatTemplate.openTemplateFromHfConfig", (uri?: vscode.Uri) => openTemplateFromHfConfig(uri)),
  );
}
