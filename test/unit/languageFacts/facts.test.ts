// The language facts must name exactly what Jinja2 3.1 provides, so hover and completion neither
// miss a builtin nor invent one; Python's jinja2 is the reference when installed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CONTEXT_VARIABLES, MESSAGE, TOOL_CALL, TOOL_CALL_FUNCTION } from "../../../server/src/languageFacts/context";
import type { Fact } from "../../../server/src/languageFacts/fact";
import { FILTERS } from "../../../server/src/languageFacts/filters";
import { GLOBALS } from "../../../server/src/languageFacts/globals";
import { EXPRESSION_KEYWORDS, TAGS } from "../../../server/src/languageFacts/keywords";
import { LOOP } from "../../../server/src/languageFacts/loop";
import { DICT_METHODS, STR_METHODS } from "../../../server/src/languageFacts/methods";
import { TESTS } from "../../../server/src/languageFacts/tests";
import { hasPythonJinja2, runPythonJson } from "../../helpers/python";

const JINJA2_NAMES = `
import sys, json
from jinja2.filters import FILTERS
from jinja2.tests import TESTS
from jinja2.defaults import DEFAULT_NAMESPACE
from jinja2.runtime import LoopContext, Undefined
loop = [n for n in dir(LoopContext(iter([]), Undefined)) if not n.startswith("_")]
print(json.dumps({"filters": sorted(FILTERS), "tests": sorted(TESTS), "globals": sorted(DEFAULT_NAMESPACE), "loop": sorted(loop)}))
`;

const names = (facts: readonly { name: string }[]) => facts.map((f) => f.name).sort();

describe("language facts", () => {
  it("are well formed: unique names, a doc for each", () => {
    const lists: [string, readonly Fact[]][] = [
      ["filters", FILTERS],
      ["tests", TESTS],
      ["globals", GLOBALS],
      ["tags", TAGS],
      ["keywords", EXPRESSION_KEYWORDS],
      ["context", CONTEXT_VARIABLES],
      ["message", MESSAGE.fields],
      ["loop", LOOP.fields],
      ["str", STR_METHODS],
      ["dict", DICT_METHODS],
    ];
    for (const [what, facts] of lists) {
      assert.equal(new Set(names(facts)).size, facts.length, `duplicate names in ${what}`);
      for (const f of facts) assert.ok(f.doc.length > 10, `${what}.${f.name} has a doc`);
    }
  });

  it("cover the chat-template context, message and tool-call fields the issue names", () => {
    for (const n of [
      "messages",
      "tools",
      "add_generation_prompt",
      "bos_token",
      "eos_token",
      "enable_thinking",
      "reasoning_effort",
      "documents",
      "tool_choice",
    ]) {
      assert.ok(
        CONTEXT_VARIABLES.some((f) => f.name === n),
        n,
      );
    }
    for (const n of ["role", "content", "tool_calls", "reasoning_content", "tool_call_id", "name"])
      assert.ok(
        MESSAGE.fields.some((f) => f.name === n),
        n,
      );
    assert.deepEqual(names(TOOL_CALL.fields), ["function", "id", "type"]);
    assert.deepEqual(names(TOOL_CALL_FUNCTION.fields), ["arguments", "name"]);
    assert.ok(GLOBALS.some((g) => g.name === "raise_exception") && GLOBALS.some((g) => g.name === "strftime_now"));
    assert.ok(TAGS.some((t) => t.name === "generation" && t.end === "endgeneration"));
  });

  it(
    "name exactly Jinja2's filters, tests, globals and loop attributes",
    { skip: !hasPythonJinja2() && "python3 with jinja2 is not installed" },
    () => {
      const real = runPythonJson<{ filters: string[]; tests: string[]; globals: string[]; loop: string[] }>(JINJA2_NAMES, null);
      assert.deepEqual(names(FILTERS), real.filters);
      assert.deepEqual(names(TESTS), real.tests);
      assert.deepEqual(names(GLOBALS.filter((g) => real.globals.includes(g.name))), real.globals);
      assert.deepEqual(names(LOOP.fields), real.loop);
    },
  );
});
