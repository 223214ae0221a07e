// The tool-call format llama.cpp's differential autoparser (common/chat-diff-analyzer.cpp, v0.5.0)
// infers from a template: it renders conversations that differ in one place (a tool call or not,
// function FFF_FIRST_FUN_F or SSS_SECOND_FUN_S, argument value XXXX or YYYY …), diffs the outputs
// (diffSplit.ts) and reads the markers around the needles. This reproduces the analysis of the
// reasoning markers, the call format, the section/per-call markers, the function name markers and
// the argument name/value markers; not the argument separator, argument wrapper and call-id
// markers, nor the peg parser generated from all of them. Templates llama.cpp handles with a
// hand-written parser (common_chat_try_specialized_template) are named instead.
import { type Dialect, render } from "../../interpreter";
import type { TemplateDocument } from "../../document";
import { CHECK_LIMITS, CHECK_NOW } from "../scenarios";
import type { Caps } from "./capsProbe";
import { withUsageStats } from "./usage";
import { diffSplit, pruneWhitespaceSegments, segmentize, trimLeadingWhitespace, trimWhitespace, type DiffSplit } from "./diffSplit";
import { any, choice, end, literal, marker, not, optional, parse, parseAnywhere, rest, seq, space, tag, until, zeroOrMore } from "./peg";

export type ToolCallMode = "NONE" | "JSON_NATIVE" | "TAG_WITH_JSON" | "TAG_WITH_TAGGED";

export interface ToolCallFormat {
  mode: ToolCallMode;
  /** Set when llama.cpp uses a hand-written parser for this template instead of the autoparser. */
  specialized: string | null;
  reasoning: { start: string; end: string };
  section_start: string;
  section_end: string;
  per_call_start: string;
  per_call_end: string;
  function: { name_prefix: string; name_suffix: string; close: string };
  arguments: { name_prefix: string; name_suffix: string; value_prefix: string; value_suffix: string };
  /** JSON_NATIVE: where the name and the arguments sit in the call object. */
  json: { name_field: string; args_field: string; id_field: string; fun_name_is_key: boolean; tools_array_wrapped: boolean } | null;
}

const FUN_FIRST = "FFF_FIRST_FUN_F";
const FUN_SECOND = "SSS_SECOND_FUN_S";
const ARG_FIRST = "AA_ARG_FST_AA";
const ARG_SECOND = "BB_ARG_SND_BB";
const USER_MSG = "U_USER_MSG Hello END_U";
const ASSISTANT_MSG = "A_ASST_MSG I can help END_A";
const THINKING_CONTENT = "REASON_PART I am thinking END_R";

const PARAMS_SCHEMA = {
  type: "object",
  properties: {
    [ARG_FIRST]: { type: "string", description: "First argument" },
    [ARG_SECOND]: { type: "string", description: "Second argument" },
  },
  required: [],
};
const TOOLS = [FUN_FIRST, FUN_SECOND].map((name, i) => ({
  type: "function",
  function: { name, description: `Test function ${i ? "bar" : "foo"}`, parameters: PARAMS_SCHEMA },
}));
const userMsg = { role: "user", content: USER_MSG };
const toolCall = (name: string, args: Record<string, string>, id = "call00001") => ({
  id,
  type: "function",
  function: { name, arguments: args },
});
const FIRST_CALL = toolCall(FUN_FIRST, { [ARG_FIRST]: "XXXX", [ARG_SECOND]: "YYYY" });
const SECOND_CALL = toolCall(FUN_SECOND, { [ARG_FIRST]: "XXXX", [ARG_SECOND]: "YYYY" }, "call00002");
const withCalls = (...calls: unknown[]) => ({ role: "assistant", content: "", tool_calls: calls });
const assistantText = { role: "assistant", content: ASSISTANT_MSG };

interface Params {
  messages: unknown[];
  tools: unknown[];
  addGenerationPrompt: boolean;
  enableThinking: boolean;
}

