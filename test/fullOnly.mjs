// The suites `npm test` leaves out and `npm run test:full` runs (test/run.mjs): catalogues and corpora pushed through
// every engine, real engines and child processes. Chosen by each file's time, its top-level tests' durations summed
// by a reporter over a quiet `node test/run.mjs` on the 2-core machine (templateGuard 126 s, packaging 65 s,
// llamaCppCrashers 40 s, peerSuites 17 s in full runs; hostileDocuments 74 s, valueBounds 28 s, differential 24 s,
// adaptiveDraft 24 s, formatHostile 23 s, fixCorpus 16 s, formatPerturbed 15 s, formatCorpus 15 s, cppBench 11 s
// in `npm test`'s, which took 11 min 23 s with them, over issue 29's 10 minutes for the whole command).
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
  "unit/lsp/hostileDocuments.test.ts", // the language server on documents of up to 8 MB
  "unit/interpreter/valueBounds.test.ts", // the hostile catalogue's value bombs in every engine
  "unit/interpreter/differential.test.ts", // random templates against Python's jinja2
  "unit/native/adaptiveDraft.test.ts", // long generations under the adaptive draft length
  "unit/services/formatHostile.test.ts", // the formatter over the hostile catalogue, proved in every engine
  "unit/analysis/fixCorpus.test.ts", // fix on corpus templates, checked in Python's jinja2
  "unit/services/formatPerturbed.test.ts", // the formatter on reshuffled corpus whitespace, proved in every engine
  "unit/services/formatCorpus.test.ts", // the formatter over the whole corpus, proved in every engine
  "unit/native/cppBench.test.ts", // builds and runs the C++ bench's model generator
];
