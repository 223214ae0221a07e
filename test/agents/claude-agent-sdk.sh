#!/usr/bin/env bash
# The Claude Agent SDK against `chat-template serve` on the demo models (issue 26): @anthropic-ai/claude-agent-sdk,
# pinned, installed outside the repo, run offline by test/agents/claudeAgentSdk.ts.
# Usage: test/agents/claude-agent-sdk.sh   Needs `npm run build` first.
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/agents/pinned.sh

VERSION=0.3.337
TOOLS="$TOOLS_CACHE/claude-agent-sdk-$VERSION"
install_pinned claude-agent-sdk "$TOOLS" "@anthropic-ai/claude-agent-sdk@$VERSION"
run_offline claude-agent-sdk node --import tsx test/agents/claudeAgentSdk.ts "$TOOLS"
