// native/cli's entrance: the subcommands `chat-template` registers (make-test-models, bench, install-cuda).
export { benchCommand, usage as benchUsage } from "./bench";
export { installCudaCommand, usage as installCudaUsage } from "./installCuda";
export { makeTestModelsCommand, usage as makeTestModelsUsage } from "./makeTestModels";
