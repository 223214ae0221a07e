// The language commands' entrance: the command line's composition root (cli/main.ts) registers them with the
// native ones and dispatches through `dispatch`.
export { dispatch, languageCommands, type Command, type Subcommand } from "./commands";
