// The template guard (server/src/guard): how much of each limit the corpus uses — every
// template × scenario sent as a chat request, plus each template's fixed renders (capability probe,
// autoparser conversations, enable_thinking check) — and what the guard adds to a request on the
// largest corpus template. The limits must leave a wide margin over the corpus's worst case.
import { readdirSync, readFileSync } from "node:fs";
import { loadBackend } from "../../native/engine/backend";
import type { NativeChatTemplates } from "../../native/engine/native";
import { requestContexts, type TemplateInputs } from "../../server/src/analysis";
import { fixedRenders } from "../../server/src/guard/fixedRenders";
import { CheckedTemplates } from "../../server/src/guard/guard";
import { guardLimits } from "../../server/src/guard/limits";
import { servedTemplates } from "../../server/src/guard/servedTemplates";
import { probeCaps } from "../../server/src/analysis/caps/capsProbe";
import { llamacpp_0_5_0 } from "../../server/src/dialects/llamacpp-v0.5.0";
import { TemplateDocument } from "../../server/src/document/document";
import type { Limits } from "../../server/src/interpreter/limits";
import { render } from "../../server/src/interpreter/render";
import { corpusDir } from "../helpers/corpus";
import type { BenchSuite } from "./bench";
import { fmt } from "./measure";

const dialect = { ...llamacpp_0_5_0, context: undefined };
const TOKENS = { bos: "<|bos|>", eos: "<|eos|>" };

/** The least value of one limit the render completes under (bisection on a log scale, within 2 %). */
function least(doc: TemplateDocument, context: Record<string, unknown>, key: keyof Limits, max: number): number {
  const passes = (v: number) =>
    !render(doc, context, { dialect, limits: { ...guardLimits(1e9), [key]: Math.ceil(v) } }).error?.code.startsWith("limit/");
  if (!passes(max)) return Infinity;
  let [lo, hi] = [1, max];
  if (passes(lo)) return lo;
  while (hi / lo > 1.02 && hi - lo > 1) {
    const mid = Math.sqrt(lo * hi);
    if (passes(mid)) hi = mid;
    else lo = mid;
  }
  return Math.ceil(hi);
}

/** A scenario k times as long: its turns (all but a leading system prompt and the last message) and its tools repeated. */
function grown(data: Record<string, unknown>, k: number): Record<string, unknown> {
  const messages = data.messages as unknown[];
  const lead = (messages[0] as { role: string }).role === "system" ? 1 : 0;
  const turns = messages.slice(lead, -1);
  const tools = data.tools as { function: { name: string } }[] | undefined;
  return {
    ...data,
    messages: [...messages.slice(0, lead), ...Array.from({ length: k }, () => turns).flat(), messages[messages.length - 1]],
    ...(tools
      ? {
          tools: Array.from({ length: k }, (_, i) =>
            tools.map((t) => (i ? { ...t, function: { ...t.function, name: `${t.function.name}_${i}` } } : t)),
          ).flat(),
        }
      : {}),
  };
}

const GROWN = ["multi-turn", "tools-offered", "tool-call-roundtrip"];
const GROWTH = 40;

interface Worst {
  value: number;
  ratio: number;
  where: string;
}

