#!/usr/bin/env bash
# Codex CLI against `chat-template serve` on the demo models (issue 26), as a user runs it: @openai/codex, pinned,
# installed outside the repo (its platform binary is ~420 MB, so it runs under `npm run test:agents`, not in
# .ci/run), run offline by test/agents/codex.ts.
# Usage: test/agents/codex.sh   Needs `npm run build` first.
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/agents/pinned.sh

VERSION=0.171.0
TOOLS="$TOOLS_CACHE/codex-$VERSION"
install_pinned codex "$TOOLS" "@openai/codex@$VERSION"
run_offline codex node --import tsx test/agents/codex.ts "$TOOLS/node_modules/.bin/codex"
