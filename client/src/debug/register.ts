// The `chat-template` debugger in VS Code: its adapter is the bundled CLI's `debug-adapter` in a process of its
// own (the user's template never runs in the extension host), a launch without a template debugs the active
// editor's, and "Debug with Sample Messages" (a command, and a code lens on a template file) starts one on it.
import { join } from "node:path";
import * as vscode from "vscode";
import { registerOutputDocument } from "./outputDocument";

export const DEBUG_TYPE = "chat-template";

/** F5 without a launch.json, or a configuration without a template: the active chat template, basic scenario. */
function resolveConfiguration(config: vscode.DebugConfiguration): vscode.DebugConfiguration | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  if (!config.type && !config.request && !config.name) {
    if (doc?.languageId !== "chat-template") return config;
    return { type: DEBUG_TYPE, request: "launch", name: "Debug chat template", template: doc.uri.fsPath, scenario: "basic" };
  }
  if (!config.template) {
    if (doc?.languageId !== "chat-template" || doc.uri.scheme !== "file") {
      void vscode.window.showErrorMessage("Open a chat template file (or name one in the launch configuration's template) to debug it.");
      return undefined;
    }
    return { ...config, template: doc.uri.fsPath };
  }
  return config;
}

export function registerDebugger(context: vscode.ExtensionContext): void {
  registerOutputDocument(context, DEBUG_TYPE);
  const cli = context.asAbsolutePath(join("dist", "cli.js"));
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, {
      // process.execPath is Electron here, which runs as plain Node with ELECTRON_RUN_AS_NODE
      createDebugAdapterDescriptor: () =>
        new vscode.DebugAdapterExecutable(process.execPath, [cli, "debug-adapter"], { env: { ELECTRON_RUN_AS_NODE: "1" } }),
    }),
    // beside the capability lens on the first line
    vscode.languages.registerCodeLensProvider(
      { language: "chat-template", scheme: "file" },
      {
        provideCodeLenses: (doc) => [
          new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
            title: "$(debug-alt) Debug with sample messages",
            command: "chatTemplate.debugWithSampleMessages",
            arguments: [doc.uri],
          }),
        ],
      },
    ),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, {
      resolveDebugConfiguration: (_folder, config) => resolveConfiguration(config),
    }),
    vscode.commands.registerCommand("chatTemplate.debugWithSampleMessages", async (uri?: vscode.Uri) => {
      const doc = uri
        ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())
        : vscode.window.activeTextEditor?.document;
      if (!doc || doc.languageId !== "chat-template" || doc.uri.scheme !== "file") {
        void vscode.window.showErrorMessage("Open a chat template file (a .jinja file on disk) to debug it.");
        return false;
      }
      // the adapter reads the template from disk
      if (doc.isDirty) await doc.save();
      return vscode.debug.startDebugging(vscode.workspace.getWorkspaceFolder(doc.uri), {
        type: DEBUG_TYPE,
        request: "launch",
        name: "Debug chat template with sample messages",
        template: doc.uri.fsPath,
        scenario: "basic",
        engine: "jinja2",
      });
    }),
  );
}
