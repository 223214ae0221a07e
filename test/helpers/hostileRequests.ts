// Requests an attacker would send the endpoint (issue 25): grammars that nest, branch or repeat past what
// llama.cpp's parser and sampler survive, JSON schemas the same way, sampler numbers outside their range and
// JSON nested 10,000 deep. Each is a 400 naming its field, in every API that takes the field. Bodies are
// JSON text: a 10,000-deep value is past what JSON.stringify can write.
export type Api = "chat" | "messages" | "completions";

export const ROUTES: Record<Api, string> = { chat: "/v1/chat/completions", messages: "/v1/messages", completions: "/v1/completions" };

export interface HostileRequest {
  family: "grammar" | "schema" | "sampler" | "nesting";
  name: string;
  /** Per API: the fields added to a small request (JSON text; a later key wins) and the field the 400 names. */
  ways: Partial<Record<Api, { fields: string; param: string }>>;
}

/** A small request of that API with `fields` added. */
export function bodyOf(api: Api, fields: string): string {
  const head = api === "completions" ? `"prompt":"hi"` : `"messages":[{"role":"user","content":"hi"}]`;
  return `{"model":"m","max_tokens":4,${head},${fields}}`;
}

const nested = (n: number, open: string, leaf: string, close: string) => open.repeat(n) + leaf + close.repeat(n);

function grammar(name: string, text: string): HostileRequest {
  const way = { fields: `"grammar":${JSON.stringify(text)}`, param: "grammar" };
  return { family: "grammar", name, ways: { chat: way, messages: way, completions: way } };
}

/** `sub`: where in the schema the 400 points, as the error prints it (".properties.a.pattern"). */
function schema(name: string, s: object, sub: string): HostileRequest {
  const json = JSON.stringify(s);
  return {
    family: "schema",
    name,
    ways: {
      chat: {
        fields: `"tools":[{"type":"function","function":{"name":"f","parameters":${json}}}]`,
        param: `tools[0].function.parameters${sub}`,
      },
      messages: { fields: `"tools":[{"name":"f","input_schema":${json}}]`, param: `tools[0].input_schema${sub}` },
      completions: { fields: `"json_schema":${json}`, param: `json_schema${sub}` },
    },
  };
}

/** The same schema as a chat request's response_format. */
function responseFormat(name: string, s: object, sub: string): HostileRequest {
  const fields = `"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":${JSON.stringify(s)}}}`;
  return { family: "schema", name, ways: { chat: { fields, param: `response_format.json_schema.schema${sub}` } } };
}

function sampler(key: string, value: string, apis: Api[] = ["chat", "completions"]): HostileRequest {
  const ways: HostileRequest["ways"] = {};
  for (const api of apis) ways[api] = { fields: `"${key}":${value}`, param: key };
  return { family: "sampler", name: `${key}: ${value}`, ways };
}

const alternatives = (n: number) => "root ::= " + Array.from({ length: n }, (_, i) => `"w${i}"`).join(" | ");
const string = (extra: object) => ({ type: "object", properties: { a: { type: "string", ...extra } } });

