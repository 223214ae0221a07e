#!/usr/bin/env bash
# Opt-in (downloads about 320 MB; not part of CI): the real CUDA install from the npm registry you configured,
# `chat-template install-cuda` into a temporary folder. It proves that the pinned tarballs still exist there
# and hash to the pinned sha512 (native/engine/cudaPackages.ts) and that they unpack to the libraries the
# engine loads. On a machine without an NVIDIA GPU the install's last step (the GPU check) refuses it, which
# is the expected outcome here; with a GPU the install must succeed.
#   bash packaging/check-cuda-download.sh        (after npm run build)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
start=$(date +%s)
set +e
node dist/cli.js install-cuda --dir "$dir" 2>"$dir/stderr"
status=$?
set -e
grep -v " MB downloaded$" "$dir/stderr" >&2 || true
prefix="$dir/cuda/node-llama-cpp-3.22.1/node_modules/@node-llama-cpp"
if ! ls "$prefix"/linux-x64-cuda/bins/*/libllama-common.so >/dev/null 2>&1; then
  echo "check-cuda-download: nothing was unpacked (exit $status)" >&2
  exit 1
fi
if [ "$status" -ne 0 ] && ! grep -q "on this machine" "$dir/stderr"; then
  echo "check-cuda-download: the install failed (exit $status)" >&2
  exit 1
fi
echo "check-cuda-download: both tarballs downloaded, matched their pinned sha512 and unpacked ($(du -sm "$prefix" | cut -f1) MB) in $(( $(date +%s) - start )) s; install-cuda exit $status"
