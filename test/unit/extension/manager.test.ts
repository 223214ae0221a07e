// The endpoint lifecycle manager with a real endpoint process on the demo models: start, health, crash →
// restart with backoff, giving up, stop, and no orphan when the extension host goes away.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { backoffDelay, EndpointManager, type EndpointState, type LaunchSpec } from "../../../client/src/endpoint/manager";
import { ENDPOINT, storageDir, until } from "../../helpers/endpoint";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";

const spec = (args: string[] = []): LaunchSpec => ({
  command: process.execPath,
  args: [ENDPOINT, "--port", "0", "--threads", "1", ...args],
  env: { ...process.env, CTS_STORAGE_DIR: storageDir },
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Until the process has gone: however long a loaded machine takes; a process that stays hits the hang guard. */
async function gone(pid: number): Promise<void> {
  await until(async () => !alive(pid));
}

function manager(backoff = { initialMs: 100, maxMs: 400, maxRestarts: 3, stableMs: 60_000 }) {
  const log: string[] = [];
  const states: EndpointState[] = [];
  const m = new EndpointManager({ log: (l) => log.push(l), backoff, healthPollMs: 20, stopTimeoutMs: 5000 });
  m.onState((s) => states.push(s));
  managers.push(m);
  return { m, log, states };
}
const managers: EndpointManager[] = [];
after(() => Promise.all(managers.map((m) => m.stop())));

/** The next state of this kind (at once when it is the current one). */
function next(m: EndpointManager, kind: EndpointState["kind"]): Promise<EndpointState> {
  if (m.state.kind === kind) return Promise.resolve(m.state);
  return new Promise((resolve) => {
    const sub = m.onState((s) => {
      if (s.kind !== kind) return;
      sub.dispose();
      resolve(s);
    });
  });
}

describe("endpoint manager", { timeout: HANG_GUARD_MS }, () => {
  test("start: starting, loading, then ready with the URL; /health answers 200; stop leaves no process", async () => {
    const { m, states, log } = manager();
    const s = await m.start(spec());
    assert.equal(s.kind, "ready");
    assert.ok(s.kind === "ready");
    assert.deepEqual(
      states.map((x) => x.kind).filter((k, i, a) => a.indexOf(k) === i),
      ["starting", "loading", "ready"],
    );
    assert.equal(s.model, "demo-random");
    assert.equal(s.demo, true);
    assert.equal(s.draft, "random test draft");
    assert.equal((await fetch(`${s.url}/health`)).status, 200);
    assert.ok(
      log.some((l) => l.includes("listening on")),
      "the child's stderr goes to the log",
    );
    // and with it one line per request (the output channel shows what each request did)
    await fetch(`${s.url}/v1/models`);
    // a request's line reaches the log
    await until(async () => log.some((l) => l.includes("GET /v1/models 200 in ")));
    // a second start while it runs is the same process
    assert.equal((await m.start(spec())).kind, "ready");
    assert.equal(m.pid, s.pid);
    await m.stop();
    assert.equal(m.state.kind, "stopped");
    assert.equal(m.pid, null);
    await gone(s.pid);
    await assert.rejects(fetch(`${s.url}/health`));
  });

  test("a crash restarts it after the backoff delay, as a new process that gets ready again", async () => {
    const { m, states } = manager();
    const first = await m.start(spec());
    assert.ok(first.kind === "ready");
    process.kill(first.pid, "SIGKILL");
    const restarting = await next(m, "restarting");
    assert.deepEqual(restarting.kind === "restarting" && [restarting.attempt, restarting.delayMs], [1, 100]);
    assert.match(restarting.kind === "restarting" ? restarting.reason : "", /killed by SIGKILL/);
    const again = await next(m, "ready");
    assert.ok(again.kind === "ready");
    assert.notEqual(again.pid, first.pid);
    assert.equal((await fetch(`${again.url}/health`)).status, 200);
    // the second crash in a row waits twice as long
    process.kill(again.pid, "SIGKILL");
    const second = await next(m, "restarting");
    assert.deepEqual(second.kind === "restarting" && [second.attempt, second.delayMs], [2, 200]);
    await next(m, "ready");
    assert.ok(states.filter((s) => s.kind === "ready").length >= 3);
    await m.stop();
  });

  test("it gives up after maxRestarts crashes in a row, with the reason", async () => {
    const { m } = manager({ initialMs: 10, maxMs: 20, maxRestarts: 2, stableMs: 60_000 });
    await m.start(spec());
    for (let i = 0; i < 3; i++) {
      const s = await next(m, "ready");
      process.kill((s as { pid: number }).pid, "SIGKILL");
      if (i < 2) await next(m, "restarting");
    }
    const failed = await next(m, "failed");
    assert.match(failed.kind === "failed" ? failed.message : "", /killed by SIGKILL.*gave up after 2 restarts/);
    assert.equal(m.pid, null);
  });

  test("a run that stayed up past stableMs resets the count", async () => {
    const { m } = manager({ initialMs: 50, maxMs: 1000, maxRestarts: 5, stableMs: 0 });
    await m.start(spec());
    for (let i = 0; i < 2; i++) {
      const s = await next(m, "ready");
      process.kill((s as { pid: number }).pid, "SIGKILL");
      const r = await next(m, "restarting");
      assert.equal(r.kind === "restarting" && r.attempt, 1);
    }
    await m.stop();
  });

  test("stop during the backoff wait cancels the restart", async () => {
    const { m } = manager({ initialMs: 5000, maxMs: 5000, maxRestarts: 3, stableMs: 60_000 });
    const s = await m.start(spec());
    process.kill((s as { pid: number }).pid, "SIGKILL");
    await next(m, "restarting");
    await m.stop();
    assert.equal(m.state.kind, "stopped");
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(m.pid, null);
  });

  test("refused arguments or a missing model: failed with the endpoint's message, not restarted", async () => {
    const { m, states } = manager();
    const s = await m.start(spec(["--target", join(storageDir, "missing.gguf")]));
    assert.equal(s.kind, "failed");
    assert.match(s.kind === "failed" ? s.message : "", /exited with code 1: .*model file not found/);
    assert.ok(!states.some((x) => x.kind === "restarting"));
    const usage = await m.start(spec(["--context", "x"]));
    assert.match(usage.kind === "failed" ? usage.message : "", /exited with code 2: .*--context must be an integer/);
  });

  test("a model that fails to load: failed with the loader's reason, and the process is stopped", async () => {
    const { m, states } = manager();
    const bad = join(storageDir, "corrupt.gguf");
    writeFileSync(bad, "GGUF but not really");
    const s = await m.start(spec(["--target", bad]));
    assert.equal(s.kind, "failed");
    const loading = states.find((x) => x.kind === "loading");
    assert.ok(loading, "it got as far as listening");
    await until(async () => m.pid === null);
    assert.ok(!states.some((x) => x.kind === "restarting"));
  });

  test("a command that cannot be run: failed at once", async () => {
    const { m } = manager();
    const s = await m.start({ command: join(storageDir, "no-such-node"), args: [] });
    assert.match(s.kind === "failed" ? s.message : "", /cannot start .*no-such-node: .*ENOENT/);
  });

  test("while loading, the progress is read from /health", async () => {
    // the demo models load too fast to watch: a process that speaks the endpoint's protocol and loads slowly
    const slow = `
      const http = require("node:http");
      let progress = 0;
      const server = http.createServer((req, res) => res.writeHead(503).end(JSON.stringify({ status: "loading", stage: "target", progress })));
      server.listen(0, "127.0.0.1", () => {
        const url = "http://127.0.0.1:" + server.address().port;
        console.log(JSON.stringify({ event: "listening", url, model: "slow" }));
        const t = setInterval(() => {
          progress += 0.25;
          if (progress >= 1) { clearInterval(t); console.log(JSON.stringify({ event: "ready", url, model: "slow", backend: "cpu", contextSize: 64, draft: null })); }
        }, 60);
      });
      process.stdin.on("end", () => process.exit(0)).resume();
      process.on("SIGTERM", () => process.exit(0));`;
    const { m, states } = manager();
    const s = await m.start({ command: process.execPath, args: ["-e", slow, "--"] });
    assert.equal(s.kind, "ready");
    const seen = states.flatMap((x) => (x.kind === "loading" ? [x.progress] : []));
    assert.equal(seen[0], 0);
    assert.ok(
      seen.some((p) => p > 0 && p < 1),
      `progress seen: ${seen}`,
    );
    assert.deepEqual([...seen].sort(), seen, "it only grows");
    await m.stop();
  });

  test("setMirrorOf: the running endpoint is told on its stdin, and so is each restart", async () => {
    // a process that speaks the endpoint's protocol, answers each stdin line with a template event and
    // dies the first time it is told the name "die" (a crash after listening: the manager restarts it)
    const died = join(storageDir, "mirror-echo-died");
    const echo = `
      const http = require("node:http");
      const server = http.createServer((req, res) => res.end("{}"));
      server.listen(0, "127.0.0.1", () => {
        const url = "http://127.0.0.1:" + server.address().port;
        console.log(JSON.stringify({ event: "listening", url, model: "echo" }));
        console.log(JSON.stringify({ event: "ready", url, model: "echo", backend: "cpu", contextSize: 64, draft: null }));
      });
      require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
        const name = JSON.parse(line).chatTemplateMirrorOf;
        console.log(JSON.stringify({ event: "template", status: "loaded", path: "copy", mirrorOf: name }));
        if (name === "die" && !require("node:fs").existsSync(${JSON.stringify(died)})) {
          require("node:fs").writeFileSync(${JSON.stringify(died)}, "");
          setTimeout(() => process.exit(1), 50);
        }
      });
      process.stdin.on("end", () => process.exit(0));
      process.on("SIGTERM", () => process.exit(0));`;
    const { m } = manager();
    const names: (string | undefined)[] = [];
    m.onTemplate((e) => names.push(e.mirrorOf));
    const told = async (n: number) => {
      await until(async () => names.length >= n);
    };
    assert.equal((await m.start({ command: process.execPath, args: ["-e", echo, "--"] })).kind, "ready");
    m.setMirrorOf("/ws/a.jinja");
    await told(1);
    m.setMirrorOf("die");
    await told(2);
    await next(m, "restarting");
    await next(m, "ready");
    await told(3);
    assert.deepEqual(names, ["/ws/a.jinja", "die", "die"], "the restart was told the last name");
    await m.stop();
    names.length = 0;
    // a new start takes its name from its arguments
    assert.equal((await m.start({ command: process.execPath, args: ["-e", echo, "--"] })).kind, "ready");
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(names, []);
    await m.stop();
  });

  test("no orphan: when the process holding the manager is killed, the endpoint exits too", async () => {
    // a stand-in for the extension host: it starts the endpoint through the manager and prints its pid
    const script = `
      const { EndpointManager } = require(${JSON.stringify(join(__dirname, "../../../client/src/endpoint/manager.ts"))});
      const m = new EndpointManager({ log() {} });
      m.start(${JSON.stringify(spec())}).then((s) => console.log(JSON.stringify(s)));`;
    const host = spawn(process.execPath, ["--import", "tsx", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    const line = await new Promise<string>((resolve) => host.stdout.once("data", (d: Buffer) => resolve(d.toString())));
    const s = JSON.parse(line) as { kind: string; pid: number };
    assert.equal(s.kind, "ready");
    assert.ok(alive(s.pid));
    host.kill("SIGKILL");
    await gone(s.pid);
  });
});

test("backoff doubles from the initial delay up to the maximum", () => {
  const b = { initialMs: 1000, maxMs: 30_000, maxRestarts: 5, stableMs: 60_000 };
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(b, n)),
    [1000, 2000, 4000, 8000, 16000, 30000, 30000],
  );
});
