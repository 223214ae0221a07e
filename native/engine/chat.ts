// llama.cpp's chat layer and Jinja engine, with or without a loaded model.
import { loadBackend, type BackendOptions } from "./backend";
import { fromNative } from "./errors";
import type { NativeChatTemplates } from "./native";
import type { GuardedTemplates } from "../../server/src/guard";
import { guarded } from "./guard";
import type { ChatPrompt, ChatRequest, ParsedMessage, TemplateCaps } from "./types";

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

  /**
   * The exact prompt (and grammar, stops, parser) llama-server builds for this chat-completions request, kept
   * by the native side (ChatPrompt); the template runs once, after the guard vouched for it.
   */
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
export async function parseChatOutput(
  text: string,
  prompt: ChatPrompt,
  options: { partial?: boolean; backend?: BackendOptions } = {},
): Promise<ParsedMessage> {
  const { addon } = loadBackend(options.backend);
  return native(addon.parseChatOutput(text, options.partial ?? false, prompt));
}

/** Renders template text with llama.cpp's own Jinja engine (common/jinja). */
export async function renderTemplate(source: string, variables: Record<string, unknown>, backend?: BackendOptions): Promise<string> {
  const { addon } = loadBackend(backend);
  const json = JSON.stringify(variables);
  await guarded((g) => g.checkRender(source, json));
  return native(addon.renderJinja(source, json));
}
