// One failed expectation of a case: what the test file expected and what the run saw.
export interface Failure {
  /** The expectation as written in the test file, e.g. `caps.supports_tools`, `renders (minja)`. */
  expectation: string;
  expected: unknown;
  seen: unknown;
  /** Why, where the runner knows: the probe renders that threw with their template lines, a diff. */
  detail?: string;
  /** Snapshot and sameAs failures: the two outputs compared, for an editor's diff view. */
  expectedOutput?: string;
  seenOutput?: string;
}
