// The debugged render's thread under the time limit: running time past it ends the thread with a message naming
// the limit (the limit is made tiny here, so the render is sure to outlast it; nothing waits on the clock).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RenderThread } from "../../../server/src/debugger/renderThread";

describe("debugged render thread", () => {
  it("ends a render that runs past the time limit, with a message naming it", async () => {
    const message = await new Promise<string>((resolve, reject) => {
      new RenderThread(
        {
          source: "{% for i in range(3000) %}{% for j in range(3000) %}{% endfor %}{% endfor %}",
          contextJson: "{}",
          engine: "jinja2",
          stopOnEntry: false,
          breakpoints: [],
          exceptions: { error: false, diverges: false },
        },
        {
          stopped: () => reject(new Error("stopped")),
          output: () => undefined,
          done: () => reject(new Error("the render finished inside 20 ms")),
          failed: resolve,
        },
        20,
      );
    });
    assert.match(message, /ran past the render time limit \(0\.02 s of running\); its render was stopped/);
  });
});
