// A status line for long commands, redrawn in place on stderr. Only on a terminal: piped or captured stderr
// (CI logs, scripts) gets none, so what it holds stays the command's messages.
import type { CommandIO } from "./io";

export interface Progress {
  update(text: string): void;
  /** Clears the line, so the next output starts on a clean one. */
  done(): void;
}

const NONE: Progress = { update: () => {}, done: () => {} };

export function progressLine(io: CommandIO, command: string): Progress {
  if (!io.stderrIsTTY) return NONE;
  let shown = false;
  return {
    update(text) {
      io.stderr(`\r\x1b[2K${command}: ${text}`);
      shown = true;
    },
    done() {
      if (shown) io.stderr("\r\x1b[2K");
      shown = false;
    },
  };
}
