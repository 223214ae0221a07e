// One file over HTTP(S), checked against a pinned integrity hash before anyone may use it. The bytes go to
// `<file>.partial`; a download that is cut (network, cancel, a killed process) leaves them there and the next
// call asks only for the rest (HTTP Range). Only a whole file whose sha512 matches is renamed into place; one
// that does not match is deleted, so a wrong or tampered tarball is never unpacked.
import { createHash } from "node:crypto";
import { createReadStream, existsSync, renameSync, rmSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { pipeline } from "node:stream/promises";

export interface DownloadRequest {
  url: string;
  /** Where the verified file ends up. */
  file: string;
  /** "sha512-<base64>" (npm's dist.integrity). */
  integrity: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Bytes on disk so far (resumed ones included) and the whole size when known. */
  onProgress?: (received: number, total: number | null) => void;
}

export class IntegrityError extends Error {}

/** sha512 of a file, in integrity form. */
export async function fileIntegrity(file: string): Promise<string> {
  const hash = createHash("sha512");
  await pipeline(createReadStream(file), hash);
  return `sha512-${hash.digest("base64")}`;
}

function partialSize(partial: string): number {
  return existsSync(partial) ? statSync(partial).size : 0;
}

/** "bytes 100-199/200" → 200; null when the total is "*" or the header is absent. */
function contentRangeTotal(header: string | null): number | null {
  const m = /\/(\d+)\s*$/.exec(header ?? "");
  return m ? Number(m[1]) : null;
}

export async function download(req: DownloadRequest): Promise<void> {
  if (!/^sha512-/.test(req.integrity)) throw new Error(`unsupported integrity ${req.integrity} (sha512 only)`);
  if (existsSync(req.file) && (await fileIntegrity(req.file)) === req.integrity) return;
  const partial = `${req.file}.partial`;
  let from = partialSize(partial);
  let res = await fetch(req.url, {
    headers: { ...req.headers, ...(from > 0 ? { range: `bytes=${from}-` } : {}) },
    signal: req.signal,
    redirect: "follow",
  });
  if (res.status === 416 && from > 0) {
    // nothing left to fetch (or the partial is longer than the file): the hash decides below, else start over
    await res.body?.cancel();
    if ((await fileIntegrity(partial)) === req.integrity) return void renameSync(partial, req.file);
    rmSync(partial, { force: true });
    from = 0;
    res = await fetch(req.url, { headers: req.headers, signal: req.signal, redirect: "follow" });
  }
  if (res.status !== 200 && res.status !== 206) {
    await res.body?.cancel();
    throw new Error(`${req.url}: HTTP ${res.status} ${res.statusText}`.trim());
  }
  // a server that ignores Range answers 200 with the whole file: start over
  if (res.status === 200) from = 0;
  const length = Number(res.headers.get("content-length") ?? NaN);
  const total = res.status === 206 ? contentRangeTotal(res.headers.get("content-range")) : Number.isFinite(length) ? length : null;
  let received = from;
  req.onProgress?.(received, total);
  // each chunk is on disk before the next is read: whatever arrived before a cut is kept for the resume
  const out = await open(partial, from > 0 ? "a" : "w");
  try {
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      await out.write(chunk);
      received += chunk.length;
      req.onProgress?.(received, total);
    }
  } catch (e) {
    if (req.signal?.aborted)
      throw new Error(`the download of ${req.url} was cancelled at ${received} bytes; the next install resumes it`, { cause: e });
    throw new Error(
      `the download of ${req.url} was cut at ${received}${total ? ` of ${total}` : ""} bytes (${(e as Error).message}); the next install resumes it`,
      { cause: e },
    );
  } finally {
    await out.close();
  }
  if (total !== null && received < total)
    throw new Error(`the download of ${req.url} ended at ${received} of ${total} bytes; the next install resumes it`);
  const got = await fileIntegrity(partial);
  if (got !== req.integrity) {
    rmSync(partial, { force: true });
    throw new IntegrityError(
      `${req.url} does not match the pinned integrity: expected ${req.integrity}, got ${got}; the download was deleted and nothing was installed`,
    );
  }
  renameSync(partial, req.file);
}
