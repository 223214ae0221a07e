// Runs many `chat-template` commands in one process, as the built CLI's entry point runs one: `main` with the
// process's output, an exception escaping it an internal error (exit 70, its stack on stderr). Used where a suite
// runs hundreds of quick commands and starting a process for each would cost most of its time. Usage:
//   node cliBatch.cjs dist/cli.js COMMANDS.json    (a JSON list of argument lists)
// Writes one JSON line per command to stdout, as each ends: status, stdout (its length, and its first MiB),
// stderr and the CPU time it took. A command that takes the process down ends the lines there.
const { readFileSync, writeSync } = require("node:fs");

const HEAD = 1 << 20;
const { main } = require(require("node:path").resolve(process.argv[2]));
const commands = JSON.parse(readFileSync(process.argv[3], "utf8"));

(async () => {
  for (const args of commands) {
    const out = [];
    let err = "";
    const io = {
      stdout: (s) => out.push(typeof s === "string" ? s : Buffer.from(s).toString("utf8")),
      stderr: (s) => (err += s),
    };
    const cpu = process.cpuUsage();
    let status;
    try {
      status = await main(args, io);
    } catch (e) {
      status = 70;
      err += `chat-template: internal error: ${(e && e.stack) || e}\n`;
    }
    const used = process.cpuUsage(cpu);
    const stdout = out.join("");
    const line = {
      status,
      stdoutLength: stdout.length,
      stdout: stdout.slice(0, HEAD),
      stderr: err,
      cpuMs: Math.round((used.user + used.system) / 1000),
    };
    writeSync(1, JSON.stringify(line) + "\n");
  }
})();
