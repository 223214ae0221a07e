#!/usr/bin/env bash
# Codex CLI against `chat-template serve` on the demo models (issue 26), as a user runs it: installs the pinned
# @openai/codex into a tool folder outside the repo (not a project dependency: its platform binary is ~420 MB, so it
# runs under `npm run test:agents`, not in .ci/run), then runs test/agents/codex.ts in a network namespace with only
# loopback up. Where namespaces are not permitted it says so and runs with the network as it is.
# Usage: test/agents/codex.sh   Needs `npm run build` first.
set -euo pipefail
cd "$(dirname "$0")/../.."

VERSION=0.171.0
TOOLS="${CHAT_TEMPLATE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/chat-template-studio}/codex-$VERSION"
CODEX="$TOOLS/node_modules/.bin/codex"
if ! "$CODEX" --version 2>/dev/null | grep -q " $VERSION$"; then
  echo "[codex] installing @openai/codex@$VERSION into $TOOLS"
  mkdir -p "$TOOLS"
  npm install --prefix "$TOOLS" --save-exact --no-audit --no-fund --loglevel=error "@openai/codex@$VERSION"
  "$CODEX" --version
fi

RUN=(node --import tsx test/agents/codex.ts "$CODEX")
if unshare -rn true 2>/dev/null; then
  echo "[codex] in a network namespace with only loopback"
  exec unshare -rn bash -c 'ip link set lo up && exec "$@"' bash "${RUN[@]}"
fi
echo "[codex] NOTE: network namespaces are not permitted here (unshare -rn failed); running with the host's network"
exec "${RUN[@]}"
