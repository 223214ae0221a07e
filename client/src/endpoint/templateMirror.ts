// The served copy of the template being edited: the bundled endpoint serves --chat-template-file and
// reloads it when it changes, so the editor writes the text here on every edit — never into the user's
// own file, which may be unsaved. Writes are atomic (a temporary file renamed over the copy), so the
// endpoint never reads half a template.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { TemplateEvent } from "./manager";

export class TemplateMirror {
  private text: string | null = null;
  /** A write the endpoint has not answered with a template event yet. */
  private pending = false;
  private last: TemplateEvent | null = null;
  private waiters: (() => void)[] = [];

  constructor(readonly file: string) {}

  /** Writes the text unless it is what the file already holds (the endpoint would not reload it). */
  write(text: string): void {
    if (text === this.text) return;
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, this.file);
    this.text = text;
    this.pending = true;
  }

  /** The endpoint's `template` events for this file. */
  loaded(e: TemplateEvent): void {
    this.last = e;
    this.pending = false;
    for (const w of this.waiters.splice(0)) w();
  }

  /**
   * The endpoint's last word on the file once it has answered the latest write (at most `timeoutMs`):
   * loaded, or refused with why. null when it has said nothing yet.
   */
  async settled(timeoutMs: number): Promise<TemplateEvent | null> {
    if (this.pending) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.last;
  }

  /** A new endpoint process reads the file afresh. */
  reset(): void {
    this.pending = this.text !== null;
    this.last = null;
  }
}
