// `chat-template bench [--json] [--target FILE --draft FILE] …`: plain vs DFlash decoding of one pair.
// Without --target it runs on the constructed test pair, whose acceptance is known, so the figure that
// matters is the speedup against the ideal one computed from measured parts:
//   ideal = τ · T_plain_step / (T_verify + T_draft),  τ = tokens per verification step.
import {
  type CommandHelp,
  type CommandIO,
  onOff,
  type ParsedArgs,
  intOption,
  parseArgs,
  progressLine,
  UsageError,
} from "../../server/src/commandLine";
import { Engine, EngineError, type GenerateResult } from "../engine";
import { CYCLE, ensureDemoModels, writeConstructedPair } from "../testModels";
import { compareLlama, compareText, DEFAULT_PROMPTS, parsePrompts } from "./compareLlama";
import { agentSessionBench, agentSessionUsage } from "./agentBench";
import { contextSweep, parseContexts, sweepText } from "./contextSweep";
import { tempDir } from "./tempDir";

export const help: CommandHelp = {
  usage:
    "chat-template bench [--json] [--target FILE --draft FILE] [--tokens N] [--prompt N] [--runs N] [--threads N] [--context N] [--gpu-layers N] [--draft-max N] [--draft-adaptive on|off] [--draft-window N] [--context-sweep N,N,…]\n       " +
    agentSessionUsage +
    "\n       chat-template bench --compare-llama [--json] [--target FILE [--draft FILE]] [--prompts N,N,…] [--tokens N] [--threads N] [--gpu-layers N]",
  summary: "measure DFlash against plain decoding on a model pair: tokens/s, acceptance, speedup, losslessness",
  description:
    "Runs plain and DFlash greedy decoding on the constructed test pair (or --target and --draft), checks that both " +
    "write the same tokens, and prints tokens per second, the draft's acceptance, the cost of each kind of step, and " +
    "DFlash's speed as a multiple of plain decoding's next to the ideal multiple the measured step costs allow " +
    "(tokens per step × plain step ÷ (verify + draft)). --context-sweep then compares plain, fixed-block and adaptive " +
    "drafting at several prompt lengths. --agent-session replays a synthetic Claude Code-shaped agent session through " +
    "an endpoint in this process and prints, per turn, the prompt tokens, how many the prompt cache reused, and the " +
    "prefill and first-token times. --compare-llama measures the engine (alone, with its draft, and through a real " +
    "endpoint) against node-llama-cpp's own context on the same GGUF at several prompt lengths. On a terminal, stderr shows which run is going.",
  options: [
    ["--target FILE --draft FILE", "the GGUF pair to measure (default: the constructed test pair, written to a temporary folder)"],
    ["--tokens N", "tokens generated per run (default 256)"],
    ["--prompt N", "prompt length in tokens (default 64)"],
    ["--runs N", "runs of each kind; the figures are their median (default 3)"],
    ["--threads N", "CPU threads (default: one for the demo and test models, narrower than 512, else llama.cpp's choice)"],
    ["--context N", "context size (default: what the runs need, at least 4096)"],
    ["--gpu-layers N", "target layers on the GPU (default -1: all)"],
    ["--draft-max N", "most tokens drafted per step (default: the draft's block size - 1)"],
    ["--draft-adaptive on|off", "choose each step's draft length for speed (default on)"],
    ["--draft-window N", "positions of the target's features the draft attends to (default: the draft's own)"],
    ["--context-sweep N,N,…", "also decode at these prompt lengths: plain, a full block every step, adaptive"],
    ["--json", "end with one JSON line: lossless, acceptance, plain_tps, dflash_tps, speedup, ideal_speedup (and sweep)"],
    ["--agent-session", 'replay the agent session; --json ends with {"turns":[{"prompt","reused","ttft_ms"}…]}'],
    ["--template FILE", "with --agent-session: replay it through this template instead of the demo model's"],
    ["--compare-llama", 'the engine against node-llama-cpp\'s LlamaContext; --json ends with {"points":[{"prompt","ours_prefill",…}]}'],
    ["--prompts N,N,…", "with --compare-llama: prompt lengths in tokens (default 1024,8192,32768)"],
    ["--system-tokens N, --turns N", "with --agent-session: the session's size (default about 30,000 tokens, 10 turns)"],
  ],
  examples: [
    "chat-template bench --threads 1",
    "chat-template bench --target model.gguf --draft dflash.gguf --tokens 512 --json",
    "chat-template bench --context-sweep 512,2048,8192",
    "chat-template bench --agent-session --json",
    "chat-template bench --compare-llama --prompts 1024,8192 --threads 1",
  ],
  exitCodes: [
    [0, "measured, and DFlash wrote the same tokens as plain decoding"],
    [1, "the outputs diverge, or a model failed to load"],
    [2, "usage error"],
  ],
};