export const HOSTILE_REQUESTS: HostileRequest[] = [
  // llama.cpp's parser recursed 30,000 deep into SIGSEGV; 80,000 alternatives held the slot for minutes
  grammar("30,000 nested parentheses", "root ::= " + nested(30000, "(", '"a"', ")")),
  grammar("257 nested parentheses", "root ::= " + nested(257, "(", '"a"', ")")),
  grammar("80,000 alternatives (870 KB)", alternatives(80000)),
  grammar("2,000 alternatives", alternatives(2000)),
  grammar("a repetition of 10,000,000", 'root ::= "a"{0,10000000}'),
  grammar("a repetition's bounds reversed", 'root ::= "a"{3,1}'),
  grammar("a long literal repeated 2,000 times", `root ::= "${"a".repeat(1000)}"{2000}`),
  schema("30,000 nested groups in a pattern", string({ pattern: "^" + nested(30000, "(", "a", ")") + "$" }), ".properties.a.pattern"),
  schema("a pattern's repetition of 1,000,000", string({ pattern: "^a{1000000}$" }), ".properties.a.pattern"),
  schema("a pattern's repetition bounds reversed (held the endpoint)", string({ pattern: "^a{3,1}$" }), ".properties.a.pattern"),
  // item 8: both cannot be converted, and both are refused the same way, wherever the schema is
  schema("an invalid regex pattern", string({ pattern: "^(ab$" }), ".properties.a.pattern"),
  schema("an invalid regex pattern without anchors", string({ pattern: "[a-" }), ".properties.a.pattern"),
  schema("$ref '#'", { type: "object", properties: { a: { $ref: "#" } } }, ".properties.a.$ref"),
  responseFormat("$ref '#' in response_format", { $ref: "#" }, ".$ref"),
  responseFormat("an invalid regex pattern in response_format", { type: "string", pattern: "(" }, ".pattern"),
  schema("an enum of 2,000 values", { type: "string", enum: Array.from({ length: 2000 }, (_, i) => `v${i}`) }, ".enum"),
  schema("2,000 anyOf branches", { anyOf: Array.from({ length: 2000 }, (_, i) => ({ const: i })) }, ".anyOf"),
  schema(
    "2,000 optional properties",
    { type: "object", properties: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`p${i}`, {}])) },
    ".properties",
  ),
  schema("maxLength 10,000,000", string({ maxLength: 10000000 }), ".properties.a.maxLength"),
  schema("maxItems 1e12", { type: "array", maxItems: 1e12 }, ".maxItems"),
  schema("minItems above maxItems", { type: "array", minItems: 5, maxItems: 2 }, ".minItems"),
  schema(
    "a pattern under a property named description",
    { type: "object", properties: { description: { type: "string", pattern: "(" } } },
    ".properties.description.pattern",
  ),
  sampler("top_k", "1e12", ["chat", "messages", "completions"]),
  sampler("top_k", "-1", ["chat", "messages", "completions"]),
  sampler("repeat_last_n", "1e12"),
  sampler("repeat_last_n", "100000000"),
  sampler("repeat_last_n", "-2"),
  sampler("repeat_penalty", "0"),
  sampler("repeat_penalty", "1e300"),
  sampler("temperature", "1e12", ["chat", "messages", "completions"]),
  sampler("temperature", "-1", ["chat", "messages", "completions"]),
  sampler("top_p", "1e12", ["chat", "messages", "completions"]),
  sampler("min_p", "-1e12"),
  sampler("frequency_penalty", "1e12"),
  sampler("presence_penalty", "-1e12"),
  sampler("seed", "1e12"),
  sampler("top_k", "1.5", ["chat", "messages", "completions"]),
  sampler("sse_ping_interval", "1e12", ["chat", "messages", "completions"]),
  sampler("top_logprobs", "1e12", ["chat"]),
  sampler("n", "1e12"),
  {
    family: "sampler",
    name: "logit_bias for token 1e12",
    ways: Object.fromEntries(
      (["chat", "completions"] as Api[]).map((api) => [
        api,
        { fields: `"logit_bias":{"1000000000000":1}`, param: "logit_bias.1000000000000" },
      ]),
    ),
  },
  {
    family: "nesting",
    name: "content parts nested 10,000 deep",
    ways: Object.fromEntries(
      (["chat", "messages"] as Api[]).map((api) => [
        api,
        { fields: `"messages":[{"role":"user","content":${nested(10000, '[{"type":"text","text":', '"x"', "}]")}}]`, param: "messages" },
      ]),
    ),
  },
  {
    family: "nesting",
    name: "chat_template_kwargs holding a 10,000-deep list",
    ways: { chat: { fields: `"chat_template_kwargs":{"a":${nested(10000, "[", "", "]")}}`, param: "chat_template_kwargs" } },
  },
  {
    family: "nesting",
    name: "a prompt nested 300,000 deep",
    ways: { completions: { fields: `"prompt":${nested(300000, "[", "", "]")}`, param: "prompt" } },
  },
];
