#!/usr/bin/env bash
# Claude Code against `chat-template serve` on the demo models (issue 18), offline (test/agents/offline.sh installs
# the pinned @anthropic-ai/claude-code outside the repo and cuts the network off): test/agents/claudeCode.ts.
# Non-essential traffic is off either way, and every request goes to ANTHROPIC_BASE_URL.
# Usage: test/agents/claude-code.sh [CONTEXT…]   (default: 131072 65536 16384). Needs `npm run build` first.
exec "$(dirname "$0")/offline.sh" claude-code @anthropic-ai/claude-code 2.1.197 claude test/agents/claudeCode.ts "$@"