/** Source checks of common_chat_try_specialized_template, in its order. */
const SPECIALIZED: readonly [string, (src: string) => boolean][] = [
  ["ministral-3", (s) => s.includes("[SYSTEM_PROMPT]") && s.includes("[TOOL_CALLS]") && s.includes("[ARGS]") && !s.includes("[CALL_ID]")],
  ["gpt-oss", (s) => s.includes("<|channel|>")],
  ["muse-glimmer", (s) => s.includes("<atem:function_calls>") && s.includes("<|eom|>")],
  ["functionary-v3.2", (s) => s.includes(">>>all") && s.includes(">>>${recipient}")],
  ["kimi-k2", (s) => s.includes("<|tool_calls_section_begin|>") && s.includes("<|tool_call_begin|>")],
  ["kimi-k3", (s) => s.includes("<|open|>") && s.includes("<|close|>") && s.includes("<|end_of_msg|>")],
  ["ling3", (s) => s.includes("<role>ASSISTANT</role>") && s.includes("<arg_key>")],
  ["cohere2moe", (s) => s.includes("<|START_TEXT|>") && s.includes("<|START_ACTION|>")],
];

class Analysis {
  readonly f: ToolCallFormat = {
    mode: "NONE",
    specialized: null,
    reasoning: { start: "", end: "" },
    section_start: "",
    section_end: "",
    per_call_start: "",
    per_call_end: "",
    function: { name_prefix: "", name_suffix: "", close: "" },
    arguments: { name_prefix: "", name_suffix: "", value_prefix: "", value_suffix: "" },
    json: null,
  };

  constructor(
    private readonly doc: TemplateDocument,
    private readonly dialect: Dialect,
    private readonly caps: Caps,
  ) {}

  /** messages_inp_normalizer: string content becomes a text part when only typed content works. */
  private normalize(messages: unknown[]): unknown[] {
    const onlyTyped = !this.caps.supports_string_content && this.caps.supports_typed_content;
    if (!onlyTyped) return messages;
    return messages.map((m) => {
      const msg = m as Record<string, unknown>;
      return typeof msg.content === "string" ? { ...msg, content: [{ type: "text", text: msg.content }] } : msg;
    });
  }

  /** common_chat_template_direct_apply as apply_template calls it; null where the render throws. */
  private apply(p: Params): string | null {
    const context: Record<string, unknown> = {
      messages: this.normalize(p.messages),
      bos_token: "",
      eos_token: "",
      enable_thinking: p.enableThinking,
    };
    if (p.tools.length) context.tools = p.tools;
    if (p.addGenerationPrompt) context.add_generation_prompt = true;
    const r = render(this.doc, context, { dialect: this.dialect, now: CHECK_NOW, limits: CHECK_LIMITS });
    return r.error ? null : r.output;
  }

  private compare(a: Params, modify: (b: Params) => void): { diff: DiffSplit; a: string; b: string } | null {
    const b = { ...a };
    modify(b);
    const outA = this.apply(a);
    const outB = this.apply(b);
    if (outA === null || outB === null) return null;
    return { diff: diffSplit(outA, outB), a: outA, b: outB };
  }

  private toolParams(messages: unknown[]): Params {
    return { messages, tools: TOOLS, addGenerationPrompt: false, enableThinking: true };
  }

  reasoningPresence(): void {
    const c = this.compare({ messages: [userMsg, assistantText], tools: [], addGenerationPrompt: false, enableThinking: true }, (p) => {
      p.messages = [userMsg, { ...assistantText, reasoning_content: THINKING_CONTENT }];
    });
    if (!c || !c.diff.right.includes(THINKING_CONTENT)) return;
    const wrapped = seq(tag("pre", seq(marker, space)), literal(THINKING_CONTENT), tag("post", seq(space, marker, space)), rest);
    const delimiter = seq(literal(THINKING_CONTENT), space, optional(tag("post", seq(marker, space))), rest);
    let r = parseAnywhere(wrapped, c.b);
    if (!r.success) r = parseAnywhere(delimiter, c.b);
    if (!r.success) return;
    if (r.tags.pre && r.tags.post) {
      this.f.reasoning.start = r.tags.pre;
      this.f.reasoning.end = r.tags.post;
    } else if (r.tags.post) {
      this.f.reasoning.end = r.tags.post;
    }
  }

