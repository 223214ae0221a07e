// How facts and bindings read in hover and completion: a code line saying what the name is, its
// doc, and how engines depart from Jinja2 for it.
import type { Fact } from "../languageFacts/fact";
import { ENGINE_LABELS, type EngineId } from "../types";

/** A fenced one-line header, e.g. "(filter) default(default_value='', boolean=false)". */
export function codeLine(text: string): string {
  return "```\n" + text + "\n```";
}

/** The doc of a fact followed by one line per engine that departs from Jinja2. */
export function factDoc(fact: Fact): string {
  const notes = Object.entries(fact.engines ?? {}).map(
    ([engine, n]) => `**${ENGINE_LABELS[engine as EngineId]}**: ${n!.support === "unsupported" ? "not supported" : "differs"} — ${n!.note}`,
  );
  return [fact.doc, ...notes].join("\n\n");
}

export function factMarkdown(what: string, fact: Fact, header = fact.signature ?? fact.name): string {
  return `${codeLine(`(${what}) ${header}`)}\n\n${factDoc(fact)}`;
}
