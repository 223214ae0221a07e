// Extension host entry: starts the language server for chat templates.
import * as path from "node:path";
import * as vscode from "vscode";
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import { registerEndpoint } from "./endpoint/register";
import type { EndpointService } from "./endpoint/service";
import { registerPreview } from "./preview/register";

let client: LanguageClient | undefined;
let endpoint: EndpointService | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  registerPreview(context);
  endpoint = registerEndpoint(context);
  const module = context.asAbsolutePath(path.join("dist", "server.js"));
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ["--nolazy", "--inspect=6010"] } },
  };
  const config = vscode.workspace.getConfiguration("chatTemplate");
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: "chat-template" }],
    synchronize: { configurationSection: "chatTemplate" },
    initializationOptions: { diagnostics: config.get("diagnostics") },
  };
  client = new LanguageClient("chatTemplate", "Chat Template Language Server", serverOptions, clientOptions);
  context.subscriptions.push(client);
  await client.start();
}

export async function deactivate(): Promise<void> {
  // the endpoint process stops with the window (its stdin pipe takes it down if this process is killed)
  await Promise.all([client?.stop(), endpoint?.dispose()]);
}
