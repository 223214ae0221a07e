// One flag value that holds a command line of its own (`--llama-server-args "--reasoning off
// --chat-template-kwargs '{\"a\": 1}'"`), split into words as a POSIX shell does: blanks separate, single
// quotes keep everything, double quotes keep all but `\"` and `\\`, a backslash outside quotes escapes.
import { UsageError } from "./args";

export function shellWords(flag: string, line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === "\\" && (line[i + 1] === '"' || line[i + 1] === "\\")) word += line[++i];
      else word += c;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\" && i + 1 < line.length) {
      word = (word ?? "") + line[++i];
    } else {
      word = (word ?? "") + c;
    }
  }
  if (quote) throw new UsageError(`--${flag}: unterminated ${quote === "'" ? "single" : "double"} quote`);
  if (word !== null) words.push(word);
  return words;
}
