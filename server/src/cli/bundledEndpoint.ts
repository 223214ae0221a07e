// Without --endpoint, `ab` runs on the bundled endpoint: this command's own `serve`, on its demo models,
// started on a free loopback port for the run and stopped after it (its stdin pipe takes it down if this
// process dies first).
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { UsageError } from "../commandLine";

export interface BundledEndpoint {
  url: string;
  stop(): void;
}

/** Loading the demo (generated on first use) takes seconds; a process silent this long is not coming up. */
const START_TIMEOUT_MS = 300_000;

export function startBundledEndpoint(): Promise<BundledEndpoint> {
  const child = spawn(process.execPath, [process.argv[1], "serve", "--port", "0", "--exit-on-stdin-close"], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const stop = () => {
    if (child.exitCode === null) child.kill("SIGTERM");
  };
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      stop();
      reject(new UsageError(`the bundled endpoint did not start: ${why}`));
    };
    const timer = setTimeout(() => fail(`no model after ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    child.on("exit", (code) => fail(`it exited (${code}): ${stderr.trim().split("\n").pop() ?? ""}`));
    let url = "";
    createInterface({ input: child.stdout }).on("line", (line) => {
      let e: { event?: string; url?: string; message?: string };
      try {
        e = JSON.parse(line);
      } catch {
        return;
      }
      if (e.event === "listening") url = e.url ?? "";
      if (e.event === "error") fail(e.message ?? "the model did not load");
      if (e.event === "ready") {
        clearTimeout(timer);
        child.removeAllListeners("exit");
        resolve({ url: e.url ?? url, stop });
      }
    });
  });
}
