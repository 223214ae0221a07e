// Renders many templates with Python's jinja2 in one python3 process, configured as HF
// transformers configures it for chat templates (the reference behaviour of the jinja2 dialect).
import { runPythonJson } from "./python";

const SCRIPT = String.raw`
import json, re, sys, datetime
import jinja2
from jinja2 import nodes
from jinja2.ext import Extension, loopcontrols
from jinja2.exceptions import TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment

class Generation(Extension):
    tags = {"generation"}
    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
        return nodes.CallBlock(self.call_method("_render", []), [], [], body).set_lineno(lineno)
    def _render(self, caller):
        return caller()

def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

def raise_exception(message):
    raise TemplateError(message)

req = json.load(sys.stdin)
now = datetime.datetime(*req["now"])
def strftime_now(format):
    return now.strftime(format)

env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[Generation, loopcontrols])
env.filters["tojson"] = tojson
env.globals["raise_exception"] = raise_exception
env.globals["strftime_now"] = strftime_now
out = []
for t in req["templates"]:
    try:
        # A fresh context each time: a template can mutate it (list.pop, indent's +=).
        ctx = json.loads(req["context"])
        out.append({"out": re.sub(r"(?i)( at 0x)[0-9a-f]+", r"\g<1>0", env.from_string(t).render(**ctx))})
    except Exception as e:
        out.append({"error": type(e).__name__ + ": " + str(e)})
print(json.dumps({"version": jinja2.__version__, "results": out}))
`;

export type PyResult = { out: string } | { error: string };

export function renderWithPythonJinja2(
  templates: readonly string[],
  contextJson: string,
  now: number[],
): { version: string; results: PyResult[] } {
  return runPythonJson(SCRIPT, { templates, context: contextJson, now });
}
