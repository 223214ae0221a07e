// The endpoint's model in VS Code's chat (vendor "chat-template-studio", contributed in package.json):
// a thin adapter from vscode.lm's provider interface to EndpointChatProvider.
import * as vscode from "vscode";
import type { EndpointService } from "../endpoint/service";
import { EndpointChatProvider } from "./provider";
import type { PartFactory } from "./response";

export const VENDOR = "chat-template-studio";

const PARTS: PartFactory<vscode.LanguageModelResponsePart> = {
  text: (value) => new vscode.LanguageModelTextPart(value),
  toolCall: (callId, name, input) => new vscode.LanguageModelToolCallPart(callId, name, input),
};

function signalOf(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}

export function registerChatProvider(context: vscode.ExtensionContext, service: EndpointService): void {
  const provider = new EndpointChatProvider({
    connection: () => service.connection(),
    onStats: (s) => service.reportStats(s),
    log: (line) => service.log.info(line),
  });
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider(VENDOR, {
      onDidChangeLanguageModelChatInformation: service.onDidChange,
      // never prompts: a stopped endpoint simply has no models (Start Endpoint lists it)
      provideLanguageModelChatInformation: (_options, token) => provider.models(signalOf(token)),
      provideLanguageModelChatResponse: async (model, messages, options, progress, token) => {
        try {
          await provider.respond(model.id, messages, options, PARTS, (p) => progress.report(p), signalOf(token));
        } catch (e) {
          if (token.isCancellationRequested) throw new vscode.CancellationError();
          throw e;
        }
      },
      provideTokenCount: (model, text, token) => provider.countTokens(model.id, text, signalOf(token)),
    }),
  );
}
