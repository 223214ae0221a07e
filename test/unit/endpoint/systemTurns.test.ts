// System messages after the first place (Claude Code's reminders): in place where the template renders system
// turns there, merged into the system prompt where it raises on them or drops them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ChatTemplate } from "../../../native/engine";
import { applyWithSystemTurns, mergeLaterSystemMessages } from "../../../native/endpoint/chat/systemTurns";
import { QWEN3_CHAT_TEMPLATE } from "../../../native/testModels/chatTemplate";
import "../../helpers/templateGuard";

const conversation = [
  { role: "user", content: "Hello" },
  { role: "system", content: "Agents: Explore, Plan." },
  { role: "assistant", content: "Hi" },
  { role: "user", content: [{ type: "text", text: "List files" }] },
];

// Mistral-style: a system message only first, anything else out of place raises
const STRICT =
  "{%- for m in messages %}{%- if m.role == 'system' %}{%- if not loop.first %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{%- endif %}" +
  "{{- '[SYS]' + m.content + '[/SYS]' }}{%- elif m.role == 'user' %}{{- '[INST]' + m.content + '[/INST]' }}{%- else %}{{- m.content + '</s>' }}{%- endif %}{%- endfor %}";
// renders only messages[0] as a system prompt and skips every other system message
const DROPPING =
  "{%- if messages[0].role == 'system' %}{{- '<<SYS>>' + messages[0].content + '<</SYS>>' }}{%- endif %}" +
  "{%- for m in messages %}{%- if m.role == 'user' %}{{- '[INST]' + m.content + '[/INST]' }}{%- elif m.role == 'assistant' %}{{- m.content + '</s>' }}{%- endif %}{%- endfor %}";

const template = (source: string) => ChatTemplate.fromSource(source, { eos: "</s>" });

test("a template with system turns anywhere (Qwen3) renders the later system message in place", async () => {
  const { prompt } = await applyWithSystemTurns(await template(QWEN3_CHAT_TEMPLATE), { messages: conversation });
  assert.match(
    prompt,
    /<\|im_start\|>user\nHello<\|im_end\|>\n<\|im_start\|>system\nAgents: Explore, Plan.<\|im_end\|>\n<\|im_start\|>assistant\nHi/,
  );
});

test("a template that raises on a later system message gets it merged into the system prompt", async () => {
  const strict = await template(STRICT);
  await assert.rejects(strict.apply({ messages: conversation }), /roles must alternate/);
  const { prompt } = await applyWithSystemTurns(strict, { messages: [{ role: "system", content: "Be brief." }, ...conversation] });
  assert.equal(prompt, "[SYS]Be brief.\n\nAgents: Explore, Plan.[/SYS][INST]Hello[/INST]Hi</s>[INST]List files[/INST]");
});

test("a template that drops a later system message gets it as the system prompt (made when there is none)", async () => {
  const { prompt } = await applyWithSystemTurns(await template(DROPPING), { messages: conversation });
  assert.equal(prompt, "<<SYS>>Agents: Explore, Plan.<</SYS>>[INST]Hello[/INST]Hi</s>[INST]List files[/INST]");
});

test("each request is rendered once: where a later system message goes is learnt once per template", async (t) => {
  for (const source of [QWEN3_CHAT_TEMPLATE, STRICT, DROPPING]) {
    const tpl = await template(source);
    const apply = t.mock.method(tpl, "apply");
    await applyWithSystemTurns(tpl, { messages: conversation });
    const first = apply.mock.callCount();
    await applyWithSystemTurns(tpl, { messages: conversation });
    await applyWithSystemTurns(tpl, { messages: [{ role: "user", content: "no later system message" }] });
    assert.equal(apply.mock.callCount() - first, 2, source.slice(0, 40));
    assert.equal(first, 2, "the first request: the probe, then the request");
  }
});

test("merging keeps order, joins text parts and leaves the first system message's place", () => {
  assert.deepEqual(
    mergeLaterSystemMessages([
      { role: "system", content: [{ type: "text", text: "A" }] },
      { role: "user", content: "u" },
      {
        role: "system",
        content: [
          { type: "text", text: "B" },
          { type: "text", text: "C" },
        ],
      },
      { role: "system", content: "D" },
    ]),
    [
      { role: "system", content: "A\n\nB\n\nC\n\nD" },
      { role: "user", content: "u" },
    ],
  );
});
