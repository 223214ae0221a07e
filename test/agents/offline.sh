#!/usr/bin/env bash
# Runs one agent client's end-to-end script as a user runs the client: installs the pinned npm package into a tool
# folder outside the repo (never a project dependency: `npm ci` stays lean), then runs the script with the client's
# binary in a network namespace with only loopback up, so nothing it sends can leave the machine. Where namespaces
# are not permitted it says so and runs with the network as it is.
# Usage: test/agents/offline.sh NAME PACKAGE VERSION BIN SCRIPT [ARG…]   (runs: node SCRIPT BINARY_PATH ARG…)
set -euo pipefail
cd "$(dirname "$0")/../.."
NAME=$1 PACKAGE=$2 VERSION=$3 BIN=$4 SCRIPT=$5
shift 5

TOOLS="${CHAT_TEMPLATE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/chat-template-studio}/$NAME-$VERSION"
BINARY="$TOOLS/node_modules/.bin/$BIN"
installed() { [ -x "$BINARY" ] && [ "$(node -p "require('$TOOLS/node_modules/$PACKAGE/package.json').version" 2>/dev/null)" = "$VERSION" ]; }
if ! installed; then
  echo "[$NAME] installing $PACKAGE@$VERSION into $TOOLS"
  mkdir -p "$TOOLS"
  npm install --prefix "$TOOLS" --save-exact --no-audit --no-fund --loglevel=error "$PACKAGE@$VERSION"
  installed || { echo "[$NAME] $PACKAGE@$VERSION did not install $BINARY" >&2; exit 1; }
fi

RUN=(node --import tsx "$SCRIPT" "$BINARY" "$@")
if unshare -rn true 2>/dev/null; then
  echo "[$NAME] in a network namespace with only loopback"
  exec unshare -rn bash -c 'ip link set lo up && exec "$@"' bash "${RUN[@]}"
fi
echo "[$NAME] NOTE: network namespaces are not permitted here (unshare -rn failed); running with the host's network"
exec "${RUN[@]}"
