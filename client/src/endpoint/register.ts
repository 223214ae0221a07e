// Registers the endpoint, its commands, the chat provider and the model test (called from extension.ts).
import type * as vscode from "vscode";
import { registerChatProvider } from "../lm/register";
import { registerTestAgainstModel } from "../testAgainstModel/command";
import { registerEndpointCommands } from "./commands";
import { EndpointService } from "./service";

export function registerEndpoint(context: vscode.ExtensionContext): EndpointService {
  const service = new EndpointService(context);
  context.subscriptions.push(service);
  registerEndpointCommands(context, service);
  registerChatProvider(context, service);
  registerTestAgainstModel(context, service);
  return service;
}
