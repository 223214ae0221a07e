// The template guard the engine asks before llama.cpp's Jinja engine runs a template (it has no limits: a
// recursive macro overflows the stack, `range(10000000000)` never returns). The engine knows nothing of Jinja:
// whoever runs it gives it a guard (native/endpoint gives server/src/guard's). Without one, every template is
// refused: nothing reaches llama.cpp unchecked.
import type { Refusal, TemplateGuard } from "../../server/src/guard";
import { EngineError, TemplateLimitError, TemplateRefusedError } from "./errors";

let installed: TemplateGuard | null = null;

/** The guard every later template check of this process asks; null takes it away. */
export function setTemplateGuard(guard: TemplateGuard | null): void {
  installed = guard;
}

function refusalError(r: Refusal): EngineError {
  switch (r.kind) {
    case "limit":
      return new TemplateLimitError(r.limit, r.line, r.column, r.message);
    case "refused":
      return new TemplateRefusedError(r.line, r.column, r.message);
    case "invalid":
      return new EngineError("invalid_argument", r.message);
  }
}

/** Resolves when the guard vouches for what `check` asks; rejects with the refusal as the engine's error. */
export async function guarded(check: (guard: TemplateGuard) => Promise<Refusal | null>): Promise<void> {
  if (!installed)
    throw new TemplateRefusedError(
      1,
      1,
      "chat template refused: no template guard is installed (setTemplateGuard), and llama.cpp's Jinja engine, which has no limits, does not run what was not checked",
    );
  const refusal = await check(installed);
  if (refusal) throw refusalError(refusal);
}