  thinkingEnabled(): void {
    const c = this.compare({ messages: [userMsg], tools: [], addGenerationPrompt: true, enableThinking: false }, (p) => {
      p.enableThinking = true;
    });
    if (!c) return;
    const r = this.f.reasoning;
    const left = trimWhitespace(c.diff.left);
    const right = trimWhitespace(c.diff.right);
    if (!left && c.diff.right) {
      if (right && c.b.endsWith(right) && !r.start) r.start = c.diff.right;
    } else if (!right && c.diff.left) {
      if (left && c.a.endsWith(left) && !r.end) {
        const seg = pruneWhitespaceSegments(segmentize(c.a));
        if (seg.length >= 2 && seg[seg.length - 1].value === left && seg[seg.length - 2].marker) r.start = seg[seg.length - 2].value;
        r.end = c.diff.left;
      }
    } else if (left && right) {
      // Tail anchoring: one generation prompt's tail reappears in the other with the markers after it.
      for (const [base, extended] of [
        [c.b, c.a],
        [c.a, c.b],
      ]) {
        const n = Math.min(base.length, 64);
        const anchor = base.slice(base.length - n);
        const pos = extended.lastIndexOf(anchor);
        if (pos < 0 || pos + n >= extended.length) continue;
        const extra = trimWhitespace(extended.slice(pos + n));
        if (!extra) continue;
        const seg = pruneWhitespaceSegments(segmentize(extra));
        if (seg.length === 2 && seg[0].marker && seg[1].marker) {
          r.start ||= seg[0].value;
          r.end ||= seg[1].value;
          break;
        }
      }
    }
  }

  reasoningScope(): void {
    const c = this.compare(this.toolParams([userMsg, { ...assistantText, reasoning_content: THINKING_CONTENT }]), (p) => {
      p.messages = [
        userMsg,
        {
          role: "assistant",
          content: null,
          reasoning_content: THINKING_CONTENT,
          tool_calls: [toolCall(FUN_FIRST, { [ARG_FIRST]: "VVVV", [ARG_SECOND]: "XXXX" })],
        },
      ];
    });
    if (!c || c.a.includes(THINKING_CONTENT) || !c.b.includes(THINKING_CONTENT)) return;
    const wrapped = seq(tag("pre", seq(marker, space)), literal(THINKING_CONTENT), space, tag("post", seq(marker, space)));
    const r = parseAnywhere(wrapped, c.b);
    if (r.success) {
      this.f.reasoning.start = r.tags.pre;
      this.f.reasoning.end = r.tags.post;
      return;
    }
    const d = parseAnywhere(seq(literal(THINKING_CONTENT), space, optional(tag("post", seq(marker, space)))), c.b);
    if (d.success) this.f.reasoning.end = d.tags.post ?? "";
  }

  toolCalls(parallel: boolean): void {
    const c = this.compare(this.toolParams([userMsg, assistantText]), (p) => {
      p.messages = [userMsg, withCalls(FIRST_CALL)];
    });
    if (!c || !c.diff.right) return;
    const haystack = c.diff.right;
    const inJson = (needle: string) =>
      parseAnywhere(seq(choice(literal("{"), literal(":")), space, literal(`"${needle}"`)), haystack).success;
    this.f.mode = inJson(FUN_FIRST) ? "JSON_NATIVE" : inJson(ARG_FIRST) ? "TAG_WITH_JSON" : "TAG_WITH_TAGGED";
    let clean = haystack;
    const { start, end: stop } = this.f.reasoning;
    if (start && clean.includes(start)) clean = clean.replace(start, "");
    if (stop && clean.includes(stop)) clean = clean.replace(stop, "");
    if (this.f.mode === "JSON_NATIVE") {
      this.jsonNative(clean);
      if (parallel) this.jsonNativeParallel();
    } else {
      this.nonJson(clean);
    }
    this.f.section_end = trimWhitespace(this.f.section_end);
    this.f.per_call_end = trimWhitespace(this.f.per_call_end);
  }

