// POST /v1/completions: a raw prompt, generated from as it is, with no template. This is how a rendered
// template is tried against the model byte for byte.
import { finishOf } from "../chat/chat";
import { dflashHeaders, timings } from "../llama/dflash";
import { badRequest } from "../http/errors";
import { Fields, wrongType } from "../http/fields";
import { generate } from "../chat/generation";
import { sendJson, type RouteContext } from "../http/route";
import { commonParams, usageOf } from "./params";
import { completionLogprobs, completionLogprobsRequest } from "./logprobs";
import { CompletionChunkWriter, openResponse } from "./streaming";

/** A string, or token ids; OpenAI's lists of several prompts would need several choices. */
function promptOf(f: Fields): string | number[] {
  const v = f.need("prompt", f.raw);
  if (typeof v === "string") return v;
  if (Array.isArray(v) && v.length === 1 && typeof v[0] === "string") return v[0];
  if (Array.isArray(v) && v.length > 0 && v.every((t) => Number.isInteger(t) && t >= 0)) return v as number[];
  if (Array.isArray(v) && v.length > 1 && v.every((t) => typeof t === "string"))
    throw badRequest("only one prompt per request is supported", ["prompt"]);
  throw wrongType(["prompt"], "a string or an array of token ids", v);
}

export async function completions(ctx: RouteContext): Promise<void> {
  const f = Fields.of(await ctx.body(), []);
  const p = commonParams(f);
  const prompt = promptOf(f);
  if (f.boolean("echo")) throw badRequest("is not supported", ["echo"]);
  if (f.string("suffix")) throw badRequest("is not supported (no fill-in-the-middle)", ["suffix"]);
  if ((f.integer("best_of", 1) ?? 1) > 1) throw badRequest("only 1 is supported", ["best_of"]);
  const logprobs = completionLogprobsRequest(f);
  const { engine, info } = ctx.services.model.ready();
  // a rendered template usually begins with its BOS already: do not add a second one
  const tokens =
    typeof prompt === "string" ? await engine.tokenize(prompt, { addSpecial: !(info.bosText && prompt.startsWith(info.bosText)) }) : prompt;
  const { stream, ...meta } = openResponse(ctx, p, { idPrefix: "cmpl-", logprobs: logprobs !== undefined, writer: CompletionChunkWriter });
  const { id, model, created, logprobs: pending } = meta;
  const result = await generate(engine, ctx.services.queue, tokens, {
    ...p.sampling,
    maxTokens: p.maxTokens,
    clampMaxTokens: ctx.services.config.maxTokensOverflow === "clamp",
    onAccepted: stream ? () => stream.start() : undefined,
    stop: p.stop,
    ignoreEos: p.ignoreEos,
    signal: ctx.signal,
    logprobs,
    grammar: p.llama.grammar,
    jsonSchema: p.llama.jsonSchema,
    onToken: stream
      ? (e) => {
          if (e.logprobs) pending?.push(e.logprobs);
          stream.text(e.text);
        }
      : undefined,
  });
  const finish = finishOf(result.stopReason, 0);
  ctx.services.metrics.recordGeneration("openai", finish, result.stats);
  if (finish === "abort") return;
  if (stream) return stream.finish(finish, result.stats);
  sendJson(
    ctx.res,
    200,
    {
      id,
      object: "text_completion",
      created,
      model,
      choices: [
        { index: 0, text: result.text, logprobs: result.logprobs ? completionLogprobs(result.logprobs) : null, finish_reason: finish },
      ],
      usage: usageOf(result.stats),
      timings: timings(result.stats),
    },
    dflashHeaders(result.stats),
  );
}
