// markupsafe's escape(), as the `escape`/`e` filter and Markup's operators apply it.
import { Markup, type Value } from "../values";

const HTML: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;" };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML[c]);
}

/** markupsafe.escape: Markup passes through, anything else is stringified then escaped. */
export function escapeValue(v: Value, str: (v: Value) => string): Markup {
  return v instanceof Markup ? v : new Markup(escapeHtml(str(v)));
}
