// One generation at a time: a bounded FIFO wait list (429 beyond it), and clients that leave abort their
// generation or give up their place.
import Anthropic from "@anthropic-ai/sdk";
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import OpenAI from "openai";
import { GenerationQueue, QueueFullError } from "../../../native/endpoint/llama/queue";
import { metric, startEndpoint, until, type EndpointProcess } from "../../helpers/endpoint";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";

describe("GenerationQueue", () => {
  test("grants in arrival order, one at a time", async () => {
    const q = new GenerationQueue(2);
    const order: string[] = [];
    const first = await q.acquire();
    const b = q.acquire().then((release) => (order.push("b"), release));
    const c = q.acquire().then((release) => (order.push("c"), release));
    assert.equal(q.waiting, 2);
    first();
    (await b)();
    (await c)();
    assert.deepEqual(order, ["b", "c"]);
    assert.equal(q.active, 0);
  });

  test("refuses beyond the wait list, and counts the refusals", async () => {
    const q = new GenerationQueue(1);
    await q.acquire();
    void q.acquire();
    await assert.rejects(q.acquire(), QueueFullError);
    assert.equal(q.rejectedTotal, 1);
  });

  test("a waiter whose signal aborts leaves the list; releasing twice frees once", async () => {
    const q = new GenerationQueue(4);
    const release = await q.acquire();
    const controller = new AbortController();
    const gone = q.acquire(controller.signal);
    const next = q.acquire();
    controller.abort(new Error("left"));
    await assert.rejects(gone, /left/);
    assert.equal(q.waiting, 1);
    release();
    release();
    (await next)();
    assert.equal(q.active, 0);
  });

  test("drain refuses everyone waiting", async () => {
    const q = new GenerationQueue(4);
    await q.acquire();
    const waiting = q.acquire();
    q.drain(new Error("shutting down"));
    await assert.rejects(waiting, /shutting down/);
  });
});

// a generous bound on polling, so that a regression fails instead of hanging the run
describe("over HTTP", { timeout: HANG_GUARD_MS }, () => {
  let endpoint: EndpointProcess;
  let openai: OpenAI;
  let anthropic: Anthropic;
  before(async () => {
    endpoint = await startEndpoint(["--queue", "1"]);
    openai = new OpenAI({ baseURL: `${endpoint.url}/v1`, apiKey: "unused", maxRetries: 0 });
    anthropic = new Anthropic({ baseURL: endpoint.url, apiKey: "unused", maxRetries: 0 });
  });
  after(() => endpoint.stop());

  const LONG = {
    model: "m",
    messages: [{ role: "user" as const, content: "Go on forever" }],
    max_tokens: 3500,
    temperature: 0,
    ignore_eos: true,
  };

  /** A streamed generation that has produced its first chunk (so it holds the slot) and runs on. */
  async function occupy(controller: AbortController) {
    const stream = await openai.chat.completions.create({ ...LONG, stream: true } as never, { signal: controller.signal });
    const it = (stream as unknown as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    await it.next();
    return it;
  }

  test("beyond the wait list: 429 in each API's envelope; a disconnect aborts the running generation", async () => {
    const aborted = await metric(endpoint.url, 'cts_generations_total{api="openai",finish="abort"}');
    const generated = await metric(endpoint.url, "cts_generated_tokens_total");
    const controller = new AbortController();
    const running = await occupy(controller);
    const queued = openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "next" }], max_tokens: 2 });
    await until(async () => (await metric(endpoint.url, "cts_queue_waiting")) === 1);

    await assert.rejects(
      openai.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }], max_tokens: 2 }),
      (e: unknown) => {
        assert.ok(e instanceof OpenAI.RateLimitError);
        assert.equal((e.error as { type: string }).type, "rate_limit_error");
        return true;
      },
    );
    await assert.rejects(
      anthropic.messages.create({ model: "m", max_tokens: 2, messages: [{ role: "user", content: "x" }] }),
      (e: unknown) => {
        assert.ok(e instanceof Anthropic.RateLimitError);
        assert.equal((e.error as { error: { type: string } }).error.type, "rate_limit_error");
        return true;
      },
    );
    assert.equal(await metric(endpoint.url, "cts_queue_rejected_total"), 2);

    controller.abort();
    await running.return?.();
    // the queued request gets the slot once the aborted generation has stopped
    assert.equal((await queued).choices[0].message.role, "assistant");
    await until(async () => (await metric(endpoint.url, 'cts_generations_total{api="openai",finish="abort"}')) === aborted + 1);
    // it stopped early: far fewer tokens than the 3500 it asked for
    assert.ok((await metric(endpoint.url, "cts_generated_tokens_total")) - generated < 3000);
  });

  test("a client that leaves while queued gives up its place", async () => {
    const controller = new AbortController();
    const running = await occupy(controller);
    const leaving = new AbortController();
    const queued = anthropic.messages.create(
      { model: "m", max_tokens: 2, messages: [{ role: "user", content: "x" }] },
      { signal: leaving.signal },
    );
    await until(async () => (await metric(endpoint.url, "cts_queue_waiting")) === 1);
    leaving.abort();
    await assert.rejects(queued);
    await until(async () => (await metric(endpoint.url, "cts_queue_waiting")) === 0);
    controller.abort();
    await running.return?.();
    await until(async () => (await metric(endpoint.url, "cts_queue_active")) === 0);
  });
});
