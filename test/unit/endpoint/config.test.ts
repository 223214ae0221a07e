// chat-template serve's flags.
import assert from "node:assert/strict";
import { test } from "node:test";
import { UsageError } from "../../../server/src/commandLine/args";
import { API_KEY_ENV, isLoopback, parseServeArgs } from "../../../native/endpoint/config";

const parse = (args: string[], env: NodeJS.ProcessEnv = {}) => parseServeArgs(args, env);

test("defaults: loopback, port 8080, no key, the demo pair, context 4096, 8 GiB of prompt cache, a keep-alive every 30 s, a wait list of 16", () => {
  assert.deepEqual(parse([]), {
    target: undefined,
    draft: undefined,
    chatTemplateFile: undefined,
    chatTemplateMirrorOf: undefined,
    host: "127.0.0.1",
    port: 8080,
    apiKey: undefined,
    allowedOrigins: [],
    contextSize: 4096,
    gpuLayers: undefined,
    threads: undefined,
    draftMax: undefined,
    draftAdaptive: true,
    draftWindow: undefined,
    cacheRamMiB: 8192,
    ssePingSeconds: 30,
    maxTokensOverflow: "clamp",
    maxQueue: 16,
    modelName: undefined,
    keepClientBillingHeader: false,
    verbose: false,
    exitOnStdinClose: false,
  });
});

test("every flag", () => {
  const c = parse([
    "--target",
    "t.gguf",
    "--draft",
    "d.gguf",
    "--chat-template-file",
    "x.jinja",
    "--chat-template-mirror-of",
    "/ws/chat_template.jinja",
    "--host",
    "::1",
    "--port",
    "0",
    "--api-key",
    "k",
    "--allowed-origins",
    "https://a.example",
    "--context",
    "8192",
    "--gpu-layers",
    "-1",
    "--threads",
    "4",
    "--draft-max",
    "8",
    "--draft-adaptive",
    "off",
    "--draft-window",
    "2048",
    "--cache-ram",
    "0",
    "--sse-ping-interval",
    "0.5",
    "--max-tokens-overflow",
    "reject",
    "--queue",
    "0",
    "--model-name",
    "mine",
    "--keep-client-billing-header",
    "--verbose",
    "--exit-on-stdin-close",
  ]);
  assert.deepEqual(c, {
    target: "t.gguf",
    draft: "d.gguf",
    chatTemplateFile: "x.jinja",
    chatTemplateMirrorOf: "/ws/chat_template.jinja",
    host: "::1",
    port: 0,
    apiKey: "k",
    allowedOrigins: ["https://a.example"],
    contextSize: 8192,
    gpuLayers: -1,
    threads: 4,
    draftMax: 8,
    draftAdaptive: false,
    draftWindow: 2048,
    cacheRamMiB: 0,
    ssePingSeconds: 0.5,
    maxTokensOverflow: "reject",
    maxQueue: 0,
    modelName: "mine",
    keepClientBillingHeader: true,
    verbose: true,
    exitOnStdinClose: true,
  });
});

test("a non-loopback host needs an API key, from the flag or the environment", () => {
  assert.throws(
    () => parse(["--host", "0.0.0.0"]),
    (e: unknown) => e instanceof UsageError && /needs an API key/.test(e.message),
  );
  assert.throws(() => parse(["--host", "192.168.1.5"]), UsageError);
  assert.equal(parse(["--host", "0.0.0.0", "--api-key", "k"]).apiKey, "k");
  assert.equal(parse(["--host", "0.0.0.0"], { [API_KEY_ENV]: "from-env" }).apiKey, "from-env");
  assert.equal(parse(["--host", "localhost"]).apiKey, undefined);
});

test("usage errors: a draft without a target, a mirror without the file it names, bad numbers, hosts that are not addresses, empty keys, positionals", () => {
  for (const args of [
    ["--draft", "d.gguf"],
    ["--chat-template-mirror-of", "a.jinja"],
    ["--port", "70000"],
    ["--port", "x"],
    ["--context", "12"],
    ["--threads", "0"],
    ["--draft-max", "0"],
    ["--draft-adaptive", "yes"],
    ["--draft-window", "0"],
    ["--cache-ram", "-1"],
    ["--sse-ping-interval", "0"],
    ["--sse-ping-interval", "x"],
    ["--max-tokens-overflow", "cut"],
    ["--host", "example.com"],
    ["--api-key", " "],
    ["model.gguf"],
    ["--bogus"],
  ]) {
    assert.throws(() => parse(args), UsageError, args.join(" "));
  }
});

test("--sse-ping-interval -1 sends no keep-alive comments (llama-server's value)", () => {
  assert.equal(parse(["--sse-ping-interval", "-1"]).ssePingSeconds, -1);
});

test("isLoopback", () => {
  for (const h of ["127.0.0.1", "127.1.2.3", "::1", "localhost"]) assert.ok(isLoopback(h), h);
  for (const h of ["0.0.0.0", "10.0.0.1", "::", "::ffff:127.0.0.1"]) assert.ok(!isLoopback(h), h);
});
