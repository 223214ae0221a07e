// node-llama-cpp's CUDA build as the npm registry serves it, pinned: the version is the node-llama-cpp this
// project is built against, and each tarball's integrity (sha512, as package-lock.json records it) and size
// are the registry's for that version. A download that does not hash to these bytes is never unpacked.
import { CUDA_PACKAGES, LLAMA_PACKAGE_VERSION } from "./paths";

export interface PinnedTarball {
  name: string;
  version: string;
  /** Subresource-integrity form, "sha512-<base64>", as npm's dist.integrity. */
  integrity: string;
  /** The tarball's size in bytes (for progress before the server says it). */
  bytes: number;
}

export const CUDA_TARBALLS: readonly PinnedTarball[] = [
  {
    name: CUDA_PACKAGES[0],
    version: LLAMA_PACKAGE_VERSION,
    integrity: "sha512-8rQCjyNNLZJUFit+YpjwlC4hwkKgOMIkB2wuycKBf8NU2O3ySKbiWZQ8aw9ku2nUTXjSnUIrE6KB88itduTBuA==",
    bytes: 142_898_030,
  },
  {
    name: CUDA_PACKAGES[1],
    version: LLAMA_PACKAGE_VERSION,
    integrity: "sha512-4e5ajkiM2aR2WAdB/N/ACk4weEhHvOAIrzxZPsIX0xDFW5+6hhShuy1/vs88SK9NGdgAco9IyE28eYS0H1efpA==",
    bytes: 176_664_119,
  },
];

/** Where a registry keeps a package's tarball: <registry>/<@scope/name>/-/<name>-<version>.tgz. */
export function tarballUrl(registry: string, t: Pick<PinnedTarball, "name" | "version">): string {
  const base = registry.endsWith("/") ? registry : `${registry}/`;
  const bare = t.name.split("/").at(-1)!;
  return `${base}${t.name}/-/${bare}-${t.version}.tgz`;
}

/** All pinned tarballs together, in MB, for messages. */
export const CUDA_DOWNLOAD_MB = Math.round(CUDA_TARBALLS.reduce((sum, t) => sum + t.bytes, 0) / 1e6);
