// The prompt llama-server sends for a scenario: the scenario read as a chat-completions request
// (requestInputs.ts), the contexts llama.cpp's chat layer builds from it for this template's caps
// (chatLayerContext.ts), rendered by a dialect that marks itself `chatLayer`, and what the chat layer then
// appends: the generation prompt and the prefilled text of a continued assistant message, and the hand-written
// handlers' own additions (gemma 4's model turn). Other dialects render the context as given.
import {
  type DebugHook,
  type Dialect,
  type Limits,
  PyDict,
  render,
  type RenderResult,
  Tuple,
  type Value,
  type WallClock,
} from "../../interpreter";
import type { TemplateDocument } from "../../document";
import { capsOf, type ProbeError } from "../caps/capsProbe";
import { requestContexts, type ServedTemplate } from "./chatLayerContext";
import { chatLayerRequest, RequestRefused } from "./requestInputs";
import { serverStartup } from "./serverStartup";
import { type Continuation, specializedHandler } from "./specializedHandlers";
import { reasoningMarkers, type ReasoningMarkers, supportsThinking } from "./thinkingSupport";

export interface RequestRenderOptions {
  dialect: Dialect;
  /** The dialect the renders run in, when the caller instruments `dialect` (the checks' usage statistics). */
  renderWith?: Dialect;
  now?: WallClock;
  limits?: Partial<Limits>;
  /** A debugger's hook, given to the render whose output the prompt starts with. */
  debug?: DebugHook;
}

type Obj = Record<string, unknown>;

/** JSON-read data as plain JSON (ints as numbers: the chat layer's JSON keeps no Python types). */
function plain(v: Value): unknown {
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof Tuple) return v.items.map(plain);
  if (v instanceof PyDict) return Object.fromEntries([...v.entries()].map(([k, x]) => [String(k), plain(x)]));
  return v;
}

/** A request llama-server answers with a 400 before rendering: an error over the whole template. */
function refused(doc: TemplateDocument, why: string): RenderResult {
  const t = doc.template;
  const message = `llama-server refuses the request: ${why}`;
  return { output: "", chunks: [], error: { code: "runtime/value", message, start: t.start, end: t.end, nodeId: t.id } };
}

/**
 * The capability probe ran out of the checks' limits: llama-server would go on probing (it has no limits) and
 * then render, and so many renders of a resource bomb are not worth waiting for. The probe's error, at its node.
 */
function probeExhausted(e: ProbeError): RenderResult {
  const message = `llama-server's capability probe (its ${e.probe} render) ran out of the checks' limits, so its prompt is not rendered: ${e.message}`;
  return { output: "", chunks: [], error: { code: e.code, message, start: e.start, end: e.end, nodeId: -1 } };
}

/** common_chat_msg::render_content: text parts joined by a blank line. */
function contentText(m: Obj): string {
  if (typeof m.content === "string") return m.content;
  if (!Array.isArray(m.content)) return "";
  return (m.content as Obj[])
    .filter((p) => p.type === "text")
    .map((p) => String(p.text))
    .join("\n\n");
}

/** common_chat_template_generation_prompt_impl: what the generation prompt adds to the render without it. */
function generationPrompt(without: string, withIt: string): string {
  let i = 0;
  while (i < without.length && i < withIt.length && without[i] === withIt[i]) i++;
  return withIt.slice(i);
}

function toDate(now: WallClock | undefined): Date {
  if (!now) return new Date();
  return new Date(now.year, now.month - 1, now.day, now.hour, now.minute, now.second, Math.floor(now.microsecond / 1000));
}

