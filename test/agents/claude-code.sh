#!/usr/bin/env bash
# Claude Code against `chat-template serve` on the demo models (issue 18), as a user runs it: installs the pinned
# @anthropic-ai/claude-code into a tool folder outside the repo (not a project dependency: `npm ci` stays lean),
# then runs test/agents/claudeCode.ts in a network namespace with only loopback up, so nothing it sends can leave
# the machine. Where namespaces are not permitted it says so and runs with the network as it is (non-essential
# traffic is off either way, and every request goes to ANTHROPIC_BASE_URL).
# Usage: test/agents/claude-code.sh [CONTEXT…]   (default: 131072 65536 16384). Needs `npm run build` first.
set -euo pipefail
cd "$(dirname "$0")/../.."

VERSION=2.1.197
TOOLS="${CHAT_TEMPLATE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/chat-template-studio}/claude-code-$VERSION"
CLAUDE="$TOOLS/node_modules/.bin/claude"
if ! "$CLAUDE" --version 2>/dev/null | grep -q "^$VERSION "; then
  echo "[claude-code] installing @anthropic-ai/claude-code@$VERSION into $TOOLS"
  mkdir -p "$TOOLS"
  npm install --prefix "$TOOLS" --save-exact --no-audit --no-fund --loglevel=error "@anthropic-ai/claude-code@$VERSION"
  "$CLAUDE" --version
fi

RUN=(node --import tsx test/agents/claudeCode.ts "$CLAUDE" "$@")
if unshare -rn true 2>/dev/null; then
  echo "[claude-code] in a network namespace with only loopback"
  exec unshare -rn bash -c 'ip link set lo up && exec "$@"' bash "${RUN[@]}"
fi
echo "[claude-code] NOTE: network namespaces are not permitted here (unshare -rn failed); running with the host's network"
exec "${RUN[@]}"
