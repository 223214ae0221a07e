// "Real Python Jinja2": the installed python3's jinja2, configured as HF transformers configures it for
// chat templates (ImmutableSandboxedEnvironment with trim_blocks and lstrip_blocks, loopcontrols, the
// `generation` block tag, tojson = json.dumps(ensure_ascii=False, …), raise_exception, strftime_now),
// in a helper process (lineProcess.ts) so a slow template cannot stall the editor.
import { JINJA2_REFERENCE_VERSION } from "../../../../server/src/dialects";
import { failed, type EngineInput, type EngineOutcome, type PreviewEngine } from "./engine";
import { LineProcess } from "../../helperProcess/lineProcess";

const SCRIPT = String.raw`
import json, sys, traceback
from datetime import datetime
def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()
try:
    import jinja2
    from jinja2 import nodes
    from jinja2.ext import Extension, loopcontrols
    from jinja2.sandbox import ImmutableSandboxedEnvironment
except Exception as e:
    say({"ready": False, "reason": "python3 cannot import jinja2 (%s)" % e})
    sys.exit(0)

now = [datetime.now()]

class Generation(Extension):
    tags = {"generation"}
    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
        return nodes.CallBlock(self.call_method("_body"), [], [], body).set_lineno(lineno)
    def _body(self, caller):
        return caller()

def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)

def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[Generation, loopcontrols])
env.filters["tojson"] = tojson
env.globals["raise_exception"] = raise_exception
env.globals["strftime_now"] = lambda fmt: now[0].strftime(fmt)
say({"ready": True, "version": jinja2.__version__})

compiled = {}
for line in sys.stdin:
    req = json.loads(line)
    try:
        now[0] = datetime(*req["now"])
        source = req["template"]
        if source not in compiled:
            compiled.clear()
            compiled[source] = env.from_string(source)
        say({"out": compiled[source].render(**json.loads(req["context"]))})
    except Exception as e:
        lineno = getattr(e, "lineno", None)
        if lineno is None:
            frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == "<template>"]
            lineno = frames[-1].lineno if frames else None
        say({"error": "%s: %s" % (type(e).__name__, e), "line": lineno})
`;

/** The column's note: the installed jinja2, and a warning when it is not the release the jinja2 dialect reproduces. */
export function realJinja2Note(version: string, python: string): string {
  const note = `jinja2 ${version} (${python})`;
  return version === JINJA2_REFERENCE_VERSION ? note : `${note}, not the reference ${JINJA2_REFERENCE_VERSION}`;
}

export interface RealJinja2Options {
  python: string;
  timeoutMs: number;
}

export function realJinja2Engine(options: RealJinja2Options): PreviewEngine {
  const proc = new LineProcess({ command: options.python, args: ["-u", "-c", SCRIPT], timeoutMs: options.timeoutMs });
  return {
    id: "real-jinja2",
    label: "Python Jinja2",
    real: true,
    note: () => (proc.version ? realJinja2Note(proc.version, options.python) : null),
    async render({ doc, json, now }: EngineInput): Promise<EngineOutcome | null> {
      const when = [now.year, now.month, now.day, now.hour, now.minute, now.second, now.microsecond];
      const r = await proc.request({ template: doc.text, context: json, now: when });
      if (!r) return null;
      if (!r.ok) return r.unavailable ? { status: "unavailable", reason: r.reason } : failed(r.reason);
      if (typeof r.reply.out === "string") return { status: "ok", output: r.reply.out, chunks: null };
      const line = typeof r.reply.line === "number" ? r.reply.line : null;
      return {
        status: "error",
        output: "",
        chunks: null,
        error: { message: String(r.reply.error), code: null, start: null, end: null, line, column: null },
      };
    },
    dispose: () => proc.dispose(),
  };
}
