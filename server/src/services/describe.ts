// How facts and bindings read in hover and completion: a code line saying what the name is, its
// doc, and how engines depart from Jinja2 for it.
import { engineFactsAbout, registeredEngines, type EngineFact, ENGINE_LABELS } from "../dialects";
import type { Fact } from "../languageFacts";
import type { EngineId } from "../document";

/** A fenced one-line header, e.g. "(filter) default(default_value='', boolean=false)". */
export function codeLine(text: string): string {
  return "```\n" + text + "\n```";
}

/**
 * The doc of a fact followed by one line per engine that departs from Jinja2 for it: the fact's own
 * notes, and for a filter, test or method (`what`) the dialects' engine facts of that name.
 */
export function factDoc(fact: Fact, what?: string): string {
  const notes = Object.entries(fact.engines ?? {}).map(
    ([engine, n]) => `**${ENGINE_LABELS[engine as EngineId]}**: ${n!.support === "unsupported" ? "not supported" : "differs"} — ${n!.note}`,
  );
  const engineFacts = what
    ? registeredEngines().flatMap((engine) =>
        engineFactsAbout(engine, what as EngineFact["kind"], fact.name).map(
          (f) => `**${ENGINE_LABELS[engine]}**: ${f.effect === "throws" ? "throws" : "differs"} — ${f.cause}`,
        ),
      )
    : [];
  return [fact.doc, ...notes, ...engineFacts].join("\n\n");
}

export function factMarkdown(what: string, fact: Fact, header = fact.signature ?? fact.name): string {
  return `${codeLine(`(${what}) ${header}`)}\n\n${factDoc(fact, what)}`;
}
