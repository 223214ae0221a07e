// A loopback stand-in for the npm registry: serves tarballs made in the test at the registry's paths
// (<@scope/name>/-/<name>-<version>.tgz), honours Range like the real one, and misbehaves on request:
// cut a response mid-way, answer 500, or trickle bytes slowly (for cancels). Records each request's headers.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { create } from "tar";
import { tarballUrl, type PinnedTarball } from "../../native/engine";

export type Fault = "cut" | "error" | "slow" | "ignore-range";

export interface TestTarball extends PinnedTarball {
  data: Buffer;
}

/** An npm-style tarball (one top folder, package/) holding `files`, with its pinned integrity and size. */
export async function makeTarball(
  workDir: string,
  name: string,
  version: string,
  files: Record<string, string | Buffer>,
): Promise<TestTarball> {
  const root = join(workDir, `${name.replace(/\W/g, "_")}-${version}`);
  rmSync(root, { recursive: true, force: true });
  for (const [rel, content] of Object.entries({ "package.json": JSON.stringify({ name, version }), ...files })) {
    mkdirSync(join(root, "package", rel, ".."), { recursive: true });
    writeFileSync(join(root, "package", rel), content);
  }
  const file = `${root}.tgz`;
  await create({ gzip: true, file, cwd: root, portable: true }, ["package"]);
  const data = readFileSync(file);
  return { name, version, data, bytes: data.length, integrity: `sha512-${createHash("sha512").update(data).digest("base64")}` };
}

export interface TarballRegistry {
  url: string;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  /** The next response for `name` misbehaves this way (once). */
  fault(name: string, fault: Fault): void;
  close(): Promise<void>;
}

export async function startTarballRegistry(tarballs: TestTarball[]): Promise<TarballRegistry> {
  const faults = new Map<string, Fault>();
  const requests: TarballRegistry["requests"] = [];
  let base = "";
  const server: Server = createServer((req, res) => {
    requests.push({ path: req.url ?? "", headers: req.headers });
    const t = tarballs.find((x) => new URL(tarballUrl(base, x)).pathname === req.url);
    if (!t) return void res.writeHead(404).end("not found");
    const fault = faults.get(t.name);
    faults.delete(t.name);
    if (fault === "error") return void res.writeHead(500, "Internal Server Error").end("boom");
    const m = fault === "ignore-range" ? null : /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
    const from = m ? Number(m[1]) : 0;
    if (from >= t.data.length && m) return void res.writeHead(416, { "content-range": `bytes */${t.data.length}` }).end();
    const body = t.data.subarray(from);
    res.writeHead(m ? 206 : 200, {
      "content-length": body.length,
      "accept-ranges": "bytes",
      ...(m ? { "content-range": `bytes ${from}-${t.data.length - 1}/${t.data.length}` } : {}),
    });
    if (fault === "cut") {
      // half the promised bytes, then the connection closes (a FIN, so the bytes sent arrive)
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.end());
      return;
    }
    if (fault === "slow") {
      let at = 0;
      const timer = setInterval(() => {
        if (res.destroyed || at >= body.length) {
          clearInterval(timer);
          if (!res.destroyed) res.end();
          return;
        }
        res.write(body.subarray(at, (at += 1024)));
      }, 50);
      res.on("close", () => clearInterval(timer));
      return;
    }
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url: base,
    requests,
    fault: (name, f) => faults.set(name, f),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
