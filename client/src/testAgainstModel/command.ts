// "Chat Template: Test Template Against Model" (the rendered prompt, raw) and "… (Send as Chat)": the
// previewed template and scenario go to the endpoint and the answer streams into the preview's model
// output pane. VS Code glue over prompt.ts and run.ts.
import * as vscode from "vscode";
import { EndpointClient } from "../endpoint/http";
import type { EndpointService } from "../endpoint/service";
import { dialectProcessEngine } from "../preview/engines/dialectProcess";
import { REFERENCE_ENGINE, type PreviewEngine } from "../preview/engines/engine";
import { dialectProcessOptions, PreviewPanel } from "../preview/panel";
import type { ModelOutputView } from "../preview/protocol";
import { chatRequestOf, renderPrompt } from "./prompt";
import { runModelTest } from "./run";

/** The chat template to test: the active editor's, else the one the preview shows (its button was clicked). */
function templateDocument(): vscode.TextDocument | undefined {
  const active = vscode.window.activeTextEditor?.document;
  if (active?.languageId === "chat-template") return active;
  const uri = PreviewPanel.controller?.templateUri;
  return uri ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri) : undefined;
}

export function registerTestAgainstModel(context: vscode.ExtensionContext, service: EndpointService): void {
  let running: AbortController | null = null;
  /** Renders the completion prompt: the reference dialect in a helper process, started at the first test. */
  let reference: PreviewEngine | null = null;

  async function connection() {
    const c = await service.connection();
    if (c || !vscode.workspace.isTrusted || service.settings().mode === "external") return c;
    if (!service.engine.available) {
      await service.offerExternal(service.engine);
      return null;
    }
    const start = "Start Endpoint";
    if ((await vscode.window.showInformationMessage("The chat template endpoint is not running.", start)) !== start) return null;
    await service.start();
    return service.connection();
  }

  async function test(mode: ModelOutputView["mode"]): Promise<void> {
    const doc = templateDocument();
    if (!doc) return void vscode.window.showErrorMessage("Open a chat template to test it against the model.");
    if (PreviewPanel.controller?.templateUri !== doc.uri.toString())
      await vscode.commands.executeCommand("chatTemplate.renderWithSampleMessages", doc.uri);
    const preview = PreviewPanel.controller;
    const input = preview?.modelInput(service.modelTokens() ?? undefined);
    if (!preview || !input) return;
    const c = await connection();
    if (!c) {
      if (service.settings().mode === "external")
        void vscode.window.showErrorMessage(
          "The external endpoint is not connected (Chat Template: Start Endpoint, and check chatTemplate.endpoint.externalUrl).",
        );
      return;
    }
    running?.abort();
    const controller = new AbortController();
    running = controller;
    const client = new EndpointClient(c);
    const fail = (model: string, error: string) =>
      preview.showModelOutput({
        mode,
        status: "error",
        model,
        raw: null,
        parsed: null,
        error,
        finishReason: null,
        tokensPerSecond: null,
        acceptance: null,
        note: "",
      });
    let model: string;
    try {
      const list = (await client.get("/v1/models", controller.signal)) as { data: { id: string }[] };
      model = list.data[0].id;
    } catch (e) {
      return fail("", `no model: ${(e as Error).message}`);
    }
    // a chat request is rendered by the served template, in llama.cpp; only a completion needs our render
    const prompt =
      mode === "completion"
        ? await renderPrompt((reference ??= dialectProcessEngine(dialectProcessOptions(context), REFERENCE_ENGINE)), input)
        : { ok: true as const, prompt: "" };
    if (!prompt || controller.signal.aborted) return;
    if (!prompt.ok) return fail(model, prompt.message);
    const refused = mode === "chat" ? await service.serveTemplateOf(doc) : null;
    if (refused) return fail(model, refused);
    const note = [
      `${input.name}, scenario ${input.scenario}`,
      mode === "completion" ? "prompt rendered by Jinja2 (the preview's reference), sent as it is" : service.servedTemplateNote(),
      input.problem,
    ]
      .filter(Boolean)
      .join(" · ");
    const maxTokens = vscode.workspace.getConfiguration("chatTemplate.testAgainstModel").get("maxTokens", 512);
    const request = chatRequestOf(input.context);
    const view = await runModelTest(
      client,
      { mode, model, template: input.text, prompt: prompt.prompt, request, maxTokens, note },
      controller.signal,
      (v) => preview.showModelOutput(v),
    );
    if (running === controller) running = null;
    if (view.tokensPerSecond !== null)
      service.reportStats({ tokensPerSecond: view.tokensPerSecond, acceptance: view.acceptance, completionTokens: null });
  }

  context.subscriptions.push(
    vscode.commands.registerCommand("chatTemplate.testTemplateAgainstModel", () => test("completion")),
    vscode.commands.registerCommand("chatTemplate.testTemplateAgainstModelAsChat", () => test("chat")),
    vscode.commands.registerCommand("chatTemplate.stopModelTest", () => running?.abort()),
    {
      dispose: () => {
        running?.abort();
        reference?.dispose();
      },
    },
  );
}
