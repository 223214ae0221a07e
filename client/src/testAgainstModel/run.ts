// One run of "Test Template Against Model", without VS Code. completion: the rendered prompt goes to
// /v1/completions as it is, the raw output streams into the view, then /chat/parse says what llama.cpp's
// parser lifts out of it for this template. chat: the scenario goes to /v1/chat/completions and the
// served template renders it; the view shows the parsed message as it streams.
import { EndpointClient, EndpointHttpError } from "../endpoint/http";
import { statsOf } from "../endpoint/stats";
import type { ModelOutputView, ParsedOutput } from "../preview/protocol";
import type { ChatRequestJson } from "./prompt";

export interface ModelTest {
  mode: ModelOutputView["mode"];
  model: string;
  /** The template's text: the parse reads the output with the format llama.cpp detects in it. */
  template: string;
  /** The rendered prompt (completion). */
  prompt: string;
  request: ChatRequestJson;
  maxTokens: number;
  note: string;
}

const NO_PARSE_ROUTE = "this server has no /chat/parse (only Chat Template Studio's endpoint has): the raw output is shown unparsed";

export async function runModelTest(
  client: EndpointClient,
  t: ModelTest,
  signal: AbortSignal,
  onView: (v: ModelOutputView) => void,
): Promise<ModelOutputView> {
  const view: ModelOutputView = {
    mode: t.mode,
    status: "running",
    model: t.model,
    raw: t.mode === "completion" ? "" : null,
    parsed: t.mode === "chat" ? { content: "", reasoning: "", toolCalls: [] } : null,
    error: null,
    finishReason: null,
    tokensPerSecond: null,
    acceptance: null,
    note: t.note,
  };
  const emit = () =>
    onView({ ...view, parsed: view.parsed && { ...view.parsed, toolCalls: view.parsed.toolCalls.map((c) => ({ ...c })) } });
  emit();
  try {
    const path = t.mode === "completion" ? "/v1/completions" : "/v1/chat/completions";
    const body = t.mode === "completion" ? { model: t.model, prompt: t.prompt } : { model: t.model, ...t.request };
    for await (const chunk of client.stream(path, { ...body, max_tokens: t.maxTokens, stream: true }, signal)) {
      const stats = statsOf(chunk);
      if (stats) Object.assign(view, { tokensPerSecond: stats.tokensPerSecond, acceptance: stats.acceptance });
      const choice = (chunk.choices as Record<string, unknown>[] | undefined)?.[0];
      if (!choice) continue;
      if (typeof choice.finish_reason === "string") view.finishReason = choice.finish_reason;
      if (t.mode === "completion") view.raw += typeof choice.text === "string" ? choice.text : "";
      else addDelta(view.parsed!, choice.delta as Delta | undefined);
      emit();
    }
    if (t.mode === "completion") await parse(client, t, view, signal);
    view.status = "done";
  } catch (e) {
    view.status = signal.aborted ? "cancelled" : "error";
    if (!signal.aborted) view.error = (e as Error).message;
  }
  emit();
  return view;
}

interface Delta {
  content?: string;
  reasoning_content?: string;
  tool_calls?: { index: number; function?: { name?: string; arguments?: string } }[];
}

function addDelta(p: ParsedOutput, d: Delta | undefined): void {
  if (!d) return;
  p.content += d.content ?? "";
  p.reasoning += d.reasoning_content ?? "";
  for (const c of d.tool_calls ?? []) {
    const call = (p.toolCalls[c.index] ??= { name: "", arguments: "" });
    call.name += c.function?.name ?? "";
    call.arguments += c.function?.arguments ?? "";
  }
}

async function parse(client: EndpointClient, t: ModelTest, view: ModelOutputView, signal: AbortSignal): Promise<void> {
  try {
    const r = (await client.post(
      "/chat/parse",
      { ...t.request, text: view.raw, chat_template: t.template, partial: view.finishReason === "length" },
      signal,
    )) as {
      content: string;
      reasoning_content: string;
      tool_calls: { function: { name: string; arguments: string } }[];
    };
    view.parsed = {
      content: r.content,
      reasoning: r.reasoning_content,
      toolCalls: r.tool_calls.map((c) => ({ name: c.function.name, arguments: c.function.arguments })),
    };
  } catch (e) {
    if (signal.aborted) throw e;
    view.error = e instanceof EndpointHttpError && e.status === 404 ? NO_PARSE_ROUTE : `llama.cpp's parser: ${(e as Error).message}`;
  }
}
