// The checks a grammar, a JSON schema and a request body's nesting pass before llama.cpp sees them: what real
// requests hold passes, each limit is named with where it is passed (hostileRequests.test.ts sends the bombs).
import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_CONSTRAINT_ALTERNATIVES, MAX_JSON_DEPTH } from "../../../native/endpoint/chat/constraintLimits";
import { checkGrammar } from "../../../native/endpoint/chat/grammarCheck";
import { checkJsonDepth } from "../../../native/endpoint/http/jsonDepth";
import { checkJsonSchema } from "../../../native/endpoint/chat/schemaCheck";

const refused = (f: () => void, message: RegExp) => assert.throws(f, (e: Error) => (assert.match(e.message, message), true));

test("a grammar: literals, classes and comments are skipped; {m,} counts only m", () => {
  const json = [
    "# JSON, as llama.cpp's grammars/json.gbnf (a ( or | in a comment is text)",
    "root   ::= object",
    'value  ::= object | array | string | number | ("true" | "false" | "null") ws',
    'object ::= "{" ws ( string ":" ws value ("," ws string ":" ws value)* )? "}" ws',
    'array  ::= "[" ws ( value ("," ws value)* )? "]" ws',
    'string ::= "\\"" ( [^"\\\\\\x7F\\x00-\\x1F] | "\\\\" (["\\\\bfnrt] | "u" [0-9a-fA-F]{4}) )* "\\"" ws',
    'number ::= ("-"? ([0-9] | [1-9] [0-9]{0,15})) ("." [0-9]+)? ([eE] [-+]? [0-9] [1-9]{0,15})? ws',
    'ws     ::= | " " | "\\n" [ \\t]{0,20}',
    'many   ::= "(((|||" [(|{] "x"{50,}',
  ].join("\n");
  checkGrammar(json, ["grammar"]);
  checkGrammar("root ::= " + "(".repeat(256) + '"a"' + ")".repeat(256), ["grammar"]);
});

test("a grammar past a limit: the field, what, and the line and column", () => {
  refused(
    () => checkGrammar("root ::= x\nx ::= " + "(".repeat(300) + '"a"' + ")".repeat(300), ["grammar"]),
    /^grammar: parentheses nest deeper than 256 levels at line 2, column 263$/,
  );
  const alts = (n: number) => "root ::= " + Array.from({ length: n }, (_, i) => `"${i}"`).join("|");
  checkGrammar(alts(MAX_CONSTRAINT_ALTERNATIVES + 1), ["grammar"]);
  refused(() => checkGrammar(alts(MAX_CONSTRAINT_ALTERNATIVES + 2), ["grammar"]), /more than 1024 alternatives/);
  refused(
    () => checkGrammar('root ::= "a"{2001}', ["grammar"]),
    /a repetition of 2001 is more than the limit of 2000 at line 1, column 13/,
  );
  refused(() => checkGrammar('root ::= "a"{5,2}', ["grammar"]), /minimum 5 is above its maximum 2/);
  refused(() => checkGrammar(`root ::= "${"a".repeat(600)}"{2000}`, ["grammar"]), /repetitions copy more than 1048576 characters/);
  refused(() => checkGrammar("x".repeat(300000), ["grammar"]), /^grammar: has 300000 characters/);
});

test("a schema: what agents send passes; each limit names its keyword", () => {
  const tool = {
    type: "object",
    $defs: { path: { type: "string", pattern: "^(/[^/]+)+$", maxLength: 2000 } },
    properties: {
      description: { type: "string", minLength: 1 },
      file: { $ref: "#/$defs/path" },
      mode: { enum: ["read", "write"], default: { pattern: "(" } },
      lines: { type: "array", items: { type: ["integer", "null"] }, maxItems: 100 },
    },
    required: ["file"],
  };
  checkJsonSchema(tool, ["tools", 0, "function", "parameters"]);
  const at = ["json_schema"];
  refused(
    () => checkJsonSchema({ properties: { description: { pattern: "(" } } }, at),
    /^json_schema\.properties\.description\.pattern: is not a valid regular expression/,
  );
  refused(() => checkJsonSchema({ items: { $ref: "#" } }, at), /^json_schema\.items\.\$ref: '#' cannot be converted/);
  refused(() => checkJsonSchema({ $ref: "https://example.com/s.json" }, at), /^json_schema\.\$ref: /);
  refused(() => checkJsonSchema({ type: "string", pattern: "^a{2,1}$" }, at), /^json_schema\.pattern: is not a valid regular expression/);
  refused(
    () => checkJsonSchema({ type: "string", pattern: "^(" + "a".repeat(1000) + "){2000}$" }, at),
    /json_schema\.pattern: at character \d+: repetitions copy more than/,
  );
  refused(
    () => checkJsonSchema({ type: "string", pattern: "^" + "(".repeat(257) + ")".repeat(257) + "$" }, at),
    /nests groups deeper than 256/,
  );
  refused(() => checkJsonSchema({ type: "array", minItems: 3, maxItems: 1 }, at), /^json_schema\.minItems: 3 is above maxItems 1/);
  refused(
    () => checkJsonSchema({ type: "string", maxLength: 1048577 }, at),
    /^json_schema\.maxLength: 1048577 is more than the limit of 1048576/,
  );
  // Claude Code's Bash tool
  checkJsonSchema({ type: "object", properties: { script: { type: "string", maxLength: 524288 } } }, at);
  refused(
    () => checkJsonSchema({ anyOf: [{ enum: Array(1000).fill(1) }, { enum: Array(25).fill(2) }] }, at),
    /^json_schema\.anyOf\[\d\]\.enum: the schema has more than 1024 alternatives/,
  );
});

test("a body nests at most 128 levels, counted without recursion", () => {
  const nested = (n: number) => JSON.parse("[".repeat(n) + "]".repeat(n));
  checkJsonDepth({ a: nested(MAX_JSON_DEPTH - 1) });
  refused(() => checkJsonDepth({ a: nested(MAX_JSON_DEPTH) }), /^a: arrays and objects nest deeper than 128 levels$/);
  refused(() => checkJsonDepth(nested(1_000_000)), /^request body: arrays and objects nest deeper than 128 levels$/);
});
