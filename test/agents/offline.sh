#!/usr/bin/env bash
# Runs one agent client's end-to-end script as a user runs the client: the pinned npm package installed outside the
# repo and run offline (test/agents/pinned.sh).
# Usage: test/agents/offline.sh NAME PACKAGE VERSION BIN SCRIPT [ARG…]   (runs: node SCRIPT BINARY_PATH ARG…)
set -euo pipefail
cd "$(dirname "$0")/../.."
source test/agents/pinned.sh
NAME=$1 PACKAGE=$2 VERSION=$3 BIN=$4 SCRIPT=$5
shift 5

TOOLS="$TOOLS_CACHE/$NAME-$VERSION"
BINARY="$TOOLS/node_modules/.bin/$BIN"
install_pinned "$NAME" "$TOOLS" "$PACKAGE@$VERSION"
[ -x "$BINARY" ] || { echo "[$NAME] $PACKAGE@$VERSION did not install $BINARY" >&2; exit 1; }
run_offline "$NAME" node --import tsx "$SCRIPT" "$BINARY" "$@"
