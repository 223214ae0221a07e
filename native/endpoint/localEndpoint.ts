// The endpoint inside the calling process, on a free loopback port: the same server, model host and request path as
// `chat-template serve`, for a client in the same process (the agent-session bench) that measures what a real client
// would see. Closing it stops the server and unloads the model.
import type { AddressInfo } from "node:net";
import { processGuard } from "../../server/src/guard";
import { setTemplateGuard } from "../engine";
import { ensureDemoModels } from "../testModels";
import { parseServeArgs } from "./config";
import { Metrics } from "./llama/metrics";
import { ModelHost } from "./llama/model";
import { PromptHistory } from "./chat/promptHistory";
import { GenerationQueue } from "./llama/queue";
import { createEndpointServer } from "./http/server";
import type { Services } from "./services";
import { templateName } from "./llama/templateSource";

export interface LocalEndpoint {
  url: string;
  model: string;
  /** The served template: the file given, or the model's. */
  template: string;
  close(): Promise<void>;
}

/** `args`: `chat-template serve` flags (the port and host are chosen here). Rejects when the model or template fails. */
export async function openLocalEndpoint(args: string[], log: (line: string) => void): Promise<LocalEndpoint> {
  const config = parseServeArgs([...args, "--host", "127.0.0.1", "--port", "0"]);
  // as in `serve`: the engine runs no template the guard has not vouched for
  setTemplateGuard(processGuard);
  const demo = config.target === undefined ? ensureDemoModels() : undefined;
  const files = demo ? { target: demo.target, draft: demo.draft, demo: demo.description } : { target: config.target!, draft: config.draft };
  const model = new ModelHost(files, config);
  let templateError: string | undefined;
  let template = "the model's";
  await model.load((t) => {
    if (t.status === "error") templateError = `chat template ${templateName(t)} not used: ${t.message}`;
    else template = templateName(t);
  });
  const fail = model.status.state === "error" ? model.status.message : templateError;
  if (fail !== undefined) {
    await model.close();
    throw new Error(fail);
  }
  const services: Services = {
    config,
    model,
    queue: new GenerationQueue(config.maxQueue),
    metrics: new Metrics(),
    promptHistory: new PromptHistory(),
    log,
  };
  const server = createEndpointServer(services);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    model: model.id,
    template,
    close: async () => {
      server.close();
      server.closeAllConnections();
      await model.close();
    },
  };
}
