// Waiting for what a test expects, never for a fixed time: the machine is small and shared.
import type * as vscode from "vscode";

// Calls `get` until `accept` holds for its result (every 250 ms); rejects after `timeoutMs`, with the last result.
export async function poll<T>(get: () => Promise<T> | T, accept: (found: T) => boolean, what: string, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await get();
    if (accept(found)) return found;
    if (Date.now() > deadline) throw new Error(`${what} never matched; last: ${JSON.stringify(found).slice(0, 4000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

// The first `event` that `accept` holds for; rejects after `timeoutMs`, naming `what` it waited for. Made
// before the action that fires the event; when that action fails first, its rejection is not an unhandled one
// (which the extension host would log as an error).
export function nextEvent<T>(event: vscode.Event<T>, accept: (e: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const next = new Promise<T>((resolve, reject) => {
    const listener = event((e) => {
      if (!accept(e)) return;
      done();
      resolve(e);
    });
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no ${what} in ${timeoutMs / 1000} s`));
    }, timeoutMs);
    const done = () => {
      listener.dispose();
      clearTimeout(timer);
    };
  });
  next.catch(() => undefined);
  return next;
}