/** The speedup in words that cannot be read two ways: DFlash's speed as a multiple of plain decoding's, and the
 * multiple its measured step costs predict (a measured speedup above the prediction is no contradiction). */
export function speedupText(speedup: number, predicted: number): string {
  return `DFlash: ${speedup.toFixed(2)}× plain decoding's speed (${predicted.toFixed(2)}× predicted from the measured step costs)`;
}

export interface BenchSummary {
  lossless: boolean;
  /** Index of the first token where DFlash and plain differ (the output length when they do not). */
  divergence: number;
  acceptance: number;
  plain_tps: number;
  dflash_tps: number;
  speedup: number;
  ideal_speedup: number;
  tokens_per_step: number;
  plain_step_ms: number;
  verify_ms: number;
  draft_ms: number;
  /** DFlash steps by tokens drafted ([0]: plain steps the controller chose). */
  choices: number[];
}

export function summarize(plain: GenerateResult, dflash: GenerateResult): BenchSummary {
  const p = plain.stats;
  const d = dflash.stats;
  const plainStep = p.generateMs / Math.max(1, p.targetDecodes);
  const verify = d.draftSteps ? d.verifyMs / d.draftSteps : 0;
  const draft = d.draftSteps ? d.draftMs / d.draftSteps : 0;
  const tau = d.generatedTokens / Math.max(1, d.targetDecodes);
  let divergence = 0;
  while (divergence < plain.tokens.length && plain.tokens[divergence] === dflash.tokens[divergence]) divergence++;
  return {
    lossless: plain.tokens.length === dflash.tokens.length && divergence === plain.tokens.length,
    divergence,
    acceptance: d.acceptance,
    plain_tps: p.tokensPerSecond,
    dflash_tps: d.tokensPerSecond,
    speedup: d.tokensPerSecond / p.tokensPerSecond,
    ideal_speedup: verify + draft > 0 ? (tau * plainStep) / (verify + draft) : 0,
    tokens_per_step: tau,
    plain_step_ms: plainStep,
    verify_ms: verify,
    draft_ms: draft,
    choices: d.controller?.choices ?? [],
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchCommand(argv: string[], io: CommandIO): Promise<number> {
  try {
    return await bench(argv, io);
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    io.stderr(`chat-template bench: ${e.message}\n`);
    return 1;
  }
}

async function bench(argv: string[], io: CommandIO): Promise<number> {
  if (argv.includes("--agent-session")) return agentSessionBench(argv, io);
  const args = parseArgs(argv, {
    values: [
      "target",
      "draft",
      "tokens",
      "prompt",
      "runs",
      "threads",
      "context",
      "gpu-layers",
      "draft-max",
      "draft-adaptive",
      "draft-window",
      "context-sweep",
      "prompts",
    ],
    switches: ["json", "compare-llama"],
  });
  if (args.positionals.length) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  if (args.switches.has("compare-llama")) return compare(args, io);
  if (args.values.has("prompts")) throw new UsageError("--prompts goes with --compare-llama");
  if (args.values.has("target") !== args.values.has("draft")) throw new UsageError("--target and --draft go together");
  const tokens = intOption("tokens", args.values.get("tokens"), 1) ?? 256;
  const promptLen = intOption("prompt", args.values.get("prompt"), 1) ?? 64;
  const runs = intOption("runs", args.values.get("runs"), 1) ?? 3;
  const sweep = args.values.has("context-sweep") ? parseContexts(args.values.get("context-sweep")!) : [];
  const builtIn = !args.values.has("target");
  const tmp = builtIn ? tempDir("bench") : undefined;
  try {
    const pair = tmp ? writeConstructedPair(tmp.dir) : { target: args.values.get("target")!, draft: args.values.get("draft")! };
    const engine = await Engine.load({
      target: pair.target,
      draft: pair.draft,
      contextSize:
        intOption("context", args.values.get("context"), 64) ??
        Math.max(4096, promptLen + tokens + 64, ...sweep.map((c) => c + tokens + 64)),
      gpuLayers: intOption("gpu-layers", args.values.get("gpu-layers"), -1) ?? -1,
      threads: intOption("threads", args.values.get("threads"), 0) || undefined,
      draftMax: intOption("draft-max", args.values.get("draft-max"), 0) || undefined,
      draftAdaptive: onOff("draft-adaptive", args.values.get("draft-adaptive"), true),
      draftWindow: intOption("draft-window", args.values.get("draft-window"), 0) || undefined,
    });
    try {
      // the constructed pair's cycle, as its byte tokens; a real model gets a text prompt
      const promptOf = async (n: number) =>
        builtIn
          ? Array.from({ length: n }, (_, i) => "a".charCodeAt(0) + (i % CYCLE))
          : (await engine.tokenize("Write a long, detailed story about a lighthouse keeper. ".repeat(Math.ceil(n / 8)))).slice(0, n);
      const prompt = await promptOf(promptLen);
      const gen = (speculative: boolean, maxTokens: number) =>
        engine.generate(prompt, { maxTokens, temperature: 0, ignoreEos: true, speculative });
      await gen(false, 8);
      await gen(true, 8);
      const results: BenchSummary[] = [];
      const progress = progressLine(io, "bench");
      for (let i = 0; i < runs; i++) {
        progress.update(`run ${i + 1} of ${runs}: ${tokens} tokens plain, then with DFlash`);
        results.push(summarize(await gen(false, tokens), await gen(true, tokens)));
      }
      progress.done();
      const s = Object.fromEntries(
        Object.keys(results[0]).map((k) => {
          const key = k as keyof BenchSummary;
          if (key === "lossless") return [k, results.every((r) => r.lossless)];
          if (key === "divergence") return [k, Math.min(...results.map((r) => r.divergence))];
          if (key === "choices") return [k, results.at(-1)!.choices];
          return [k, median(results.map((r) => r[key] as number))];
        }),
      ) as unknown as BenchSummary;
      const info = engine.info;
      io.stdout(
        `backend: ${info.backend.kind} (${info.backend.reason})\n` +
          `target: ${info.description}${builtIn ? " — the constructed test pair (hand-set weights)" : ""}\n` +
          `draft: ${info.draft?.name}, block ${info.draft?.blockSize}, up to ${info.draft?.draftMax} tokens per step\n` +
          `plain : ${s.plain_tps.toFixed(1)} tok/s, ${s.plain_step_ms.toFixed(3)} ms per step\n` +
          `dflash: ${s.dflash_tps.toFixed(1)} tok/s, acceptance ${(s.acceptance * 100).toFixed(1)}%, ${s.tokens_per_step.toFixed(2)} tokens per step, ` +
          `verify ${s.verify_ms.toFixed(3)} ms + draft ${s.draft_ms.toFixed(3)} ms per step\n` +
          `${speedupText(s.speedup, s.ideal_speedup)}\n` +
          `lossless: ${s.lossless ? "yes" : `NO, the outputs diverge at token ${s.divergence}`} (median of ${runs} runs of ${tokens} tokens)\n` +
          (info.draft?.draftAdaptive
            ? `adaptive draft length: steps by tokens drafted ${s.choices
                .map((n, i) => (n ? `${i}:${n}` : ""))
                .filter(Boolean)
                .join(" ")} (last run)\n`
            : `fixed draft length: ${info.draft?.draftMax} tokens every step\n`),
      );
      const points = sweep.length ? await contextSweep(engine, promptOf, sweep, tokens, runs) : [];
      if (points.length) io.stdout(sweepText(points, tokens, runs));
      if (args.switches.has("json")) {
        const { lossless, acceptance, plain_tps, dflash_tps, speedup, ideal_speedup } = s;
        const swept = points.map(({ context, plain_tps, fixed_tps, adaptive_tps, acceptance }) => ({
          context,
          plain_tps,
          fixed_tps,
          adaptive_tps,
          acceptance,
        }));
        io.stdout(
          JSON.stringify({
            lossless,
            acceptance,
            plain_tps,
            dflash_tps,
            speedup,
            ideal_speedup,
            ...(points.length ? { sweep: swept } : {}),
          }) + "\n",
        );
      }
      return s.lossless && points.every((p) => p.lossless) ? 0 : 1;
    } finally {
      await engine.close();
    }
  } finally {
    tmp?.cleanup();
  }
}

/** `--compare-llama`: on the demo pair unless --target names a model (its draft, when given, is measured too). */
async function compare(args: ParsedArgs, io: CommandIO): Promise<number> {
  for (const flag of ["runs", "context", "draft-max", "draft-adaptive", "draft-window", "context-sweep"])
    if (args.values.has(flag)) throw new UsageError(`--${flag} does not go with --compare-llama`);
  if (args.values.has("draft") && !args.values.has("target")) throw new UsageError("--draft needs --target");
  const demo = args.values.has("target") ? undefined : ensureDemoModels();
  const threads = intOption("threads", args.values.get("threads"), 0) || undefined;
  const options = {
    target: demo?.target ?? args.values.get("target")!,
    draft: demo?.draft ?? args.values.get("draft"),
    prompts: args.values.has("prompts") ? parsePrompts(args.values.get("prompts")!) : DEFAULT_PROMPTS,
    tokens: intOption("tokens", args.values.get("tokens"), 2) ?? 64,
    threads,
    gpuLayers: intOption("gpu-layers", args.values.get("gpu-layers"), -1) ?? -1,
  };
  if (demo) io.stderr(`bench: on the ${demo.description}\n`);
  const points = await compareLlama(options, (line) => io.stderr(`bench: ${line}\n`));
  io.stdout(compareText(points, options));
  if (args.switches.has("json")) {
    io.stdout(JSON.stringify({ points }) + "\n");
  }
  return 0;
}
