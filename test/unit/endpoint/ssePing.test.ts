// Keep-alive comments on a silent stream (sse.ts), on a stand-in response and node:test's mocked clock: one
// after each silent interval, none while events flow, none after the end; the first one starts the response.
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { test } from "node:test";
import { PING, SseStream } from "../../../native/endpoint/http/sse";

class FakeResponse extends EventEmitter {
  headersSent = false;
  writableEnded = false;
  destroyed = false;
  status = 0;
  chunks: string[] = [];
  writeHead(status: number) {
    this.status = status;
    this.headersSent = true;
  }
  write(text: string) {
    this.chunks.push(text);
  }
  addTrailers() {}
  end() {
    this.writableEnded = true;
  }
}

function stream(pingSeconds: number) {
  const res = new FakeResponse();
  return { res, sse: new SseStream(res as unknown as ServerResponse, pingSeconds) };
}

test("a silent stream gets a comment each interval; the first starts the response", (t) => {
  t.mock.timers.enable({ apis: ["setInterval"] });
  const { res, sse } = stream(30);
  t.mock.timers.tick(29_999);
  assert.equal(res.headersSent, false, "nothing before the first interval: an early error is still a JSON answer");
  t.mock.timers.tick(1);
  assert.equal(res.status, 200);
  assert.deepEqual(res.chunks, [PING]);
  t.mock.timers.tick(60_000);
  assert.deepEqual(res.chunks, [PING, PING, PING]);
  sse.send({ a: 1 });
  sse.end();
  t.mock.timers.tick(120_000);
  assert.deepEqual(res.chunks, [PING, PING, PING, 'data: {"a":1}\n\n'], "none after the end");
});

test("no comment while events flow", (t) => {
  t.mock.timers.enable({ apis: ["setInterval"] });
  const { res, sse } = stream(1);
  for (let i = 0; i < 5; i++) {
    sse.send("x", "e");
    t.mock.timers.tick(1000);
  }
  assert.ok(!res.chunks.includes(PING), res.chunks.join(""));
  t.mock.timers.tick(2000);
  assert.equal(res.chunks.at(-1), PING);
  res.emit("close");
  const n = res.chunks.length;
  t.mock.timers.tick(10_000);
  assert.equal(res.chunks.length, n, "a closed connection stops the timer");
});

test("pingSeconds <= 0: no comments", (t) => {
  t.mock.timers.enable({ apis: ["setInterval"] });
  const { res } = stream(-1);
  t.mock.timers.tick(3_600_000);
  assert.deepEqual(res.chunks, []);
});
