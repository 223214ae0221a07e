#!/usr/bin/env bash
# The CLI as npm users get it: `npm pack`, `npm install -g` of the tarball into an empty prefix, then each
# command from that prefix's bin/ only (no checkout on the way: the working folder is a temporary one).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="$(mktemp -d)"
SERVE_PID=""
cleanup() { [ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

t0=$SECONDS
TARBALL="$(cd "$ROOT" && npm pack --silent --pack-destination "$WORK" | tail -1)"
npm install -g --prefix "$WORK/prefix" --no-audit --no-fund --loglevel=error "$WORK/$TARBALL" >/dev/null
CT="$WORK/prefix/bin/chat-template"
cd "$WORK"
export CTS_STORAGE_DIR="$WORK/storage"
cp "$ROOT/test/fixtures/templates/portable.jinja" "$ROOT/test/fixtures/templates/broken.jinja" .
fail() { echo "check-npm-package: $*" >&2; exit 1; }

[ "$("$CT" --version)" = "chat-template $(node -p "require('$ROOT/package.json').version")" ] || fail "--version does not print the package's version"
"$CT" check portable.jinja >/dev/null || fail "check of a portable template failed"
if "$CT" check broken.jinja >/dev/null 2>&1; then fail "check passed a broken template"; fi
"$CT" render portable.jinja --scenario basic | grep -q . || fail "render printed nothing"
"$CT" caps portable.jinja | grep -q . || fail "caps printed nothing"
cp portable.jinja fixed.jinja && "$CT" fix fixed.jinja >/dev/null || fail "fix failed"

# serve with the demo models (created in CTS_STORAGE_DIR), answer one chat request
"$CT" serve --port 0 >serve.out 2>serve.err &
SERVE_PID=$!
URL=""
for _ in $(seq 1 240); do
  URL="$(grep -o '"event":"ready","url":"[^"]*"' serve.out | sed 's/.*"url":"//; s/"$//' || true)"
  [ -n "$URL" ] && break
  kill -0 "$SERVE_PID" 2>/dev/null || fail "serve exited: $(tail -5 serve.err)"
  sleep 0.5
done
[ -n "$URL" ] || fail "serve was not ready within 2 minutes: $(tail -5 serve.err)"
curl -sf "$URL/v1/chat/completions" -H 'content-type: application/json' \
  -d '{"model":"demo-random","messages":[{"role":"user","content":"hi"}],"max_tokens":4}' | grep -q '"choices"' || fail "no chat completion from $URL"
kill "$SERVE_PID"; wait "$SERVE_PID" 2>/dev/null || true; SERVE_PID=""

GGUF="$(ls "$CTS_STORAGE_DIR"/demo-models/*-target.gguf | head -1)"
"$CT" extract "$GGUF" | grep -q . || fail "extract printed no template from $GGUF"
echo "check-npm-package: $TARBALL installed into an empty prefix; --version, check, render, caps, fix, serve, extract work ($((SECONDS - t0)) s)"