const suite: BenchSuite = {
  name: "template guard: corpus worst case per limit, and the cost per request (largest corpus template)",
  async run() {
    const { addon } = loadBackend();
    const scenarios = JSON.parse(readFileSync(corpusDir("scenarios.json"), "utf8")) as Record<string, Record<string, unknown>>;
    const names = readdirSync(corpusDir("templates"))
      .filter((f) => f.endsWith(".jinja"))
      .sort();
    const worst: Record<"steps" | "output" | "recursion", Worst> = {
      steps: { value: 0, ratio: 0, where: "" },
      output: { value: 0, ratio: 0, where: "" },
      recursion: { value: 0, ratio: 0, where: "" },
    };
    const note = (key: keyof typeof worst, value: number, limit: number, where: string) => {
      if (value / limit > worst[key].ratio) worst[key] = { value, ratio: value / limit, where };
    };
    let renders = 0;
    const measure = (doc: TemplateDocument, context: Record<string, unknown>, inputChars: number, where: string) => {
      const limits = guardLimits(inputChars);
      renders++;
      const used = { steps: 0, output: 0, recursion: 0 };
      for (const key of ["steps", "output", "recursion"] as const) {
        used[key] = least(doc, context, key, limits[key]);
        note(key, used[key], limits[key], where);
      }
      return used;
    };
    // what each further character of a request costs: the slope between a scenario and the same one GROWTH times longer
    const perChar = { steps: { value: 0, where: "" }, output: { value: 0, where: "" } };
    for (const name of names) {
      const source = readFileSync(corpusDir("templates", name), "utf8");
      const served = servedTemplates(source).default!;
      const doc = new TemplateDocument(served);
      const caps = probeCaps(doc, dialect, { limits: guardLimits(0) }).caps;
      const t = { source: served, caps, ...TOKENS };
      for (const r of fixedRenders(t, new Date())) measure(doc, r.context, 0, `${name}: ${r.what}`);
      const native = (await addon.createChatTemplates(source, TOKENS.bos, TOKENS.eos)) as NativeChatTemplates;
      for (const [scenario, data] of Object.entries(scenarios)) {
        let json: string;
        try {
          json = await native.templateInputs(JSON.stringify(data));
        } catch {
          continue; // a request llama.cpp's chat layer refuses before rendering
        }
        const contexts = requestContexts(t, JSON.parse(json) as TemplateInputs, new Date()) ?? [];
        const small = contexts.map((context) => measure(doc, context, json.length, `${name} × ${scenario}`));
        if (!GROWN.includes(scenario)) continue;
        const bigJson = await native.templateInputs(JSON.stringify(grown(data, GROWTH)));
        const big = (requestContexts(t, JSON.parse(bigJson) as TemplateInputs, new Date()) ?? []).map((context) =>
          measure(doc, context, bigJson.length, `${name} × ${scenario} ×${GROWTH}`),
        );
        big.forEach((b, i) => {
          for (const key of ["steps", "output"] as const) {
            const slope = (b[key] - small[i][key]) / (bigJson.length - json.length);
            if (slope > perChar[key].value) perChar[key] = { value: slope, where: `${name} × ${scenario}` };
          }
        });
      }
    }
    console.log(
      `${renders} renders (${names.length} templates); the corpus's worst case per limit, as a share of the limit that render gets:`,
    );
    for (const [key, w] of Object.entries(worst))
      console.log(`  ${key.padEnd(9)} ${String(w.value).padStart(8)}  ${(w.ratio * 100).toFixed(2)} % of its limit  (${w.where})`);
    for (const [key, w] of Object.entries(perChar))
      console.log(`  ${key} per further char of request input: at most ${w.value.toFixed(2)}  (${w.where})`);
    const base = guardLimits(0);
    console.log(
      `  limits: steps ${base.steps} + ${guardLimits(1).steps - base.steps}/input char, output ${base.output} + ${guardLimits(1).output - base.output}/input char, recursion ${base.recursion}`,
    );

    // the cost per request on the largest template: native apply alone vs the guard's share
    const largest = names
      .map((n) => ({ n, s: readFileSync(corpusDir("templates", n), "utf8") }))
      .sort((a, b) => b.s.length - a.s.length)[0];
    const native = (await addon.createChatTemplates(largest.s, TOKENS.bos, TOKENS.eos)) as NativeChatTemplates;
    let t0 = performance.now();
    const guard = CheckedTemplates.of(servedTemplates(largest.s), TOKENS);
    const initMs = performance.now() - t0;
    console.log(`largest template ${largest.n} (${largest.s.length} chars): fixed checks ${fmt(initMs)} ms once per template text`);
    const median = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
    const thinking = JSON.stringify({ messages: [{ role: "user", content: "test" }] });
    const before: number[] = [];
    for (let i = 0; i < 25; i++) {
      t0 = performance.now();
      await native.apply(thinking);
      before.push(performance.now() - t0);
    }
    // until the guard, every apply also ran common_chat_templates_support_enable_thinking, a whole apply of this conversation
    console.log(`  enable_thinking check, now once per template instead of once per request: ${fmt(median(before.slice(5)))} ms`);
    for (const scenario of ["basic", "tool-call-roundtrip", "multi-turn"]) {
      const json = JSON.stringify(scenarios[scenario]);
      const times = { native: [] as number[], guard: [] as number[] };
      for (let i = 0; i < 25; i++) {
        t0 = performance.now();
        await native.apply(json);
        times.native.push(performance.now() - t0);
        t0 = performance.now();
        guard.checkRequest(await native.templateInputs(json));
        times.guard.push(performance.now() - t0);
      }
      const [n, g] = [median(times.native.slice(5)), median(times.guard.slice(5))];
      console.log(`  ${scenario.padEnd(20)} native apply ${fmt(n)} ms, guard ${fmt(g)} ms (+${((g / n) * 100).toFixed(1)} %)`);
    }
  },
};

export default suite;
