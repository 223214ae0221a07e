#!/usr/bin/env bash
# Claude Code against `chat-template serve` on the demo models (issue 18), as a user runs it: @anthropic-ai/claude-code,
# pinned, installed outside the repo, run offline by test/agents/claudeCode.ts (non-essential traffic is off either
# way, and every request goes to ANTHROPIC_BASE_URL).
# Usage: test/agents/claude-code.sh [CONTEXT…]   (default: 131072 65536 16384). Needs `npm run build` first.
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/agents/pinned.sh

VERSION=2.1.197
TOOLS="$TOOLS_CACHE/claude-code-$VERSION"
install_pinned claude-code "$TOOLS" "@anthropic-ai/claude-code@$VERSION"
run_offline claude-code node --import tsx test/agents/claudeCode.ts "$TOOLS/node_modules/.bin/claude" "$@"
