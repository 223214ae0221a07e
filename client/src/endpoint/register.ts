// Registers the endpoint and its commands (called from extension.ts, which then registers what uses it).
import type * as vscode from "vscode";
import type { BundledEngine } from "../bundledEngine";
import { registerEndpointCommands } from "./commands";
import { EndpointService } from "./service";

export function registerEndpoint(context: vscode.ExtensionContext, engine: BundledEngine): EndpointService {
  const service = new EndpointService(context, engine);
  context.subscriptions.push(service);
  registerEndpointCommands(context, service);
  return service;
}
