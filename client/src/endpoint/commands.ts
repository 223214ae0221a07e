// The endpoint's commands: Start / Stop / Restart, Show Endpoint Log, Select Model Files (file pickers;
// the choice goes into the settings, the folder is remembered), Set External Endpoint API Key (into
// SecretStorage, never the settings), Install CUDA Build (downloaded into the extension's global storage, with
// progress; cancel keeps what was downloaded for the next try) and the status bar's menu.
import { dirname } from "node:path";
import * as vscode from "vscode";
import { installCuda } from "./cudaInstall";
import { API_KEY_SECRET, type EndpointService } from "./service";
import { StatisticsPanel } from "./statisticsPanel";

const LAST_FOLDER = "chatTemplate.endpoint.lastModelFolder";

/** Writes where the user's value lives now (a workspace value would hide a global one). */
async function updateSetting(key: string, value: string): Promise<void> {
  const c = vscode.workspace.getConfiguration("chatTemplate.endpoint");
  const i = c.inspect(key);
  const target =
    i?.workspaceFolderValue !== undefined
      ? vscode.ConfigurationTarget.WorkspaceFolder
      : i?.workspaceValue !== undefined
        ? vscode.ConfigurationTarget.Workspace
        : vscode.ConfigurationTarget.Global;
  await c.update(key, value, target);
}

async function pickGguf(context: vscode.ExtensionContext, title: string): Promise<string | undefined> {
  const last = context.globalState.get<string>(LAST_FOLDER);
  const picked = await vscode.window.showOpenDialog({
    title,
    canSelectMany: false,
    filters: { "GGUF models": ["gguf"] },
    defaultUri: last ? vscode.Uri.file(last) : undefined,
  });
  const file = picked?.[0]?.fsPath;
  if (file) await context.globalState.update(LAST_FOLDER, dirname(file));
  return file;
}

async function selectModelFiles(context: vscode.ExtensionContext): Promise<void> {
  const target = await pickGguf(context, "Target model (GGUF)");
  if (!target) return;
  const choose = "Choose a DFlash draft…";
  const none = "No draft (plain decoding)";
  const pick = await vscode.window.showQuickPick([choose, none], { title: "DFlash draft for speculative decoding" });
  if (!pick) return;
  const draft = pick === choose ? await pickGguf(context, "DFlash draft (GGUF, arch dflash)") : "";
  if (draft === undefined) return;
  await updateSetting("targetModel", target);
  await updateSetting("draftModel", draft);
}

async function setApiKey(context: vscode.ExtensionContext): Promise<void> {
  const key = await vscode.window.showInputBox({
    title: "API key of the external endpoint",
    prompt: "Stored in VS Code's secret storage. Leave empty to remove it.",
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return;
  if (key) await context.secrets.store(API_KEY_SECRET, key);
  else await context.secrets.delete(API_KEY_SECRET);
}

async function installCudaBuild(service: EndpointService): Promise<void> {
  if (!service.engine.available) return service.offerExternal(service.engine);
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: "Installing llama.cpp's CUDA build", cancellable: true },
    (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      progress.report({ message: "downloading from the npm registry…" });
      let shown = 0;
      return installCuda(
        service.cli(),
        service.storageDir,
        (mb, total) => {
          const pct = Math.min(99, Math.round((mb / total) * 100));
          progress.report({ message: `${mb} of ${total} MB downloaded`, increment: Math.max(0, pct - shown) });
          shown = Math.max(shown, pct);
        },
        abort.signal,
      );
    },
  );
  if (!result.ok) {
    void vscode.window.showErrorMessage(`The CUDA build was not installed: ${result.message}`);
    return;
  }
  const running = service.state.kind !== "stopped" && service.state.kind !== "failed" && service.settings().mode === "bundled";
  const restart = "Restart Endpoint";
  const pick = await vscode.window.showInformationMessage(
    `${result.message}. The endpoint runs on it from its next start.`,
    ...(running ? [restart] : []),
  );
  if (pick === restart) await service.restart();
}

async function showActions(service: EndpointService): Promise<void> {
  const running = service.state.kind !== "stopped" && service.state.kind !== "failed";
  const external = service.settings().mode === "external";
  const items: (vscode.QuickPickItem & { command: string })[] = [
    running
      ? { label: "$(debug-stop) Stop Endpoint", command: "chatTemplate.endpoint.stop" }
      : { label: "$(play) Start Endpoint", command: "chatTemplate.endpoint.start" },
    { label: "$(debug-restart) Restart Endpoint", command: "chatTemplate.endpoint.restart" },
    { label: "$(output) Show Endpoint Log", command: "chatTemplate.endpoint.showLog" },
    { label: "$(graph) Show Endpoint Statistics", command: "chatTemplate.endpoint.showStatistics" },
    { label: "$(beaker) Test Template Against Model", command: "chatTemplate.testTemplateAgainstModel" },
    external
      ? { label: "$(key) Set External Endpoint API Key", command: "chatTemplate.endpoint.setApiKey" }
      : { label: "$(file) Select Model Files", command: "chatTemplate.endpoint.selectModelFiles" },
    { label: "$(settings-gear) Endpoint Settings", command: "workbench.action.openSettings" },
  ];
  const pick = await vscode.window.showQuickPick(items, { title: "Chat Template Endpoint" });
  if (pick)
    await vscode.commands.executeCommand(
      pick.command,
      ...(pick.command === "workbench.action.openSettings" ? ["chatTemplate.endpoint"] : []),
    );
}

export function registerEndpointCommands(context: vscode.ExtensionContext, service: EndpointService): void {
  context.subscriptions.push(
    vscode.commands.registerCommand("chatTemplate.endpoint.start", () => service.start()),
    vscode.commands.registerCommand("chatTemplate.endpoint.stop", () => service.stop()),
    vscode.commands.registerCommand("chatTemplate.endpoint.restart", () => service.restart()),
    vscode.commands.registerCommand("chatTemplate.endpoint.showLog", () => service.log.show()),
    vscode.commands.registerCommand("chatTemplate.endpoint.selectModelFiles", () => selectModelFiles(context)),
    vscode.commands.registerCommand("chatTemplate.endpoint.setApiKey", () => setApiKey(context)),
    vscode.commands.registerCommand("chatTemplate.endpoint.installCuda", () => installCudaBuild(service)),
    vscode.commands.registerCommand("chatTemplate.endpoint.showActions", () => showActions(service)),
    vscode.commands.registerCommand("chatTemplate.endpoint.showStatistics", () => StatisticsPanel.show(service)),
  );
}
