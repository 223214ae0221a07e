// Claude Code's `x-anthropic-billing-header: cc_version=…; cc_entrypoint=…; [cch=…;]` system block. It comes first in
// `system` and its value changes between requests, so everything rendered after it would be prefilled again on every
// turn (measured: 45 of 34,751 prompt tokens reused). It says nothing to the model, so it is dropped before rendering
// unless `--keep-client-billing-header` keeps it; each connection that sent one gets one log line.
import type { Socket } from "node:net";
import type { RouteContext } from "../http/route";

export const BILLING_HEADER_PREFIX = "x-anthropic-billing-header:";

type Part = { type: string; text?: unknown };
type Message = { role?: unknown; content?: unknown };

const isBillingText = (t: unknown) => typeof t === "string" && t.trimStart().startsWith(BILLING_HEADER_PREFIX);

/**
 * The converted messages without the system blocks that are billing headers (a system message left empty goes too),
 * and how many blocks were dropped.
 */
export function dropBillingHeaders<M extends Message>(messages: M[]): { messages: M[]; dropped: number } {
  let dropped = 0;
  const kept = messages.flatMap((m) => {
    if (m.role !== "system") return [m];
    if (isBillingText(m.content)) {
      dropped++;
      return [];
    }
    if (!Array.isArray(m.content)) return [m];
    const parts = (m.content as Part[]).filter((p) => !(p?.type === "text" && isBillingText(p.text)));
    dropped += m.content.length - parts.length;
    if (parts.length === m.content.length) return [m];
    return parts.length ? [{ ...m, content: parts }] : [];
  });
  return { messages: kept, dropped };
}

const told = new WeakSet<Socket>();

/** Counts the dropped blocks and says so once per connection (a client keeps its connection across requests). */
export function noteBillingHeadersDropped(ctx: RouteContext, dropped: number): void {
  if (dropped === 0) return;
  ctx.services.metrics.countBillingHeadersDropped(dropped);
  const socket = ctx.req.socket;
  if (told.has(socket)) return;
  told.add(socket);
  ctx.services.log(
    `dropped the client's ${BILLING_HEADER_PREFIX} system block before rendering (it changes every request and would ` +
      `defeat the prompt cache); --keep-client-billing-header keeps it`,
  );
}
