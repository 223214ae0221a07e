// Preloaded (node -r) into a child process whose cost a test bounds: at exit it writes, as JSON to file
// descriptor 3 (a pipe the test opened), its peak resident set in kilobytes and the CPU time it used in
// milliseconds. A process V8 aborts writes nothing.
const { writeSync } = require("node:fs");

process.on("exit", () => {
  const u = process.resourceUsage();
  try {
    writeSync(3, JSON.stringify({ maxRssKb: u.maxRSS, cpuMs: Math.round((u.userCPUTime + u.systemCPUTime) / 1000) }));
  } catch {
    // no pipe on fd 3: not started by boundedNode
  }
});
