// A large template's parse fits in a small heap (issue 25): 2 MB of `{% if x %}a{% endif %}` is 300,000 blocks,
// rendered by `chat-template render` in a process capped at 160 MB of heap. The parse once kept all its tokens
// next to the tree it built and left 16 spare slots in each one-item list (Jinja2's parse: about 150 MB), and
// llama.cpp's engine parsed the template twice, ours and its own (over 256 MB); 10 MB took 1–2.4 GB of memory.
// Now tokens are let go behind the parser, lists fit, and only the engine's own parser runs for llama.cpp.
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runBounded } from "../../helpers/boundedNode";
import { CLI } from "../../helpers/cli";
import { HANG_GUARD_MS } from "../../helpers/hangGuard";

const HEAP_MB = 160;
const SIZE = 2 * 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), "large-template-"));

function template(name: string, unit: string): string {
  const file = join(dir, `${name}.jinja`);
  writeFileSync(file, unit.repeat(Math.floor(SIZE / unit.length)));
  return file;
}

describe("a 2 MB template in a 160 MB heap", () => {
  const tags = template("tags", "{% if x %}a{% endif %}");
  for (const engine of ["jinja2", "llamacpp"]) {
    it(`renders 2 MB of if blocks in ${engine}`, async () => {
      const r = await runBounded(CLI, ["render", tags, "--engine", engine, "--scenario", "basic"], {
        heapMb: HEAP_MB,
        wallMs: HANG_GUARD_MS,
      });
      assert.equal(r.signal, null, r.stderr.slice(0, 500));
      assert.equal(r.status, 0, r.stderr.slice(0, 500));
      assert.equal(r.stdout, "");
    });
  }
});
