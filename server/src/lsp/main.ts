// Entry point of the language server process (stdio or node IPC, as the client chooses).
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import { startServer } from "./server";

startServer(createConnection(ProposedFeatures.all));
