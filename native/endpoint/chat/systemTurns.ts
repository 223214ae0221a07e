// System messages after the start of a conversation (Claude Code sends them inside `messages`; OpenAI clients may
// too). A template that renders system turns anywhere (Qwen3's `message.role == "system" and not loop.first`,
// Llama 3) gets them in place. Many templates render a system message only first: they raise on a later one
// (Mistral's "roles must alternate") or drop it. For those its text is appended to the system prompt, so the
// instruction still reaches the model and the request is not refused.
import { EngineError, type ChatPrompt, type ChatRequest, type ChatTemplate } from "../../engine";

type Message = { role?: unknown; content?: unknown };

/** A message's text: a string, or its text parts in order. */
function textOf(m: Message): string[] {
  if (typeof m.content === "string") return [m.content];
  if (!Array.isArray(m.content)) return [];
  return m.content.flatMap((p: { type?: unknown; text?: unknown }) => (p?.type === "text" && typeof p.text === "string" ? [p.text] : []));
}

const isLaterSystem = (m: Message, i: number) => i > 0 && m?.role === "system";

/** Each later system message merged, in order, into the first message (a system prompt, made if there is none). */
export function mergeLaterSystemMessages(messages: Message[]): Message[] {
  const later = messages.filter(isLaterSystem).flatMap(textOf);
  const rest = messages.filter((m, i) => !isLaterSystem(m, i));
  if (rest[0]?.role === "system") return [{ ...rest[0], content: [...textOf(rest[0]), ...later].join("\n\n") }, ...rest.slice(1)];
  return [{ role: "system", content: later.join("\n\n") }, ...rest];
}

/** A conversation with a later system message: whether a template renders it in place is learnt once from it. */
const PROBE_TEXT = "(a later system message)";
const PROBE: Message[] = [
  { role: "system", content: "You are a helpful assistant." },
  { role: "user", content: "Hello" },
  { role: "system", content: PROBE_TEXT },
  { role: "assistant", content: "Hi" },
  { role: "user", content: "Go on" },
];

const inPlace = new WeakMap<ChatTemplate, Promise<boolean>>();

/** Whether the template renders a later system message where it is (it neither raises on it nor drops it). */
function rendersInPlace(template: ChatTemplate): Promise<boolean> {
  let known = inPlace.get(template);
  if (!known) {
    known = template.apply({ messages: PROBE }).then(
      (prompt) => prompt.prompt.includes(PROBE_TEXT),
      (e) => {
        if (e instanceof EngineError && e.code === "template_error") return false;
        inPlace.delete(template);
        throw e;
      },
    );
    inPlace.set(template, known);
  }
  return known;
}

/**
 * The prompt of a request: later system messages in place where the template renders them there, merged
 * otherwise. The template renders each request once (and the guard checks it once): where it goes is learnt
 * once per template, and only a request it still drops or raises on where the probe's was kept is rendered
 * again, merged.
 */
export async function applyWithSystemTurns(template: ChatTemplate, request: ChatRequest): Promise<ChatPrompt> {
  const messages = request.messages as Message[];
  if (!messages.some(isLaterSystem)) return template.apply(request);
  const merged = () => template.apply({ ...request, messages: mergeLaterSystemMessages(messages) });
  if (!(await rendersInPlace(template))) return merged();
  const texts = messages
    .filter(isLaterSystem)
    .flatMap(textOf)
    .map((t) => t.trim())
    .filter((t) => t !== "");
  try {
    const prompt = await template.apply(request);
    if (texts.every((t) => prompt.prompt.includes(t))) return prompt;
  } catch (e) {
    if (!(e instanceof EngineError && e.code === "template_error")) throw e;
  }
  return merged();
}
