// A loopback HTTP endpoint through which the tests, running in the extension host, ask the driver for what
// only the browser sees (the text of workbench elements and webviews, screenshots) and hand it their report.
// The other end is test/e2e/suite/helpers/driver.ts.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Page } from "playwright-core";

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
        page.frames().map((f) => f.locator(selector).allInnerTexts().catch(() => [] as string[])),
      );
      return { texts: perFrame.flat() };
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
