// The conversations llama.cpp renders a template with on every chat request, whatever the request:
// the differential autoparser's (common/chat-diff-analyzer.cpp, v0.5.0: each compare_variants renders a
// pair through autoparser::apply_template) and common_chat_templates_support_enable_thinking's. All of
// them, whichever the analysis would reach: they are a handful of small conversations.
import { directContext, requestContexts, type ServedTemplate } from "../analysis";

const FUN_FIRST = "FFF_FIRST_FUN_F";
const FUN_SECOND = "SSS_SECOND_FUN_S";
const ARG_FIRST = "AA_ARG_FST_AA";
const ARG_SECOND = "BB_ARG_SND_BB";
const THINKING = "REASON_PART I am thinking END_R";
const ASSISTANT_TEXT = "A_ASST_MSG I can help END_A";

const SCHEMA = {
  type: "object",
  properties: {
    [ARG_FIRST]: { type: "string", description: "First argument" },
    [ARG_SECOND]: { type: "string", description: "Second argument" },
  },
  required: [],
};
const TOOLS = [
  { type: "function", function: { name: FUN_FIRST, description: "Test function foo", parameters: SCHEMA } },
  { type: "function", function: { name: FUN_SECOND, description: "Test function bar", parameters: SCHEMA } },
];

const call = (name: string, args: object, id = "call00001") => ({ id, type: "function", function: { name, arguments: args } });
const BOTH_ARGS = { [ARG_FIRST]: "XXXX", [ARG_SECOND]: "YYYY" };
const withCalls = (...calls: object[]) => ({ role: "assistant", content: "", tool_calls: calls });

const user = { role: "user", content: "U_USER_MSG Hello END_U" };
const userTwo = { role: "user", content: "V_USER_MSG Hello END_V" };
const assistant = { role: "assistant", content: ASSISTANT_TEXT };

/** The second message of each tool-analysis conversation (after `user`), rendered with the two test tools. */
const WITH_TOOLS: readonly object[] = [
  assistant,
  { role: "assistant", content: ASSISTANT_TEXT, reasoning_content: THINKING },
  {
    role: "assistant",
    content: null,
    reasoning_content: THINKING,
    tool_calls: [call(FUN_FIRST, { [ARG_FIRST]: "VVVV", [ARG_SECOND]: "XXXX" })],
  },
  withCalls(call("test_func", { arg1: "value1" })),
  { role: "assistant", content: "", reasoning_content: THINKING },
  withCalls(call(FUN_FIRST, BOTH_ARGS)),
  withCalls(call(FUN_FIRST, BOTH_ARGS), call(FUN_SECOND, BOTH_ARGS, "call00002")),
  withCalls(call(FUN_SECOND, BOTH_ARGS, "call00002")),
  withCalls(call(FUN_FIRST, { [ARG_FIRST]: "XXXX" })),
  withCalls(call(FUN_FIRST, { [ARG_SECOND]: "YYYY" })),
  withCalls(call(FUN_FIRST, { [ARG_FIRST]: "YYYY" })),
  withCalls(call(FUN_FIRST, {})),
  withCalls(call(FUN_FIRST, BOTH_ARGS, "call99999")),
];

/** Tool-less conversations of the reasoning, content and marker analyses: [messages, add_generation_prompt, enable_thinking]. */
const WITHOUT_TOOLS: readonly [object[], boolean, boolean][] = [
  [[], false, true],
  [[user], false, true],
  [[user, assistant], false, true],
  [[user, { role: "assistant", content: ASSISTANT_TEXT, reasoning_content: THINKING }], false, true],
  [[userTwo, assistant], false, true],
  [[userTwo, assistant, user], false, true],
  [[user], true, false],
  [[user], true, true],
];

export interface FixedRender {
  what: string;
  context: Record<string, unknown>;
}

export function fixedRenders(t: ServedTemplate, now: Date): FixedRender[] {
  const analysis = (messages: object[], tools: object[] | null, addGenerationPrompt: boolean, enableThinking: boolean): FixedRender => ({
    what: "llama.cpp's autoparser analysis",
    context: directContext(t, { messages, tools, addGenerationPrompt, enableThinking, extra: { enable_thinking: enableThinking } }),
  });
  const thinking = requestContexts(
    t,
    {
      messages: [{ role: "user", content: "test" }],
      tools: null,
      add_generation_prompt: true,
      continue_final_message: false,
      enable_thinking: true,
      chat_template_kwargs: {},
    },
    now,
  );
  return [
    ...WITHOUT_TOOLS.map(([messages, agp, think]) => analysis(messages, null, agp, think)),
    ...WITH_TOOLS.map((second) => analysis([user, second], TOOLS, false, true)),
    ...(thinking ?? []).map((context) => ({ what: "llama.cpp's enable_thinking check", context })),
  ];
}
