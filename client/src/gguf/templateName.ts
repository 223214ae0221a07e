// A template inside a GGUF opens as a file named after its metadata key, below the GGUF's own path:
// `…/model.gguf/chat_template.jinja` is tokenizer.chat_template, `…/chat_template.tool_use.jinja` the
// named variant tool_use. The `.jinja` ending gives the editor the chat-template language.

export function templateFileName(variant: string | null): string {
  return variant === null ? "chat_template.jinja" : `chat_template.${variant}.jinja`;
}

/** The variant a file name stands for (null: the default template), or undefined for any other name. */
export function templateVariant(fileName: string): string | null | undefined {
  const m = /^chat_template(?:\.(.+))?\.jinja$/.exec(fileName);
  if (!m) return undefined;
  return m[1] ?? null;
}

/** How a variant is named to users. */
export function variantLabel(variant: string | null): string {
  return variant === null ? "tokenizer.chat_template" : `tokenizer.chat_template.${variant}`;
}
