#!/usr/bin/env bash
# qwen-code against `chat-template serve` on the demo models (issue 26), offline (test/agents/offline.sh installs the
# pinned @qwen-code/qwen-code outside the repo and cuts the network off): test/agents/qwenCode.ts.
# Usage: test/agents/qwen-code.sh   Needs `npm run build` first.
exec "$(dirname "$0")/offline.sh" qwen-code @qwen-code/qwen-code 0.24.4 qwen test/agents/qwenCode.ts "$@"
