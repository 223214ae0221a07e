// Output formats of `chat-template test`: a human summary, JSON for scripts, JUnit XML for CI servers.
import type { CaseResult, Failure } from "./runCase";

export interface FileResult {
  path: string;
  templatePath: string;
  cases: CaseResult[];
}

export type ReporterName = "text" | "json" | "junit";
export const REPORTERS: readonly ReporterName[] = ["text", "json", "junit"];

/** notes: what the whole run should know, e.g. that live cases ran with the server's own template. */
export function report(name: ReporterName, files: FileResult[], notes: readonly string[] = []): string {
  return name === "json" ? jsonReport(files, notes) : name === "junit" ? junitReport(files) : textReport(files, notes);
}

const show = (v: unknown) => (v === undefined ? "(absent)" : JSON.stringify(v));

export function failureText(f: Failure): string {
  return `${f.expectation}: expected ${show(f.expected)}, saw ${show(f.seen)}` + (f.detail ? `\n  ${f.detail}` : "");
}

function counts(files: FileResult[]) {
  const all = files.flatMap((f) => f.cases);
  const failed = all.filter((c) => c.failures.length).length;
  const skipped = all.filter((c) => c.skipped).length;
  return { total: all.length, failed, passed: all.length - failed - skipped, skipped };
}

const status = (c: CaseResult) => (c.failures.length ? "failed" : c.skipped ? "skipped" : "passed");

function textReport(files: FileResult[], notes: readonly string[]): string {
  const lines: string[] = [];
  for (const f of files) {
    lines.push(f.path);
    for (const c of f.cases) {
      const live = c.live ? ` (${c.live.wellFormed}/${c.live.samples} well formed)` : "";
      lines.push(c.skipped ? `  - ${c.name} (skipped: ${c.skipped})` : `  ${c.failures.length ? "✗" : "✓"} ${c.name}${live}`);
      for (const fail of c.failures)
        lines.push(
          ...failureText(fail)
            .split("\n")
            .map((l) => `      ${l}`),
        );
      if (c.failures.length) lines.push(`      at ${f.path}:${c.line}`);
      for (const w of c.written) lines.push(`      wrote snapshot ${w}`);
    }
  }
  lines.push(...notes.map((n) => `note: ${n}`));
  const n = counts(files);
  const skipped = n.skipped ? `, ${n.skipped} skipped (live cases run with --endpoint URL)` : "";
  lines.push(`${n.passed} passed, ${n.failed} failed${skipped} (${n.total} cases in ${files.length} files)`);
  return lines.join("\n") + "\n";
}

function jsonReport(files: FileResult[], notes: readonly string[]): string {
  const n = counts(files);
  return (
    JSON.stringify(
      {
        summary: n,
        notes,
        files: files.map((f) => ({
          path: f.path,
          template: f.templatePath,
          cases: f.cases.map((c) => ({
            name: c.name,
            line: c.line,
            status: status(c),
            failures: c.failures,
            ...(c.skipped ? { skipped: c.skipped } : {}),
            ...(c.live ? { live: c.live } : {}),
            ...(c.written.length ? { written: c.written } : {}),
          })),
        })),
      },
      null,
      2,
    ) + "\n"
  );
}

const xml = (s: string) =>
  s
    .replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[ch] as string)
    // XML 1.0 cannot carry most control characters even escaped; templates' special tokens can hold them.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);

function junitReport(files: FileResult[]): string {
  const n = counts(files);
  const secs = (ms: number) => (ms / 1000).toFixed(3);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="chat-template test" tests="${n.total}" failures="${n.failed}" skipped="${n.skipped}">`,
  ];
  for (const f of files) {
    const failed = f.cases.filter((c) => c.failures.length).length;
    const skipped = f.cases.filter((c) => c.skipped).length;
    const time = f.cases.reduce((s, c) => s + c.durationMs, 0);
    out.push(
      `  <testsuite name="${xml(f.path)}" tests="${f.cases.length}" failures="${failed}" errors="0" skipped="${skipped}" time="${secs(time)}">`,
    );
    for (const c of f.cases) {
      const open = `    <testcase classname="${xml(f.path)}" name="${xml(c.name)}" file="${xml(f.path)}" line="${c.line}" time="${secs(c.durationMs)}"`;
      if (c.skipped) {
        out.push(open + ">", `      <skipped message="${xml(c.skipped)}"/>`, "    </testcase>");
        continue;
      }
      if (!c.failures.length) {
        out.push(open + "/>");
        continue;
      }
      out.push(open + ">");
      const message = c.failures.map((x) => `${x.expectation}: expected ${show(x.expected)}, saw ${show(x.seen)}`).join("; ");
      out.push(`      <failure message="${xml(message)}" type="expectation">${xml(c.failures.map(failureText).join("\n"))}</failure>`);
      out.push("    </testcase>");
    }
    out.push("  </testsuite>");
  }
  out.push("</testsuites>");
  return out.join("\n") + "\n";
}
