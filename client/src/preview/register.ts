// Registers the preview and GGUF commands and the gguf-template file system (called from extension.ts).
import * as vscode from "vscode";
import type { BundledEngine } from "../bundledEngine";
import { openTemplateFromGguf, saveTemplateToGgufCopy } from "../gguf/commands";
import { GGUF_TEMPLATE_SCHEME, GGUFTemplateFileSystem } from "../gguf/fileSystem";
import { isChatTemplate, PreviewPanel, type EndpointTokens } from "./panel";
import { RENDER_SCHEME, renderContentProvider } from "./renderDiff";

export function registerPreview(context: vscode.ExtensionContext, engine: BundledEngine, endpointTokens: EndpointTokens): void {
  const log = vscode.window.createOutputChannel("Chat Template Preview", { log: true });
  context.subscriptions.push(
    log,
    vscode.workspace.registerTextDocumentContentProvider(RENDER_SCHEME, renderContentProvider),
    vscode.workspace.registerFileSystemProvider(GGUF_TEMPLATE_SCHEME, new GGUFTemplateFileSystem(), { isCaseSensitive: true }),
    vscode.commands.registerCommand("chatTemplate.renderWithSampleMessages", (uri?: vscode.Uri) => {
      const doc = uri
        ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())
        : vscode.window.activeTextEditor?.document;
      if (!doc || !isChatTemplate(doc)) {
        void vscode.window.showErrorMessage("Open a chat template (a .jinja file, or one from a GGUF) to render it.");
        return;
      }
      PreviewPanel.show(context, log, engine, endpointTokens, doc);
    }),
    vscode.commands.registerCommand("chatTemplate.openTemplateFromGguf", (uri?: vscode.Uri) => openTemplateFromGguf(uri)),
    vscode.commands.registerCommand("chatTemplate.saveTemplateToGgufCopy", () => saveTemplateToGgufCopy()),
  );
}