  private jsonNative(clean: string): void {
    const json = { name_field: "name", args_field: "arguments", id_field: "", fun_name_is_key: false, tools_array_wrapped: false };
    this.f.json = json;
    let start = clean.indexOf("{");
    let stop = clean.lastIndexOf("}");
    if (start < 0 || stop < start) return;
    const cut = clean.slice(start, stop + 1);
    let call: unknown;
    try {
      call = JSON.parse(cut);
    } catch {
      return;
    }
    if (typeof call !== "object" || call === null) return;
    const register = (prefix: string, key: string, value: unknown) => {
      const path = prefix ? `${prefix}.${key}` : key;
      if (typeof value === "string" && value.includes("call0000")) json.id_field = path;
      else if (value === FUN_FIRST) json.name_field = path;
      else if (JSON.stringify(value).includes(ARG_FIRST)) json.args_field = path;
    };
    for (const [k, v] of Object.entries(call)) {
      if (k === FUN_FIRST) {
        json.fun_name_is_key = true;
        json.name_field = "";
        json.args_field = "";
        continue;
      }
      if (typeof v === "object" && v !== null && !Array.isArray(v) && !JSON.stringify(v).includes(ARG_FIRST)) {
        for (const [k2, v2] of Object.entries(v)) register(k, k2, v2);
      }
      register("", k, v);
    }
    const wrapped = parseAnywhere(seq(tag("pre", seq(literal("["), space)), literal(cut), tag("post", seq(space, literal("]")))), clean);
    if (wrapped.success) {
      json.tools_array_wrapped = true;
      start -= wrapped.tags.pre.length;
      stop += wrapped.tags.post.length;
    }
    this.f.section_start = trimLeadingWhitespace(clean.slice(0, start));
    this.f.section_end = trimWhitespace(clean.slice(stop + 1));
    if (json.tools_array_wrapped && this.f.section_end === "]") this.f.section_end = "";
  }

  private jsonNativeParallel(): void {
    const c = this.compare(this.toolParams([userMsg, withCalls(FIRST_CALL)]), (p) => {
      p.messages = [userMsg, withCalls(FIRST_CALL, SECOND_CALL)];
    });
    if (c && this.f.section_start && c.diff.right.includes(this.f.section_start)) this.moveSectionToPerCall();
  }

  private moveSectionToPerCall(): void {
    this.f.per_call_start = this.f.section_start;
    this.f.per_call_end = this.f.section_end;
    this.f.section_start = "";
    this.f.section_end = "";
  }

  private nonJson(clean: string): void {
    const nameMarker = parseAnywhere(
      tag(
        "fun_marker",
        choice(
          seq(
            tag("fun_pre", seq(literal("<"), until(">", FUN_FIRST))),
            literal(FUN_FIRST),
            tag("fun_post", seq(not(seq(space, literal("<"))), until(">"), literal(">"))),
            space,
          ),
          seq(
            tag("fun_pre", seq(literal("["), until("]", FUN_FIRST))),
            literal(FUN_FIRST),
            tag("fun_post", not(seq(space, literal("["), until("]"), literal("]")))),
            space,
          ),
        ),
      ),
      clean,
    );
    const funMarker = nameMarker.success ? nameMarker.tags.fun_marker : FUN_FIRST;
    const perTool = seq(
      tag("sec_start", seq(marker, space)),
      tag("call_start", seq(marker, space)),
      tag("fun_pre", until(funMarker)),
      literal(funMarker),
      tag("rest", rest),
    );
    const section = seq(tag("sec_start", seq(marker, space)), literal(funMarker), tag("rest", rest));
    let r = parseAnywhere(perTool, clean);
    let closing;
    if (r.success) {
      closing = parseAnywhere(seq(tag("call_end", seq(marker, space)), tag("sec_end", seq(marker, space)), end), r.tags.rest);
      this.f.function.name_prefix = (nameMarker.tags.fun_pre ?? "") + this.f.function.name_prefix;
    } else {
      r = parseAnywhere(section, clean);
      closing = parseAnywhere(seq(tag("sec_end", seq(marker, space)), end), r.tags.rest ?? "");
    }
    this.f.per_call_start = r.tags.call_start ?? "";
    this.f.per_call_end = closing.tags.call_end ?? "";
    this.f.section_start = r.tags.sec_start ?? "";
    this.f.section_end = closing.tags.sec_end ?? "";
  }

