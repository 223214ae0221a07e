#!/usr/bin/env bash
# Codex CLI against `chat-template serve` on the demo models (issue 26), offline (test/agents/offline.sh installs the
# pinned @openai/codex outside the repo and cuts the network off): test/agents/codex.ts.
# Usage: test/agents/codex.sh   Needs `npm run build` first.
exec "$(dirname "$0")/offline.sh" codex @openai/codex 0.171.0 codex test/agents/codex.ts "$@"
