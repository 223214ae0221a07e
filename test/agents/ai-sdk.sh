#!/usr/bin/env bash
# The Vercel ai SDK against `chat-template serve` on the demo models (issue 26): `ai` with @ai-sdk/openai (Chat
# Completions and Responses) and @ai-sdk/anthropic, pinned, installed outside the repo, run offline by
# test/agents/aiSdk.ts. Usage: test/agents/ai-sdk.sh [openai-chat|openai-responses|anthropic…]  Needs `npm run build`.
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/agents/pinned.sh

VERSION=7.0.185
TOOLS="$TOOLS_CACHE/ai-sdk-$VERSION"
install_pinned ai-sdk "$TOOLS" "ai@$VERSION" @ai-sdk/openai@4.0.126 @ai-sdk/anthropic@4.0.112 zod@4.6.7
run_offline ai-sdk node --import tsx test/agents/aiSdk.ts "$TOOLS" "$@"
