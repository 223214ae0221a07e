// native/endpoint's entrance: the `serve` subcommand and what the editor's endpoint manager reads of it.
export { serveCommand, help as serveHelp } from "./serve";
export type { TemplateEvent } from "./llama/templateSource";
export { openLocalEndpoint, type LocalEndpoint } from "./localEndpoint";
