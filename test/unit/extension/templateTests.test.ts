// The Test Explorer's messages and the comparison page, without VS Code; and the manifest entries they need.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { abPage } from "../../../client/src/templateTests/abPage";
import { caseMessages } from "../../../client/src/templateTests/messages";
import type { AbResult, AbSide } from "../../../server/src/templateTests/abRun";
import { rateDifference, wilson } from "../../../server/src/templateTests/stats";

describe("Test Explorer messages", () => {
  it("one per failed expectation; render comparisons carry both outputs, and snapshot ones can be accepted", () => {
    const m = caseMessages({
      name: "c",
      line: 3,
      written: [],
      durationMs: 1,
      failures: [
        { expectation: "caps.supports_tools", expected: true, seen: false, detail: "probe renders that threw: x" },
        {
          expectation: "snapshot (llamacpp)",
          expected: "s.txt",
          seen: "other bytes",
          detail: "--- s.txt",
          expectedOutput: "old",
          seenOutput: "new",
        },
        { expectation: "snapshot", expected: "s.txt", seen: "no file (ENOENT)" },
        { expectation: "sameAs (minja)", expected: "jinja2's bytes", seen: "other bytes", expectedOutput: "1.0", seenOutput: "1" },
      ],
    });
    assert.deepEqual(m[0], { text: "caps.supports_tools: expected true, saw false\n  probe renders that threw: x", snapshot: false });
    assert.deepEqual([m[1].expected, m[1].actual, m[1].snapshot], ["old", "new", true]);
    assert.deepEqual([m[2].expected, m[2].snapshot], [undefined, true]);
    assert.deepEqual([m[3].expected, m[3].actual, m[3].snapshot], ["1.0", "1", false]);
  });
});

function side(label: "A" | "B", path: string, wellFormed: number, failures: AbSide["failures"]): AbSide {
  return {
    label,
    path,
    samples: 20,
    wellFormed,
    failures,
    rate: wellFormed / 20,
    interval: wilson(wellFormed, 20),
    tokens: { prompt: 4000, completion: 80 },
    timeMs: 2000,
    cases: [],
  };
}

describe("Compare Templates page", () => {
  const result: AbResult = {
    sides: [side("A", "plain.jinja", 20, {}), side("B", "<b>&.jinja", 9, { markup_in_content: 11 })],
    difference: rateDifference({ successes: 20, n: 20 }, { successes: 9, n: 20 }),
  };
  const html = abPage(
    {
      suite: "s.chat-template-test.json",
      endpoint: { url: "http://127.0.0.1:8080", server: "chat-template-studio", model: "m" },
      notes: ["demo <models>"],
    },
    result,
    "vscode-resource:",
  );

  it("draws each rate as a bar with its interval as a whisker, in an SVG that parses", () => {
    const svg = /<svg[\s\S]*<\/svg>/.exec(html)![0];
    assert.equal(XMLValidator.validate(svg), true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(svg);
    const [a, b] = doc.svg.rect;
    assert.equal(Number(a.width), 480);
    assert.equal(Number(b.width), 0.45 * 480);
    const whiskers = doc.svg.line.filter((l: { y1: string; y2: string }) => l.y1 === l.y2);
    assert.equal(Number(whiskers[1].x1).toFixed(1), (40 + result.sides[1].interval.low * 480).toFixed(1));
  });

  it("tables the failures by kind, tokens, time and the verdict, escapes names, and runs no script", () => {
    assert.match(html, /<tr><th>markup leaked into content<\/th><td>0<\/td><td>11<\/td><\/tr>/);
    assert.match(html, /<tr><th>well-formed<\/th><td>20\/20 = 100\.0%<\/td><td>9\/20 = 45\.0%<\/td><\/tr>/);
    assert.match(html, /<tr><th>completion tokens per sample<\/th><td>4\.0<\/td><td>4\.0<\/td><\/tr>/);
    assert.match(html, /Difference B − A: −55\.0 points, 95% interval −[\d.]+ to −[\d.]+: significant\./);
    assert.match(html, /B &lt;b&gt;&amp;\.jinja/);
    assert.match(html, /<p class="note">Note: demo &lt;models&gt;<\/p>/);
    assert.doesNotMatch(html, /<script/);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
  });
});

describe("manifest: Test Explorer and Compare Templates", () => {
  const pkg = JSON.parse(readFileSync(resolve(__dirname, "../../../package.json"), "utf8"));
  const nls = JSON.parse(readFileSync(resolve(__dirname, "../../../package.nls.json"), "utf8"));
  it("contributes the commands, the snapshot action on a failure's message, and activates on a test file", () => {
    const title = (t: string) => t.replace(/^%(.+)%$/, (_, key: string) => nls[key]);
    const commands = pkg.contributes.commands.map((c: { command: string; title: string }) => `${c.command}: ${title(c.title)}`);
    assert.ok(commands.includes("chatTemplate.compareTemplates: Compare Templates on the Model"));
    assert.ok(commands.includes("chatTemplate.updateSnapshot: Update Snapshot"));
    assert.deepEqual(pkg.contributes.menus["testing/message/context"], [
      { command: "chatTemplate.updateSnapshot", when: "testMessage == chatTemplate.snapshotMismatch" },
    ]);
    assert.ok(pkg.activationEvents.includes("workspaceContains:**/*.chat-template-test.json"));
  });
});
