// llama.cpp's chat layer and Jinja engine, with or without a loaded model.
import { loadBackend, type BackendOptions } from "./backend";
import { fromNative } from "./errors";
import type { NativeChatOutputStream, NativeChatTemplates } from "./native";
import type { GuardedTemplates } from "../../server/src/guard";
import { guarded } from "./guard";
import type { ChatPrompt, ChatRequest, OutputDelta, ParsedMessage, TemplateCaps } from "./types";

async function native<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    throw fromNative(e);
  }
}

/**
 * Templates reach llama.cpp's Jinja engine only through here, each checked first by the template guard
 * (guard.ts), which refuses what it cannot vouch for with a TemplateLimitError or TemplateRefusedError.
 */
export class ChatTemplate {
  /** @internal use ChatTemplate.fromSource or Engine.chatTemplate */
  constructor(
    private readonly native: NativeChatTemplates,
    /** What the guard checked: the templates llama.cpp serves and the bos/eos texts they are served with. */
    private readonly checked: GuardedTemplates,
  ) {}

  /** A template as llama.cpp would serve it for a model whose bos/eos tokens have this text. */
  static async fromSource(source: string, tokens: { bos?: string; eos?: string } = {}, backend?: BackendOptions): Promise<ChatTemplate> {
    const { addon } = loadBackend(backend);
    const checked: GuardedTemplates = { override: source, model: {}, tokens: { bos: tokens.bos ?? "", eos: tokens.eos ?? "" } };
    await guarded((g) => g.checkTemplates(checked));
    return new ChatTemplate(await native(addon.createChatTemplates(source, checked.tokens.bos, checked.tokens.eos)), checked);
  }

  /** The exact prompt (and grammar, stops, parser) llama-server builds for this chat-completions request. */
  async apply(request: ChatRequest): Promise<ChatPrompt> {
    const json = JSON.stringify(request);
    const inputs = await native(this.native.templateInputs(json));
    await guarded((g) => g.checkRequest(this.checked, inputs));
    return native(this.native.apply(json));
  }

  /** The capabilities llama.cpp infers by probing the template. */
  caps(): Promise<TemplateCaps> {
    return native(this.native.caps());
  }

  get source(): string {
    return this.native.source();
  }
}

/**
 * Splits model output into content, reasoning and tool calls the way llama-server does for this prompt's format.
 * After a prefill, only what the model wrote counts, as llama-server streams it.
 */
export function parseChatOutput(
  text: string,
  prompt: ChatPrompt,
  options: { partial?: boolean; backend?: BackendOptions } = {},
): Promise<ParsedMessage> {
  const { addon } = loadBackend(options.backend);
  return native(addon.parseChatOutput(text, options.partial ?? false, prompt));
}

/**
 * One streamed chat completion's parse, kept in the native side: the prompt's parser is loaded once and the
 * output accumulates there, so each call hands over only the new text and gets back only what it adds.
 * Calls must not overlap (each awaits the one before).
 */
export class ChatOutputStream {
  private constructor(private readonly native: NativeChatOutputStream) {}

  static async open(prompt: ChatPrompt, backend?: BackendOptions): Promise<ChatOutputStream> {
    const { addon } = loadBackend(backend);
    return new ChatOutputStream(await native(addon.createChatOutputStream(prompt)));
  }

  /** The output grew by `text`: what a partial parse of all of it adds. */
  append(text: string): Promise<OutputDelta[]> {
    return native(this.native.append(text));
  }

  /**
   * The whole output once generation ended (`complete`: on its own, not cut off by max_tokens): what the final
   * parse adds. Output cut off or breaking the format is read by a partial parse, as far as it goes.
   */
  finish(fullText: string, complete: boolean): Promise<OutputDelta[]> {
    return native(this.native.finish(fullText, complete));
  }
}

/** Renders template text with llama.cpp's own Jinja engine (common/jinja). */
export async function renderTemplate(source: string, variables: Record<string, unknown>, backend?: BackendOptions): Promise<string> {
  const { addon } = loadBackend(backend);
  const json = JSON.stringify(variables);
  await guarded((g) => g.checkRender(source, json));
  return native(addon.renderJinja(source, json));
}
