// The status bar item's text and tooltip, from the endpoint's state and the figures of the last
// generation that went through the editor (chat provider or model test).
import { unavailableMessage } from "../bundledEngine";
import type { GenerationStats } from "./stats";
import type { EndpointState } from "./manager";

export type EndpointStatus =
  | EndpointState
  | { kind: "external"; url: string; model: string | null; error: string | null }
  | { kind: "untrusted" }
  /** Bundled mode where this copy has no native engine (bundledEngine.ts). */
  | { kind: "unavailable"; reason: string };

export interface StatusView {
  text: string;
  tooltip: string;
}

const CLICK = "Click for endpoint actions.";

function figures(stats: GenerationStats | null): string {
  if (!stats) return "";
  const parts: string[] = [];
  if (stats.tokensPerSecond !== null) parts.push(`${Math.round(stats.tokensPerSecond)} tok/s`);
  if (stats.acceptance !== null) parts.push(`DFlash ${Math.round(stats.acceptance * 100)}%`);
  return parts.map((p) => ` · ${p}`).join("");
}

function statsLine(stats: GenerationStats | null): string {
  if (!stats) return "No generation yet.";
  const tps = stats.tokensPerSecond === null ? "?" : stats.tokensPerSecond.toFixed(1);
  const acc = stats.acceptance === null ? "no draft" : `DFlash acceptance ${(stats.acceptance * 100).toFixed(1)}%`;
  const line = `Last generation: ${stats.completionTokens !== null ? `${stats.completionTokens} tokens ` : ""}at ${tps} tokens/s, ${acc}.`;
  return stats.dflash ? `${line}\n${dflashLine(stats.dflash)}` : line;
}

/** The adaptive controller's choice and acceptance by context length, as the endpoint reported them. */
function dflashLine(d: NonNullable<GenerationStats["dflash"]>): string {
  const length = d.adaptive ? `adaptive draft length, last step drafted ${d.draftLength}` : `fixed draft length ${d.draftLength}`;
  const contexts = d.byContext.map(
    (b) =>
      `${b.context} ${(b.acceptance * 100).toFixed(0)}% (${b.meanAcceptedLength.toFixed(1)} per step${b.plainSteps ? `, ${b.plainSteps} plain steps` : ""})`,
  );
  const even =
    d.breakEven > 0 && d.breakEven < 1 ? `; below break-even (drafting at best ${(d.breakEven * 100).toFixed(0)}% of plain speed)` : "";
  return `DFlash: ${length}${contexts.length ? `; acceptance by context: ${contexts.join(", ")}` : ""}${even}.`;
}

export function statusView(s: EndpointStatus, stats: GenerationStats | null): StatusView {
  switch (s.kind) {
    case "stopped":
      return { text: "$(debug-disconnect) Endpoint: stopped", tooltip: `The chat template endpoint is not running. ${CLICK}` };
    case "starting":
      return { text: "$(loading~spin) Endpoint: starting", tooltip: `Starting the endpoint process. ${CLICK}` };
    case "loading":
      return {
        text: `$(loading~spin) Endpoint: loading ${Math.round(s.progress * 100)}%`,
        tooltip: `Loading ${s.model} at ${s.url}. ${CLICK}`,
      };
    case "ready": {
      const lines = [
        `${s.model}${s.demo ? " (demo models, random weights: the output is gibberish)" : ""} at ${s.url}`,
        `${s.backend} backend, context ${s.contextSize} tokens, ${s.draft ? `DFlash draft ${s.draft}` : "no draft (plain decoding)"}.`,
        statsLine(stats),
        CLICK,
      ];
      return { text: `$(pulse) Endpoint: ${s.model}${figures(stats)}`, tooltip: lines.join("\n") };
    }
    case "restarting":
      return {
        text: `$(warning) Endpoint: restarting (${s.attempt})`,
        tooltip: `${s.reason}. Restarting in ${(s.delayMs / 1000).toFixed(1)} s. ${CLICK}`,
      };
    case "failed":
      return { text: "$(error) Endpoint: failed", tooltip: `${s.message}\n${CLICK}` };
    case "external":
      if (s.error !== null) return { text: "$(warning) Endpoint: external, unreachable", tooltip: `${s.url}: ${s.error}\n${CLICK}` };
      return {
        text: `$(remote) Endpoint: ${s.model ?? "external"}${figures(stats)}`,
        tooltip: [`External endpoint ${s.url}`, statsLine(stats), CLICK].join("\n"),
      };
    case "unavailable":
      return { text: "$(circle-slash) Endpoint: not available on this platform", tooltip: `${unavailableMessage(s)}\n${CLICK}` };
    case "untrusted":
      return {
        text: "$(shield) Endpoint: untrusted workspace",
        tooltip: `The endpoint does not start and no model loads in an untrusted workspace. ${CLICK}`,
      };
  }
}
