// The engines' own test suites (../shared/peer-suites, one file per upstream suite): every case must
// agree with our dialect of that engine, except the differences accepted below, each with its reason
// (empty is the goal).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { describe, it } from "node:test";
import { loadPeerSuite, PEER_SUITES, peerCaseMiss, peerSuiteNames } from "../../helpers/peerSuites";

/** `suite id` → why our dialect differs from the engine there. */
const ACCEPTED: Readonly<Record<string, string>> = {};

const absent = !existsSync(PEER_SUITES) && "../shared/peer-suites is not next to this checkout";

describe("the engines' own test suites", { skip: absent }, () => {
  for (const name of absent ? [] : peerSuiteNames()) {
    it(`${name}.json: every case agrees with our ${name} engine, but for the accepted differences`, async (t) => {
      const suite = loadPeerSuite(name);
      const misses = new Map<string, string>();
      for (const c of suite.cases) {
        const why = await peerCaseMiss(suite.engine, c);
        if (why !== null) misses.set(c.id, why);
      }
      const unexpected = [...misses].filter(([id]) => !(`${name} ${id}` in ACCEPTED));
      assert.deepEqual(
        unexpected.map(([id, why]) => `${id}: ${why}`),
        [],
        `${unexpected.length} of ${suite.cases.length} cases miss`,
      );
      // An entry that agrees now is said, not failed: the fixes land separately from this list.
      for (const k of Object.keys(ACCEPTED)) {
        const id = k.slice(name.length + 1);
        if (k.startsWith(`${name} `) && !misses.has(id)) t.diagnostic(`accepted difference ${k} no longer differs: remove it`);
      }
    });
  }
});
