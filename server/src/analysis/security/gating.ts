// Whether a construct runs only for some conversations: payloads hide behind a test on what the
// messages say (`{% if 'trigger' in messages[0].content %}`), so a render with sample or empty inputs
// never reaches them. The finding says so, since that is what makes the payload a backdoor.
import type * as A from "../../parser";
import { walk } from "../../parser";

function readsConversation(test: A.Expr): boolean {
  let reads = false;
  walk(test, (n) => {
    if (n.kind === "Name" && n.name === "messages") reads = true;
    if (n.kind === "GetAttr" && (n.attr === "content" || n.attr === "role")) reads = true;
    if (n.kind === "GetItem" && n.index.kind === "Str" && (n.index.value === "content" || n.index.value === "role")) reads = true;
  });
  return reads;
}

/**
 * The test that reads the conversation and decides whether `node` runs: of an enclosing `if`/`elif`
 * (an `elif` or `else` body also depends on the tests before it) or inline `a if test else b`.
 */
export function conversationGate(node: A.Span, ancestors: readonly A.Node[]): A.Expr | null {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i];
    if (a.kind === "Conditional" && node.start >= a.then.start && readsConversation(a.test)) return a.test;
    if (a.kind !== "If") continue;
    for (const b of a.branches) {
      if (node.start < b.tag.end) break;
      if (readsConversation(b.test)) return b.test;
    }
  }
  return null;
}
