// One generation at a time, the others wait in arrival order; a bounded wait list so that a burst of
// clients gets a fast 429 instead of piling up behind a long generation.
export class QueueFullError extends Error {
  constructor(readonly maxWaiting: number) {
    super(`the endpoint is busy: one request is generating and ${maxWaiting} are waiting; retry later`);
  }
}

export class GenerationQueue {
  private busy = false;
  private readonly waiters: { grant: () => void; fail: (e: Error) => void }[] = [];
  private rejected = 0;

  constructor(readonly maxWaiting: number) {}

  get active(): number {
    return this.busy ? 1 : 0;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  get rejectedTotal(): number {
    return this.rejected;
  }

  /**
   * Resolves with a release function once this request may generate. Rejects with QueueFullError when the
   * wait list is full, and with the signal's reason when the client goes away while waiting. `onAccepted` is
   * called at once when the request gets the slot or a place in the wait list (a stream may then start).
   */
  acquire(signal?: AbortSignal, onAccepted?: () => void): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!this.busy) {
      this.busy = true;
      onAccepted?.();
      return Promise.resolve(this.releaser());
    }
    if (this.waiters.length >= this.maxWaiting) {
      this.rejected++;
      return Promise.reject(new QueueFullError(this.maxWaiting));
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(signal!.reason);
      };
      const waiter = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve(this.releaser());
        },
        fail: reject,
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(waiter);
      onAccepted?.();
    });
  }

  /** Refuses everyone waiting (shutdown); the running generation keeps its slot until it releases. */
  drain(reason: Error): void {
    for (const w of this.waiters.splice(0)) w.fail(reason);
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next.grant();
      else this.busy = false;
    };
  }
}
