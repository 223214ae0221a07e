// Responses kept for `previous_response_id` (those created with store: true): each one's conversation (input
// and output as chat messages, without instructions, which a later response does not inherit), in memory,
// the oldest dropped past a bound: a local endpoint keeps no history on disk, and a restart forgets it.
import { badRequest } from "../http/errors";

/** Responses kept per endpoint; a client chaining responses needs only the last. */
export const STORED_RESPONSES = 256;

export class ResponseStore {
  private readonly conversations = new Map<string, unknown[]>();

  constructor(private readonly limit = STORED_RESPONSES) {}

  save(id: string, conversation: unknown[]): void {
    this.conversations.set(id, conversation);
    for (const oldest of this.conversations.keys()) {
      if (this.conversations.size <= this.limit) break;
      this.conversations.delete(oldest);
    }
  }

  /** The conversation a previous_response_id continues, or a 400 that says why there is none. */
  conversation(id: string): unknown[] {
    const found = this.conversations.get(id);
    if (found) return found;
    throw badRequest(
      `no stored response '${id}': only responses created with store: true are kept, the last ${this.limit}, in memory until the endpoint restarts; send the whole conversation as input instead`,
      ["previous_response_id"],
    );
  }
}

const stores = new WeakMap<object, ResponseStore>();

/** The store of one endpoint (keyed by its services). */
export function storeOf(owner: object): ResponseStore {
  let store = stores.get(owner);
  if (!store) stores.set(owner, (store = new ResponseStore()));
  return store;
}
