// The CLI's entrance: `main.ts` is also the process entry (bundled as dist/cli.js); `main` runs one command line.
export { main } from "./main";
