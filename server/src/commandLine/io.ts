// What a CLI command may touch besides files: its output streams. Commands return their exit code.
export interface CommandIO {
  stdout(s: string | Uint8Array): void;
  stderr(s: string): void;
  /** stderr is a terminal: progress lines may be drawn there (progress.ts). */
  stderrIsTTY?: boolean;
}

export const processIO: CommandIO = {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
  stderrIsTTY: process.stderr.isTTY === true,
};
