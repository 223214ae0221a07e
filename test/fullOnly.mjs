// The suites `npm test` leaves out and `npm run test:full` runs (test/run.mjs): catalogues and corpora pushed through
// every engine, real engines and child processes. Chosen from the spec reporter's per-suite durations in full runs'
// logs (templateGuard 126 s, packaging 65 s, llamaCppCrashers 40 s, peerSuites 17 s on the loaded 2-core machine)
// and, for the catalogue and corpus suites no log reached yet, from what they run; a full run's log keeps it current.
export const FULL_ONLY = [
  "unit/cli/hostileRender.test.ts", // the hostile catalogue through every engine, one child process per render
  "unit/endpoint/hostileTemplates.test.ts", // the hostile catalogue through the endpoint's /chat/parse and a served file
  "unit/native/templateGuard.test.ts", // the guard's process on runaway templates
  "unit/lsp/fuzz.test.ts", // 2,000 mutated corpus templates through the language server
  "unit/native/llamaServerCorpus.test.ts", // 56 corpus templates × 14 scenarios through llama.cpp's real chat layer
  "unit/endpoint/forcedToolCalls.test.ts", // every tool-capable corpus template in each forced tool mode
  "unit/native/llamaCppCrashers.test.ts", // the real engine crashing in child processes
  "unit/conformance/peerSuites.test.ts", // the engines' own upstream test suites
  "unit/packaging/contents.test.ts", // builds both .vsix packages
];
