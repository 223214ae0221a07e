// The chat templates of a Hugging Face tokenizer_config.json or chat_template.json: `chat_template` is a
// string (the template) or a list of {name, template} (named templates: default, tool_use, rag). A template
// is replaced in place, escaped the way the file already is, and every other byte of the file is kept.
import { LineIndex } from "../parser";
import { JsonSyntaxError, parseJsonSpans, type JsonValue } from "./jsonSpans";

export interface HfChatTemplate {
  /** The name in a list of named templates; null when `chat_template` is one string. */
  name: string | null;
  template: string;
  /** Where its JSON string literal (quotes included) is in the file. */
  start: number;
  end: number;
}

/** A file that is not JSON or holds no chat template, with where (1-based line and column). */
export class HfConfigError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${line}:${column}: ${message}`);
  }
}

function errorAt(text: string, offset: number, message: string): HfConfigError {
  const e = new JsonSyntaxError(message, text, offset);
  return new HfConfigError(message, e.line, e.column);
}

const member = (o: JsonValue, key: string): JsonValue | undefined =>
  o.kind === "object" ? o.members.filter((m) => m.key === key).pop()?.value : undefined;

/** The templates of a tokenizer_config.json / chat_template.json text, in file order. */
export function readChatTemplates(text: string): HfChatTemplate[] {
  let root: JsonValue;
  try {
    root = parseJsonSpans(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new HfConfigError(e.message.replace(/^\d+:\d+: /, ""), e.line, e.column);
    throw e;
  }
  if (root.kind !== "object") throw errorAt(text, root.start, "expected a JSON object with a chat_template member");
  const t = member(root, "chat_template");
  if (!t) throw errorAt(text, root.start, "no chat_template member");
  if (t.kind === "string") return [{ name: null, template: t.value, start: t.start, end: t.end }];
  if (t.kind !== "array") throw errorAt(text, t.start, "chat_template is neither a string nor a list of named templates");
  return t.items.map((item) => {
    const name = member(item, "name");
    const template = member(item, "template");
    if (name?.kind !== "string" || template?.kind !== "string")
      throw errorAt(text, item.start, 'a named template needs a string "name" and a string "template"');
    return { name: name.value, template: template.value, start: template.start, end: template.end };
  });
}

/** The template of that name (null: the only string); undefined when the file has none by that name. */
export function findChatTemplate(templates: readonly HfChatTemplate[], name: string | null): HfChatTemplate | undefined {
  return templates.find((t) => t.name === name);
}

/** The template a command means: `name` if given; else the only string, else the one named "default", else the first. */
export function pickChatTemplate(templates: readonly HfChatTemplate[], name?: string): HfChatTemplate | undefined {
  if (name !== undefined) return templates.find((t) => t.name === name);
  return templates.find((t) => t.name === null) ?? templates.find((t) => t.name === "default") ?? templates[0];
}

/** Where an offset of the template's text is in the file (0-based line and UTF-16 column): through its literal's escapes. */
export function positionInFile(text: string, t: HfChatTemplate): (templateOffset: number) => { line: number; character: number } {
  const lines = new LineIndex(text);
  return (templateOffset) => {
    let at = t.start + 1;
    for (let n = 0; n < templateOffset && at < t.end - 1; n++) at += text[at] !== "\\" ? 1 : text[at + 1] === "u" ? 6 : 2;
    return lines.positionAt(at);
  };
}

/** A JSON string literal of `s`, with non-ASCII as \u escapes when `asciiOnly` (Python's json.dumps default). */
function quote(s: string, asciiOnly: boolean): string {
  const literal = JSON.stringify(s);
  return asciiOnly ? literal.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) : literal;
}

/** The file's text with the template `name` replaced by `template`; every byte outside its string literal kept. */
export function spliceChatTemplate(text: string, name: string | null, template: string): string {
  const target = findChatTemplate(readChatTemplates(text), name);
  if (!target) throw new HfConfigError(`no chat template named ${name === null ? "chat_template" : `'${name}'`}`, 1, 1);
  if (target.template === template) return text;
  // Keep the file's escaping: a file written with ensure_ascii (\u escapes, no raw non-ASCII) stays ASCII.
  const asciiOnly = !/[^\x00-\x7f]/.test(text) && [...text.matchAll(/\\u([0-9a-fA-F]{4})/g)].some((m) => parseInt(m[1], 16) > 0x7f);
  return text.slice(0, target.start) + quote(template, asciiOnly) + text.slice(target.end);
}
