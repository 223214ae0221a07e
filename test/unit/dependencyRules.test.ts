// The dependency rules that .dependency-cruiser.cjs generates from ARCHITECTURE.md's table (`npm run lint`
// runs them): each one-way invariant is held against an import that breaks it and one that keeps it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

interface Rule {
  name: string;
  from: { path?: string; pathNot?: string };
  to: { path?: string; pathNot?: string; dependencyTypesNot?: string[]; circular?: boolean; couldNotResolve?: boolean };
}
const { forbidden } = require("../../.dependency-cruiser.cjs") as { forbidden: Rule[] };

const matches = (re: string | undefined, s: string, otherwise: boolean) => (re === undefined ? otherwise : new RegExp(re).test(s));

/** The rules an import breaks (`typeOnly`: an `import type`). */
function broken(from: string, to: string, typeOnly = false): string[] {
  return forbidden
    .filter((r) => !r.to.circular && !r.to.couldNotResolve && r.name !== "unlisted")
    .filter((r) => matches(r.from.path, from, true) && !matches(r.from.pathNot, from, false))
    .filter((r) => matches(r.to.path, to, true) && !matches(r.to.pathNot, to, false))
    .filter((r) => !(r.to.dependencyTypesNot?.includes("type-only") && typeOnly))
    .map((r) => r.name);
}

describe("dependency rules", () => {
  it("server/src never imports native/", () => {
    for (const from of ["server/src/cli/check.ts", "server/src/guard/guard.ts", "server/src/analysis/index.ts"])
      for (const to of ["native/engine/index.ts", "native/cli/index.ts", "native/endpoint/index.ts"])
        assert.notDeepEqual(broken(from, to), [], `${from} → ${to}`);
  });

  it("only the command line's composition root imports both sides", () => {
    assert.deepEqual(broken("cli/main.ts", "native/cli/index.ts"), []);
    assert.deepEqual(broken("cli/main.ts", "server/src/cli/index.ts"), []);
    assert.notDeepEqual(broken("native/cli/bench.ts", "server/src/cli/index.ts"), []);
  });

  it("native/engine knows nothing of Jinja: the GGUF reader, and the guard's types only", () => {
    assert.deepEqual(broken("native/engine/engine.ts", "server/src/gguf/index.ts"), []);
    assert.deepEqual(broken("native/engine/chat.ts", "server/src/guard/index.ts", true), []);
    assert.deepEqual(broken("native/engine/chat.ts", "server/src/guard/index.ts"), ["types-only:native/engine/"]);
    for (const to of [
      "server/src/interpreter/index.ts",
      "server/src/dialects/index.ts",
      "server/src/analysis/index.ts",
      "server/src/parser/index.ts",
    ])
      assert.notDeepEqual(broken("native/engine/chat.ts", to), [], to);
    assert.deepEqual(broken("native/endpoint/serve.ts", "server/src/guard/index.ts"), []);
  });

  it("only the dialects import the interpreter's dialect kit", () => {
    assert.deepEqual(broken("server/src/dialects/minja.ts", "server/src/interpreter/kit.ts"), []);
    assert.deepEqual(broken("server/src/analysis/index.ts", "server/src/interpreter/kit.ts"), ["only-by:server/src/interpreter/kit.ts"]);
    assert.deepEqual(broken("server/src/analysis/index.ts", "server/src/interpreter/index.ts"), []);
    assert.notDeepEqual(broken("server/src/dialects/minja.ts", "server/src/interpreter/values.ts"), []);
  });

  it("the interpreter writes render progress without reaching the helper process's Node plumbing", () => {
    assert.deepEqual(broken("server/src/interpreter/render.ts", "server/src/progressPipe/renderProgress.ts"), []);
    assert.notDeepEqual(broken("server/src/interpreter/render.ts", "server/src/progressPipe/index.ts"), []);
  });
});
