import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { securityDiagnostics } from "../server/src/analysis";
import { TemplateDocument } from "../server/src/document";
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => { const p = join(dir, f); return statSync(p).isDirectory() ? files(p) : p.endsWith(".jinja") ? [p] : []; });
}
for (const root of ["test/fixtures/corpus/templates", "../shared/peer-security"]) {
  let n = 0, hit = 0;
  for (const f of files(root)) {
    n++;
    const text = readFileSync(f, "utf8");
    const d = securityDiagnostics(new TemplateDocument(text)).filter((x) => x.code === "security/prompt-injection" || x.code === "security/gated-payload");
    if (d.length) { hit++; console.log(f, d.map((x) => x.code + " " + x.message).join(" | ")); }
  }
  console.log(root, n, hit);
}
