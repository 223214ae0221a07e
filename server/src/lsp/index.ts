// The language server's entrance: `main.ts` (the process entry, bundled as dist/server.js) starts it on a
// connection; tests start it on their own.
export { startServer } from "./server";
