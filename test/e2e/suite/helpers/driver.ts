// The tests' line to the code-server driver (test/e2e/driver/browserChannel.ts), which answers on
// CHAT_TEMPLATE_E2E_DRIVER: browser-level checks (what only the page shows) and the suite's report.
// Under @vscode/test-electron there is no driver: browser-level tests skip and the report goes to the console.
import { format } from "node:util";
import { poll } from "./wait";

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
export function waitForTexts(selector: string, accept: (texts: string[]) => boolean, timeoutMs = 10_000): Promise<string[]> {
  return poll(() => texts(selector), accept, `"${selector}"`, timeoutMs);
}

export interface PageElement {
  // textContent: the exact characters, where innerText would follow the layout
  text: string;
  attributes: Record<string, string | null>;
}

// textContent and the named attributes of each element matching `selector`, across the workbench and its webview frames.
export async function elements(selector: string, attributes: string[] = []): Promise<PageElement[]> {
  return (await call<{ elements: PageElement[] }>("elements", { selector, attributes })).elements;
}

// Polls until `accept` holds for the elements of `selector`; returns the elements it accepted.
export function waitForElements(
  selector: string,
  attributes: string[],
  accept: (found: PageElement[]) => boolean,
  timeoutMs = 10_000,
): Promise<PageElement[]> {
  return poll(() => elements(selector, attributes), accept, `"${selector}"`, timeoutMs);
}

// A mouse click on the first element matching `selector` (it must be in exactly one frame).
export async function click(selector: string): Promise<void> {
  await call("click", { selector });
}

// Chooses `value` in the <select> matching `selector`, as a user would.
export async function selectOption(selector: string, value: string): Promise<void> {
  await call("select", { selector, value });
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
