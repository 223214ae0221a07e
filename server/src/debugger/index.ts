// The chat-template debugger's entrance: the Debug Adapter Protocol session (run it over stdio with
// `chat-template debug-adapter`, or in process), and its launch attributes.
export { ChatTemplateDebugSession } from "./adapter";
export type { LaunchArguments } from "./launch";
