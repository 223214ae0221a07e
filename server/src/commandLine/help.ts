// What `chat-template COMMAND --help` prints. Each command keeps its help next to its code, as data, so the
// text and the flags it documents change together; this file only lays it out.
export interface CommandHelp {
  /** The synopsis line, also printed after a usage error. */
  usage: string;
  /** One line for the top-level command list. */
  summary: string;
  /** One paragraph: what the command does and what it prints. */
  description: string;
  /** [flag with its value, what it does]. */
  options: readonly (readonly [string, string])[];
  /** Command lines a user can copy. */
  examples: readonly string[];
  /** [status, when]. */
  exitCodes: readonly (readonly [number, string])[];
}

const WIDTH = 100;

function wrap(text: string, indent: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join("\n");
}

/** A two-column list: terms padded to the widest (up to a limit), descriptions wrapped under their column. */
function table(rows: readonly (readonly [string, string])[]): string {
  const col = Math.min(28, Math.max(...rows.map(([t]) => t.length)) + 2);
  return rows
    .map(([term, text]) => {
      const pad = " ".repeat(col + 2);
      const body = wrap(text, pad).slice(pad.length);
      return term.length + 2 <= col ? `  ${term.padEnd(col)}${body}` : `  ${term}\n${pad}${body}`;
    })
    .join("\n");
}

export function formatHelp(help: CommandHelp): string {
  const parts = [`usage: ${help.usage}`, wrap(help.description, "")];
  if (help.options.length) parts.push("options:\n" + table(help.options));
  parts.push("examples:\n" + help.examples.map((e) => `  ${e}`).join("\n"));
  parts.push("exit status:\n" + table(help.exitCodes.map(([code, when]) => [String(code), when] as const)));
  return parts.join("\n\n") + "\n";
}

/** The top-level help: one line per command. */
export function formatCommandList(commands: Readonly<Record<string, CommandHelp>>): string {
  return (
    [
      "usage: chat-template COMMAND [OPTIONS]",
      "",
      "commands:",
      table(Object.entries(commands).map(([name, h]) => [name, h.summary] as const)),
      "",
      "chat-template COMMAND --help tells what a command does, its options, examples and exit codes.",
      "chat-template --version prints the version.",
    ].join("\n") + "\n"
  );
}

/** Whether argv asks for help: `--help` or `-h` before any `--`. */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === "--help" || a === "-h");
}
