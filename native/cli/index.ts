// native/cli's entrance: the subcommands `chat-template` registers (make-test-models, bench, install-cuda).
export { benchCommand, help as benchHelp } from "./bench";
export { installCudaCommand, help as installCudaHelp } from "./installCuda";
export { makeTestModelsCommand, help as makeTestModelsHelp } from "./makeTestModels";
