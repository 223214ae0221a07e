// The chat template requests are rendered with: the GGUF's own, or a file that is reloaded whenever it
// changes on disk, so that a template being edited is served as soon as it is saved. A reload that fails
// keeps the last good template and reports why; until one loads, chat requests get that error (a 503: the
// server cannot serve chats, and nothing in the request can change that).
//
// The file may be an editor's copy of another (--chat-template-mirror-of: the editor writes it on every
// edit, saved or not); messages then name that file, the one the user edits, and say that it is reloaded
// as it is edited. The name is read from the configuration each time: the editor renames it on stdin.
import { watch, type FSWatcher } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import type { ChatTemplate, Engine } from "../../engine";
import type { ServeConfig } from "../config";
import { ApiError } from "../http/errors";

export interface TemplateState {
  source: "gguf" | "file";
  path: string | null;
  /** Why the file's current text is not being served; null when it is. */
  error: string | null;
  /** Successful loads of the file so far. */
  loads: number;
}

const SETTLE_MS = 50;

/** mirrorOf: the document the file is a copy of (--chat-template-mirror-of). */
export type TemplateEvent = { status: "loaded" | "error"; path: string; mirrorOf?: string; message?: string };

type TemplateConfig = Pick<ServeConfig, "chatTemplateFile" | "chatTemplateMirrorOf">;

/** What a log line or an error calls the template file: the file it mirrors, if any. */
export const templateName = (e: Pick<TemplateEvent, "path" | "mirrorOf">) => e.mirrorOf ?? e.path;

/** What makes a refused template file load: an edit of the file it mirrors, or a save. */
export const reloadAdvice = (e: Pick<TemplateEvent, "mirrorOf">) =>
  e.mirrorOf === undefined ? "fix it and save, it is reloaded automatically" : "it is reloaded as it is edited";

export class TemplateSource {
  private template: ChatTemplate | null = null;
  private text: string | null = null;
  private error: string | null = null;
  private loads = 0;
  private watcher: FSWatcher | null = null;
  private reloading: Promise<void> | null = null;
  private again = false;
  private settle: NodeJS.Timeout | null = null;

  private constructor(
    private readonly engine: Engine,
    private readonly path: string | null,
    private readonly config: TemplateConfig,
    private readonly onEvent: (e: TemplateEvent) => void,
  ) {}

  static async open(engine: Engine, config: TemplateConfig, onEvent: (e: TemplateEvent) => void): Promise<TemplateSource> {
    const file = config.chatTemplateFile;
    const s = new TemplateSource(engine, file === undefined ? null : resolve(file), config, onEvent);
    if (s.path === null) {
      s.template = await engine.chatTemplate();
      return s;
    }
    // the folder, not the file: editors save by writing a new file and renaming it over the old one
    const name = basename(s.path);
    s.watcher = watch(dirname(s.path), (_event, changed) => {
      if (changed === null || changed === name) s.changed();
    });
    s.watcher.on("error", (e) => s.fail(`cannot watch ${s.path}: ${e.message}`));
    await s.reload();
    return s;
  }

  /** The template to render with; a 503 that says what is wrong with the file when none could be loaded. */
  current(): ChatTemplate {
    if (this.template) return this.template;
    const file = this.file();
    throw new ApiError(503, "unavailable", `the chat template ${templateName(file)} cannot be used: ${this.error}; ${reloadAdvice(file)}`);
  }

  state(): TemplateState {
    return { source: this.path === null ? "gguf" : "file", path: this.path, error: this.error, loads: this.loads };
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.settle) clearTimeout(this.settle);
  }

  /** A save is a burst of events (truncate, write, rename): read once it has settled. */
  private changed(): void {
    if (this.settle) clearTimeout(this.settle);
    this.settle = setTimeout(() => {
      this.settle = null;
      void this.reload();
    }, SETTLE_MS);
  }

  /** Reloads the file; calls that arrive during a reload coalesce into one more. */
  reload(): Promise<void> {
    if (this.reloading) {
      this.again = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.again = false;
        await this.loadOnce();
      } while (this.again && this.watcher);
      this.reloading = null;
    })();
    return this.reloading;
  }

  private async loadOnce(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.path!, "utf8");
    } catch (e) {
      // mid-save the file can be briefly absent; the rename that follows triggers another reload
      return this.fail(`cannot read it: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    if (text === this.text && this.template) return;
    // an empty override would mean the GGUF's own template; a file is empty for a moment while it is saved
    if (text.trim() === "") return this.fail("the file is empty");
    try {
      this.template = await this.engine.chatTemplate(text);
    } catch (e) {
      this.text = text;
      return this.fail((e as Error).message);
    }
    this.text = text;
    this.error = null;
    this.loads++;
    this.onEvent({ status: "loaded", ...this.file() });
  }

  private fail(message: string): void {
    if (this.error === message) return;
    this.error = message;
    this.onEvent({ status: "error", ...this.file(), message });
  }

  private file(): Pick<TemplateEvent, "path" | "mirrorOf"> {
    const mirrorOf = this.config.chatTemplateMirrorOf;
    return mirrorOf === undefined ? { path: this.path! } : { path: this.path!, mirrorOf };
  }
}
