// POST /chat/parse (ours, not OpenAI's): what llama.cpp's parser lifts out of model output — content,
// reasoning, tool calls — for the chat request the output answers. The editor's "Test Template Against
// Model" generates from a prompt it rendered itself (/v1/completions) and reads the output back here, with
// the template being tested (`chat_template`) or, without one, the served template.
import { type ChatRequest, parseChatOutput } from "../../engine";
import { Fields } from "../http/fields";
import { sendJson, type RouteContext } from "../http/route";
import { checkToolSchemas } from "./schemaCheck";

export async function chatParse(ctx: RouteContext): Promise<void> {
  const f = Fields.of(await ctx.body(), []);
  const text = f.need("text", f.string);
  const source = f.string("chat_template");
  checkToolSchemas(f);
  const request: ChatRequest = {
    messages: f.need("messages", f.array),
    tools: f.array("tools"),
    add_generation_prompt: f.boolean("add_generation_prompt"),
    chat_template_kwargs: f.object("chat_template_kwargs")?.value,
    reasoning_format: f.string("reasoning_format"),
  };
  const partial = f.boolean("partial") ?? false;
  const { engine, template } = ctx.services.model.ready();
  // the model's bos/eos texts, as the served template gets them
  const chat = source === undefined ? template.current() : await engine.chatTemplate(source);
  const prompt = await chat.apply(request);
  const m = await parseChatOutput(text, prompt, { partial });
  sendJson(ctx.res, 200, {
    format: prompt.describe().format,
    content: m.content,
    reasoning_content: m.reasoningContent,
    tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
  });
}
