#!/usr/bin/env bash
# opencode against `chat-template serve` on the demo models (issue 26), offline (test/agents/offline.sh installs the
# pinned opencode-ai outside the repo and cuts the network off): test/agents/opencode.ts.
# Usage: test/agents/opencode.sh   Needs `npm run build` first.
exec "$(dirname "$0")/offline.sh" opencode opencode-ai 1.18.33 opencode test/agents/opencode.ts "$@"