/** Renders `context` as the engine receives it: through llama.cpp's chat layer for a `chatLayer` dialect. */
export function renderRequest(doc: TemplateDocument, context: PyDict, options: RequestRenderOptions): RenderResult {
  const { dialect, now, limits, debug } = options;
  const renderWith = options.renderWith ?? dialect;
  if (!dialect.chatLayer) return render(doc, context, { dialect: renderWith, now, limits, debug });
  const { caps, exhausted } = capsOf(doc, dialect);
  if (exhausted) return probeExhausted(exhausted);
  let request;
  try {
    request = chatLayerRequest(plain(context) as Obj, supportsThinking(doc, dialect, caps), serverStartup(dialect.serverArgs ?? []));
  } catch (e) {
    if (e instanceof RequestRefused) return refused(doc, e.message);
    throw e;
  }
  const { inputs } = request;
  const served: ServedTemplate = { source: doc.text, caps, bos: request.bos, eos: request.eos };
  const handler = specializedHandler(doc.text);
  const contexts = requestContexts(served, inputs, toDate(now));
  if (!contexts) return refused(doc, "the system message cannot be merged into the next one");
  let [without, withIt] = contexts;
  if (handler?.messages) {
    const messages = handler.messages(without.messages as Obj[], doc.text);
    without = { ...without, messages };
    withIt = { ...withIt, messages };
  }
  const renderOne = (ctx: Obj, hook?: DebugHook) => render(doc, ctx, { dialect: renderWith, now, limits, debug: hook });
  if (!inputs.continue_final_message) {
    const r = renderOne(inputs.add_generation_prompt ? withIt : without, debug);
    // gemma 4's handler opens the model turn the template left closed (after a tool call)
    if (handler?.name === "gemma4" && inputs.add_generation_prompt && !r.error && r.output.endsWith("<turn|>\n"))
      return { ...r, output: r.output + "<|turn>model\n" };
    return r;
  }
  const last = inputs.messages[inputs.messages.length - 1] as Obj;
  const r = renderOne(without, debug);
  if (r.error) return r;
  const g = renderOne(withIt);
  if (g.error) return g;
  const c: Continuation = {
    reasoning: typeof last.reasoning_content === "string" ? last.reasoning_content : "",
    content: contentText(last),
    toContent: true,
    prompt: r.output,
    generationPrompt: generationPrompt(r.output, g.output),
    src: doc.text,
  };
  // COMMON_CHAT_CONTINUATION_AUTO: reasoning alone continues the reasoning, anything else the content
  c.toContent = !(c.reasoning && !c.content);
  return { ...r, output: r.output + (handler ? handler.continuation(c) : autoparserContinuation(c, reasoningMarkers(doc, dialect, caps))) };
}

/** peg_generator::generate_parser: the generation prompt up to the reasoning start, the reasoning, its end, the content. */
function autoparserContinuation(c: Continuation, markers: ReasoningMarkers | null): string {
  let out = c.generationPrompt;
  if (markers?.start) {
    const at = out.indexOf(markers.start);
    out = (at < 0 ? out : out.slice(0, at)) + markers.start + c.reasoning;
    if (c.toContent) out += markers.end;
  }
  return c.toContent ? out + c.content : out;
}

/**
 * What llama.cpp's chat layer changed in the context it renders a scenario with, in words (for messages
 * about a llama-server render that differs): the enable_thinking it passed, a continued final message, the
 * messages it reshaped. Empty for a dialect without `chatLayer` or a request it refuses.
 */
export function chatLayerChanges(doc: TemplateDocument, dialect: Dialect, context: PyDict): string[] {
  if (!dialect.chatLayer) return [];
  const { caps, exhausted } = capsOf(doc, dialect);
  if (exhausted) return [];
  const given = plain(context) as Obj;
  const startup = serverStartup(dialect.serverArgs ?? []);
  let request;
  try {
    request = chatLayerRequest(given, supportsThinking(doc, dialect, caps), startup);
  } catch (e) {
    if (e instanceof RequestRefused) return [];
    throw e;
  }
  const { inputs } = request;
  const contexts = requestContexts({ source: doc.text, caps, bos: request.bos, eos: request.eos }, inputs, new Date());
  const out: string[] = [];
  if (!("enable_thinking" in given) && !("enable_thinking" in startup.templateKwargs))
    out.push(
      startup.reasoningOff
        ? "enable_thinking=false (llama-server started with --reasoning off)"
        : `enable_thinking=${inputs.enable_thinking} (llama-server's default for a template that ${inputs.enable_thinking ? "supports" : "does not support"} thinking)`,
    );
  const fromServer = Object.entries(startup.templateKwargs).filter(([k]) => !(k in given));
  if (fromServer.length)
    out.push(
      `the server's template kwargs ${fromServer.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ")} (preserve_reasoning=true is its default: preserve_thinking=true)`,
    );
  if (inputs.continue_final_message) out.push("the final assistant message continued as a prefill, not closed");
  const messages = contexts?.[0].messages;
  const givenMessages = inputs.continue_final_message && Array.isArray(given.messages) ? given.messages.slice(0, -1) : given.messages;
  if (messages && JSON.stringify(messages) !== JSON.stringify(givenMessages))
    out.push(
      "the messages as it passes them (null content as '', tool-call arguments per the template's caps, content parts joined or split)",
    );
  return out;
}
