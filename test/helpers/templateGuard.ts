// The engine runs no template without a guard, which the endpoint installs; tests that use the engine in
// process install the same one by importing this file.
import { setTemplateGuard } from "../../native/engine";
import { processGuard } from "../../server/src/guard";

setTemplateGuard(processGuard);
