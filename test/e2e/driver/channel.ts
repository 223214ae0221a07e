// A loopback HTTP endpoint through which the tests, running in the extension host, ask the driver for what
// only the browser sees (the text of workbench elements and webviews, screenshots) and hand it their report.
// The other end is test/e2e/suite/helpers/driver.ts.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";

export interface SuiteResult {
  passed: number;
  failed: number;
  pending: number;
}

export interface Channel {
  url: string;
  // What the suite reported when it finished; undefined when it never got that far.
  result(): SuiteResult | undefined;
  close(): Promise<void>;
}

type Handler = (body: Record<string, unknown>) => Promise<unknown>;

export async function startChannel(page: Page, artifactsDir: string, print: (line: string) => void): Promise<Channel> {
  let result: SuiteResult | undefined;
  const handlers: Record<string, Handler> = {
    // innerText of every element matching a CSS selector, in every frame (webviews are nested iframes).
    async texts(body) {
      const selector = String(body.selector);
      const perFrame = await Promise.all(
        page.frames().map((f) =>
          f
            .locator(selector)
            .allInnerTexts()
            .catch(() => [] as string[]),
        ),
      );
      return { texts: perFrame.flat() };
    },
    // textContent (exact, unlike innerText) and the named attributes of every element matching a selector.
    async elements(body) {
      const selector = String(body.selector);
      const names = (body.attributes as string[] | undefined) ?? [];
      const perFrame = await Promise.all(
        page.frames().map((f) =>
          f
            .locator(selector)
            .evaluateAll(
              (els, attrs) =>
                els.map((e) => ({ text: e.textContent ?? "", attributes: Object.fromEntries(attrs.map((a) => [a, e.getAttribute(a)])) })),
              names,
            )
            .catch(() => []),
        ),
      );
      return { elements: perFrame.flat() };
    },
    // A real mouse click on the first element matching a selector, in whichever frame has it.
    async click(body) {
      const target = await uniqueFrameLocator(page, String(body.selector));
      await target.first().click();
      return {};
    },
    // Picks an option of a <select> the way a user does (the page gets its change event).
    async select(body) {
      const target = await uniqueFrameLocator(page, String(body.selector));
      await target.first().selectOption(String(body.value));
      return {};
    },
    async screenshot(body) {
      const name = String(body.name);
      if (!/^[\w.-]+$/.test(name)) throw new Error(`bad screenshot name ${JSON.stringify(name)}`);
      const path = join(artifactsDir, `${name}.png`);
      await page.screenshot({ path });
      return { path };
    },
    async print(body) {
      print(String(body.line));
      return {};
    },
    async result(body) {
      result = { passed: Number(body.passed), failed: Number(body.failed), pending: Number(body.pending) };
      return {};
    },
  };

  const server = createServer((req, res) => {
    const handler = handlers[(req.url ?? "").slice(1)];
    let data = "";
    req.on("data", (c: Buffer) => (data += c.toString()));
    req.on("end", () => {
      const answer = Promise.resolve().then(() => {
        if (!handler) throw new Error(`no such call ${req.url}`);
        return handler(JSON.parse(data || "{}") as Record<string, unknown>);
      });
      answer.then(
        (value) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value)),
        (err: Error) => res.writeHead(500).end(err.message),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    result: () => result,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// The locator of `selector` in the one frame that has it: a click must not land on a same-named element of
// another webview.
async function uniqueFrameLocator(page: Page, selector: string): Promise<Locator> {
  const found: Locator[] = [];
  for (const f of page.frames()) {
    const l = f.locator(selector);
    if ((await l.count().catch(() => 0)) > 0) found.push(l);
  }
  if (found.length !== 1) throw new Error(`"${selector}" is in ${found.length} frames, expected one`);
  return found[0]!;
}