  perCallMarkers(): void {
    const c = this.compare(this.toolParams([userMsg, withCalls(FIRST_CALL)]), (p) => {
      p.messages = [userMsg, withCalls(FIRST_CALL, SECOND_CALL)];
    });
    if (!c) return;
    const second = trimLeadingWhitespace(diffSplit(c.diff.suffix, c.diff.right).right);
    if (this.f.section_start && second.startsWith(this.f.section_start)) this.moveSectionToPerCall();
    if (this.f.per_call_end) {
      const count = (s: string) => s.split(this.f.per_call_end).length - 1;
      const one = count(c.a);
      if (one > 0 && one === count(c.b)) {
        this.f.section_end = this.f.per_call_end;
        this.f.per_call_end = "";
      }
    }
  }

  functionMarkers(): void {
    const params = this.toolParams([userMsg, withCalls(FIRST_CALL)]);
    const c = this.compare(params, (p) => {
      p.messages = [userMsg, withCalls(SECOND_CALL)];
    });
    if (!c || !c.diff.left.includes(FUN_FIRST) || !c.diff.right.includes(FUN_SECOND)) return;
    const { diff } = c;
    const fn = this.f.function;
    const prefixMarker = this.f.per_call_start || this.f.section_start;
    if (prefixMarker && diff.prefix.lastIndexOf(prefixMarker) >= 0)
      fn.name_prefix = diff.prefix.slice(diff.prefix.lastIndexOf(prefixMarker) + prefixMarker.length);
    const name = parse(seq(tag("pre", until(FUN_FIRST)), literal(FUN_FIRST), tag("post", zeroOrMore(seq(not(marker), any)))), diff.left);
    if (name.success) {
      fn.name_prefix += name.tags.pre;
      fn.name_suffix = name.tags.post;
    }
    if (this.f.mode === "TAG_WITH_JSON") {
      const nonJson = choice(marker, seq(not(literal("{")), not(literal("[")), any));
      const ext = parse(seq(tag("ext", zeroOrMore(nonJson)), zeroOrMore(seq(not(marker), any)), marker), diff.suffix);
      if (ext.success) fn.name_suffix += ext.tags.ext;
    } else {
      const ext = parse(tag("ext", zeroOrMore(seq(not(marker), any))), diff.suffix);
      if (ext.success) fn.name_suffix += ext.tags.ext;
    }
    const suffixMarker = this.f.per_call_end || this.f.section_end;
    let closer = "";
    if (!suffixMarker) {
      const none = this.compare(params, (p) => {
        p.messages = [userMsg, assistantText];
      });
      if (none) closer = none.diff.left.slice(none.diff.left.indexOf("YYYY") + 4);
    } else {
      const at = diff.suffix.indexOf(suffixMarker);
      closer = at < 0 ? diff.suffix : diff.suffix.slice(0, at);
    }
    if (closer) {
      if (this.f.mode === "TAG_WITH_TAGGED") {
        const r = parse(seq(until("YYYY"), literal("YYYY"), space, marker, space, tag("close", rest)), closer);
        if (r.success) fn.close = r.tags.close;
      } else if (this.f.mode === "TAG_WITH_JSON") {
        const r = parse(seq(until("YYYY"), literal("YYYY"), tag("post_val", rest)), closer);
        if (r.success) {
          const post = r.tags.post_val;
          const pos = Math.max(post.lastIndexOf("}"), post.lastIndexOf("]"));
          if (pos >= 0 && pos < post.length - 1) fn.close = trimLeadingWhitespace(post.slice(pos + 1));
        }
      }
    }
    fn.close = trimLeadingWhitespace(fn.close);
  }

