// The tests' line to the code-server driver (test/e2e/driver/browserChannel.ts), which answers on
// CHAT_TEMPLATE_E2E_DRIVER: browser-level checks (what only the page shows) and the suite's report.
// Under @vscode/test-electron there is no driver: browser-level tests skip and the report goes to the console.
import { format } from "node:util";

const channel = process.env.CHAT_TEMPLATE_E2E_DRIVER;

export const hasBrowser = channel !== undefined;

async function call<T>(name: string, body: object): Promise<T> {
  if (!channel) throw new Error("no e2e driver (CHAT_TEMPLATE_E2E_DRIVER is not set)");
  const res = await fetch(`${channel}/${name}`, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`driver ${name}: ${await res.text()}`);
  return (await res.json()) as T;
}

// innerText of each element matching `selector`, across the workbench and its webview frames.
export async function texts(selector: string): Promise<string[]> {
  return (await call<{ texts: string[] }>("texts", { selector })).texts;
}

// Polls until `accept` holds for the texts of `selector`; returns the texts it accepted.
export async function waitForTexts(selector: string, accept: (texts: string[]) => boolean, timeoutMs = 10_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await texts(selector);
    if (accept(found)) return found;
    if (Date.now() > deadline) throw new Error(`"${selector}" never matched; last texts: ${JSON.stringify(found)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

// Saves test-output/e2e/<name>.png.
export async function screenshot(name: string): Promise<void> {
  await call("screenshot", { name });
}

// A console.log for the test report: the web workbench would log the extension host's console unformatted,
// among its own messages, so the lines go to the driver's stdout instead, in order.
let printed = Promise.resolve();
export function print(...args: unknown[]): void {
  const line = format(...args);
  if (!channel) return console.log(line);
  printed = printed.then(() => call("print", { line })).then(() => undefined);
}

export async function reportResult(result: { passed: number; failed: number; pending: number }): Promise<void> {
  await printed;
  if (channel) await call("result", result);
}
