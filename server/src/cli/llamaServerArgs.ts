// `--llama-server-args "FLAGS"` of check and render: the flags the user's llama-server starts with, as one
// shell-quoted string; a flag the llama-server engine cannot read is a usage error naming it.
import { serverStartup, ServerArgsError } from "../analysis";
import { shellWords, UsageError } from "../commandLine";

export const LLAMA_SERVER_ARGS = "llama-server-args";

export function llamaServerArgs(values: ReadonlyMap<string, string>): string[] {
  const line = values.get(LLAMA_SERVER_ARGS);
  if (line === undefined) return [];
  const words = shellWords(LLAMA_SERVER_ARGS, line);
  try {
    serverStartup(words);
  } catch (e) {
    if (e instanceof ServerArgsError) throw new UsageError(`--${LLAMA_SERVER_ARGS}: ${e.message}`);
    throw e;
  }
  return words;
}
