// What the Test Explorer shows for a failed case: one message per failed expectation, with the two
// outputs for its diff view where the case compared renders (snapshot, sameAs). No vscode here, so the
// conversion is tested without VS Code.
import { type CaseResult, failureText } from "../../../server/src/templateTests";

export interface CaseMessage {
  text: string;
  /** Both set for a render comparison: shown side by side. */
  expected?: string;
  actual?: string;
  /** A snapshot mismatch, which "Update Snapshot" can accept. */
  snapshot: boolean;
}

export function caseMessages(result: CaseResult): CaseMessage[] {
  return result.failures.map((f) => ({
    text: failureText(f),
    ...(f.expectedOutput !== undefined && f.seenOutput !== undefined ? { expected: f.expectedOutput, actual: f.seenOutput } : {}),
    snapshot: f.expectation === "snapshot" || f.expectation.startsWith("snapshot ("),
  }));
}
