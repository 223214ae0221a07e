// Hover for a security finding: why the construct is dangerous, beyond the one-line diagnostic.
import type { Hover, TemplateDocument } from "../../document";
import { securityDiagnostics } from "./securityFindings";

const WHY: Readonly<Record<string, string>> = {
  "security/private-name":
    "Names starting with `_` lead from a template's values into Python's object model (`__class__` → `__mro__` → `__subclasses__()`, or `__init__` → `__globals__` → `__builtins__`). Jinja2's sandbox refuses every such name; a server that renders with a plain, unsandboxed `jinja2.Environment` runs them, which is how a template inside a downloaded GGUF executes code (CVE-2024-34359 and its kind). A chat template never needs them.",
  "security/code-execution":
    "This calls something that runs code or a process (`os.system`, `popen`, `subprocess`, `eval`, `__import__`, Python's `getattr`). None exists in any Jinja environment, so it only works after escaping the sandbox, and then it runs on the machine that renders the prompt.",
  "security/template-loading":
    "`include`, `import`, `extends` read other template files through the environment's loader. Chat templates are rendered from a string without one (HF transformers and llama.cpp throw); where a loader is configured this reads files from the rendering machine.",
  "security/hidden-text":
    "Zero-width and bidirectional-override characters make the template read differently from how it runs (Trojan Source). Honest templates have no reason to contain them.",
  "security/confusable": "This name mixes in letters from other scripts that look like ASCII ones: it reads as one name and is another.",
  "security/prompt-injection":
    "The template writes text into every prompt; the model follows it and the user never sees it. Text that tells the model to override or conceal instructions is a backdoor in the prompt, not a format.",
  "security/gated-payload":
    "This appears only when a message says something particular, so renders with sample or empty inputs never show it: a backdoor that waits for its trigger.",
  "security/exfiltration":
    "The conversation's text lands inside a URL (a link or image the client may fetch, sending it to that host) or an HTML comment (hidden from the user when rendered).",
  "security/code-in-text":
    "Python or shell code in the prompt's own text is aimed at the model or a tool runner, not at formatting a conversation.",
  "security/markup":
    "Active HTML (`<script>`, `<iframe>`, images) in the prompt's own text can run or load something where the model's output is shown as HTML.",
  "security/url": "A URL in the template's own text reaches every prompt; make sure it is meant to.",
  "security/encoded-blob":
    "A long encoded string in the prompt's own text hides what it says; decode it and make sure it is meant to be there.",
};

export function securityHover(doc: TemplateDocument, offset: number): Hover | null {
  const d = securityDiagnostics(doc).find((x) => x.start <= offset && offset <= x.end);
  if (!d) return null;
  return { contents: `**${d.code}** — ${d.message}\n\n${WHY[d.code] ?? ""}`, span: { start: d.start, end: d.end } };
}