  argumentNameMarkers(): void {
    const c = this.compare(this.toolParams([userMsg, withCalls(toolCall(FUN_FIRST, { [ARG_FIRST]: "XXXX" }))]), (p) => {
      p.messages = [userMsg, withCalls(toolCall(FUN_FIRST, { [ARG_SECOND]: "YYYY" }))];
    });
    if (!c || !c.diff.left || !c.diff.right) return;
    const { diff } = c;
    const a = this.f.arguments;
    const left = parseAnywhere(seq(tag("pre", until(ARG_FIRST)), literal(ARG_FIRST), tag("suffix", until('"', "X"))), diff.left);
    const right = parseAnywhere(seq(tag("pre", until(ARG_SECOND)), literal(ARG_SECOND), tag("suffix", until('"', "Y"))), diff.right);
    if (left.success && right.success && left.tags.pre && left.tags.pre === right.tags.pre && left.tags.suffix === right.tags.suffix) {
      a.name_prefix = left.tags.pre;
      a.name_suffix = left.tags.suffix;
    } else if (diff.left.startsWith(ARG_FIRST) && diff.right.startsWith(ARG_SECOND)) {
      const lastMarker = seq(marker, zeroOrMore(seq(not(marker), any)), end);
      const pre = parse(seq(zeroOrMore(seq(not(lastMarker), any)), tag("name_prefix", lastMarker)), diff.prefix);
      a.name_prefix = pre.success ? pre.tags.name_prefix : diff.prefix;
      const suf = parseAnywhere(
        tag("suffix", seq(zeroOrMore(seq(not(marker), any)), marker, space)),
        diff.left.slice(ARG_FIRST.length) + diff.suffix,
      );
      if (suf.success) a.name_suffix = suf.tags.suffix;
    }
  }

  argumentValueMarkers(): void {
    const c = this.compare(this.toolParams([userMsg, withCalls(toolCall(FUN_FIRST, { [ARG_FIRST]: "XXXX" }))]), (p) => {
      p.messages = [userMsg, withCalls(toolCall(FUN_FIRST, { [ARG_FIRST]: "YYYY" }))];
    });
    if (!c || c.diff.left !== "XXXX" || c.diff.right !== "YYYY") return;
    const { diff } = c;
    const a = this.f.arguments;
    const nameEnding = ARG_FIRST + a.name_suffix;
    let prefix = diff.prefix;
    if (prefix.lastIndexOf(nameEnding) >= 0) prefix = prefix.slice(prefix.lastIndexOf(nameEnding) + nameEnding.length);
    if (prefix) {
      const lastMarker = seq(marker, zeroOrMore(seq(not(marker), any)), end);
      const r = parse(seq(zeroOrMore(seq(not(lastMarker), any)), tag("val_prefix", lastMarker)), prefix);
      a.value_prefix = r.success ? r.tags.val_prefix : prefix;
    }
    let suffix = diff.suffix;
    const close = this.f.function.close;
    const endMarker = this.f.per_call_end || this.f.section_end;
    if (close && suffix.includes(close)) suffix = suffix.slice(0, suffix.indexOf(close));
    else if (!close && endMarker && suffix.includes(endMarker)) suffix = suffix.slice(0, suffix.indexOf(endMarker));
    if (trimWhitespace(suffix)) a.value_suffix = suffix;
  }
}

/** The tool-call format llama.cpp would parse model output with, given the caps its probe inferred. */
export function detectToolCallFormat(doc: TemplateDocument, dialect: Dialect, caps: Caps): ToolCallFormat {
  const a = new Analysis(doc, withUsageStats(dialect), caps);
  a.reasoningPresence();
  a.thinkingEnabled();
  if (caps.supports_tool_calls) a.reasoningScope();
  if (caps.supports_tool_calls) {
    a.toolCalls(caps.supports_parallel_tool_calls);
    if (a.f.mode !== "NONE" && a.f.mode !== "JSON_NATIVE") {
      if (caps.supports_parallel_tool_calls) a.perCallMarkers();
      a.functionMarkers();
      if (a.f.mode === "TAG_WITH_TAGGED") {
        a.argumentNameMarkers();
        a.argumentValueMarkers();
      }
    }
  }
  a.f.specialized = SPECIALIZED.find(([, test]) => test(doc.text))?.[0] ?? null;
  return a.f;
}
