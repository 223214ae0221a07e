// A helper process's reporting thread (bundled as dist/renderProgress.js, started by reportProgress.ts): every
// 50 ms, when the watched text's render position changed, writes it to the pipe to the parent, with a synchronous
// write, so that what the parent last received is where the template was when the process died (the thread dies
// with it: an exhausted heap or a V8 abort leaves no time to report anything).
import { writeSync } from "node:fs";
import { workerData } from "node:worker_threads";
import { readRenderProgress } from "./renderProgress";
import type { ProgressReporting } from "./reportProgress";

const { buffer, fd } = workerData as ProgressReporting;
let last = "";
const timer = setInterval(() => {
  const p = readRenderProgress(buffer);
  if (!p || p.tag === 0) return;
  const line = `${p.tag} ${p.start} ${p.end}\n`;
  if (line === last) return;
  last = line;
  try {
    writeSync(fd, line);
  } catch {
    // the parent closed the pipe: it is gone, and this process ends when it sees its input close
    clearInterval(timer);
  }
}, 50);
