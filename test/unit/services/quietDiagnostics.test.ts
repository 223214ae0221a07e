import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TemplateDocument } from "../../../server/src/document";
import { validate } from "../../../server/src/services";
import { DEFAULT_ENGINES } from "../../../server/src/dialects";

// ChatML written for string content: Jinja2 itself throws on typed content, which the template does not claim.
const STRING_CHATML =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

describe("the Problems view stays quiet about scenarios a template does not support", () => {
  it("a string-content ChatML template gets no diagnostics", () => {
    assert.deepEqual(validate(new TemplateDocument(STRING_CHATML), { engines: DEFAULT_ENGINES }), []);
  });

  it("unsupportedScenarios: true brings back what happens in the scenarios Jinja2 refuses", () => {
    const all = validate(new TemplateDocument(STRING_CHATML), { engines: DEFAULT_ENGINES, unsupportedScenarios: true });
    assert.ok(all.some((d) => d.code === "jinja2/throws" && d.severity === "information"));
    assert.ok(all.some((d) => d.code.endsWith("/renders-where-jinja2-throws")));
  });

  it("an engine that fails where Jinja2 renders is still reported", () => {
    const d = validate(new TemplateDocument("{{ messages.0.content }}"), { engines: DEFAULT_ENGINES });
    assert.ok(d.some((x) => x.code === "minja/unsupported-syntax"));
  });

  it("a template Jinja2 refuses on every scenario is still an error", () => {
    const d = validate(new TemplateDocument("{{ raise_exception('no') }}"), { engines: DEFAULT_ENGINES });
    assert.ok(
      d.some((x) => x.code === "jinja2/throws" && x.severity === "error"),
      JSON.stringify(d),
    );
  });
});

describe("a diagnostic says what fails and why within the 60 characters the Problems view shows", () => {
  it("an engine that cannot compile the template names the cause first", () => {
    const [d] = validate(new TemplateDocument("{{ messages.0.content }}"), { engines: ["minja"] }).filter((x) => x.engine === "minja");
    assert.match(d.message.slice(0, 60), /^minja cannot compile this \(Expected identifier/);
  });
});
