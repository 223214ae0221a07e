// The chat-template debugger's entrance: the Debug Adapter Protocol session (run it over stdio with
// `chat-template debug-adapter`, or in process), and its launch attributes.
export { ChatTemplateDebugSession, OUTPUT_EVENT } from "./adapter";
export type { OutputSoFar } from "./adapter";
export type { LaunchArguments } from "./launch";
