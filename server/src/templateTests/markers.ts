// The markup that, left in a reply's content, shows a call or reasoning the server did not lift out:
// the common formats' markers plus the template's own, as llama.cpp's autoparser reads them.
import { capsOf, detectToolCallFormat } from "../analysis";
import { dialectFor } from "../dialects";
import type { TemplateDocument } from "../document";
import { COMMON_MARKERS, type Markers } from "./turnVerdict";

/** A marker must be markup, not a space or a bare quote that ordinary prose contains. */
const isMarkup = (m: string) => m.length >= 2 && /[<[|｜]/.test(m) && !NEEDLE.test(m);
/** The autoparser's probe names can stay in a marker it reads (a name written inside the call's opener). */
const NEEDLE = /FFF_FIRST_FUN_F|SSS_SECOND_FUN_S|AA_ARG_FST_AA|BB_ARG_SND_BB/;

export function markersOf(doc: TemplateDocument): Markers {
  const dialect = dialectFor("llamacpp");
  if (!dialect) return COMMON_MARKERS;
  const f = detectToolCallFormat(doc, dialect, capsOf(doc, dialect).caps);
  const own = (list: string[]) => list.map((m) => m.trim()).filter(isMarkup);
  return {
    toolCall: [
      ...new Set([
        ...COMMON_MARKERS.toolCall,
        ...own([f.section_start, f.per_call_start, f.function.name_prefix, f.arguments.name_prefix]),
      ]),
    ],
    reasoning: [...new Set([...COMMON_MARKERS.reasoning, ...own([f.reasoning.start, f.reasoning.end])])],
  };
}
