// Extension host entry: registers the preview, the endpoint and what uses it (chat provider, model test),
// and starts the language server for chat templates.
import * as path from "node:path";
import * as vscode from "vscode";
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import { bundledEngine } from "./bundledEngine";
import { registerDebugger } from "./debug/register";
import { registerEndpoint } from "./endpoint/register";
import { registerHfTemplates } from "./hfTemplate/register";
import type { EndpointService } from "./endpoint/service";
import { registerChatProvider } from "./lm/register";
import { registerPreview } from "./preview/register";
import { registerTestAgainstModel } from "./testAgainstModel/command";
import { registerCompareTemplates } from "./templateTests/compareCommand";
import { registerTemplateTests } from "./templateTests/controller";
import { registerWalkthrough } from "./walkthrough/register";

let client: LanguageClient | undefined;
let endpoint: EndpointService | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const engine = bundledEngine(context.extensionPath);
  const served = registerEndpoint(context, engine);
  endpoint = served;
  registerPreview(context, engine, { source: () => served.tokenizerSource(), onDidChange: served.onDidChange });
  registerHfTemplates(context);
  registerChatProvider(context, endpoint);
  registerTestAgainstModel(context, endpoint);
  registerTemplateTests(context, endpoint);
  registerCompareTemplates(context, endpoint);
  registerWalkthrough(context);
  registerDebugger(context);
  const module = context.asAbsolutePath(path.join("dist", "server.js"));
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ["--nolazy", "--inspect=6010"] } },
  };
  const config = vscode.workspace.getConfiguration("chatTemplate");
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: "chat-template" }],
    synchronize: { configurationSection: "chatTemplate" },
    // the tokenizer model: the `model/…` checks of templates not opened from a GGUF use its vocabulary
    initializationOptions: { diagnostics: config.get("diagnostics"), preview: { tokenizerModel: config.get("preview.tokenizerModel") } },
  };
  client = new LanguageClient("chatTemplate", "Chat Template Language Server", serverOptions, clientOptions);
  context.subscriptions.push(client);
  await client.start();
}

export async function deactivate(): Promise<void> {
  // the endpoint process stops with the window (its stdin pipe takes it down if this process is killed)
  await Promise.all([client?.stop(), endpoint?.dispose()]);
}
