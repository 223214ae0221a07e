# Sourced by test/agents/*.sh: how each client is tried as a user runs it. The client is installed, pinned, into a
# tool folder outside the repo (never a project dependency: `npm ci` stays lean), and it runs in a network namespace
# with only loopback up, so nothing it sends can leave the machine. Where namespaces are not permitted that is said,
# and it runs with the network as it is.

TOOLS_CACHE="${CHAT_TEMPLATE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/chat-template-studio}"

# install_pinned TAG DIR NAME@VERSION…: installs the packages into DIR unless each is there at its version.
install_pinned() {
  local tag=$1 dir=$2 spec missing=""
  shift 2
  for spec in "$@"; do
    node -e 'process.exit(require(process.argv[1]).version === process.argv[2] ? 0 : 1)' \
      "$dir/node_modules/${spec%@*}/package.json" "${spec##*@}" 2>/dev/null || missing=1
  done
  [ -z "$missing" ] && return 0
  echo "[$tag] installing $* into $dir"
  mkdir -p "$dir"
  npm install --prefix "$dir" --save-exact --no-audit --no-fund --loglevel=error "$@"
}

# run_offline TAG COMMAND…: runs the command (in place of this shell) with only loopback up.
run_offline() {
  local tag=$1
  shift
  if unshare -rn true 2>/dev/null; then
    echo "[$tag] in a network namespace with only loopback"
    exec unshare -rn bash -c 'ip link set lo up && exec "$@"' bash "$@"
  fi
  echo "[$tag] NOTE: network namespaces are not permitted here (unshare -rn failed); running with the host's network"
  exec "$@"
}
