#!/usr/bin/env bash
# Run the MCP conformance suite's server scenarios against the gateway: `pseudoclaude serve --mcp
# --http` in a throwaway home whose user config gives it two upstream servers over stdio: one
# that carries the tools, resources and prompts the scenarios name (fixture-server.ts), one whose
# tools run as tasks (plugins/mcp/test/fixtures/tasks.ts), renamed back to the names the suite asks for. The
# suite speaks only to the gateway, so what passes is the gateway's policy, naming, content,
# progress, tasks, resources and prompts path, in both protocol eras.
#
# Usage: test/conformance/run-server.sh [suite flags, e.g. --verbose]   (build first: npm run build)
# Runs the 2025-11-25 and 2026-07-28 requirement sets; the scenarios the gateway does not serve by
# design are listed, with the reason, in test/conformance/server-expected-failures.yaml. The suite
# fails on an unexpected failure and on an expected one that now passes (a stale baseline).
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)

CLI=node_modules/@modelcontextprotocol/conformance/dist/index.js
SHIM=test/conformance/node20-fs-shim.mjs
FIXTURE=test/dist/conformance/fixture-server.js
TASKS_FIXTURE=plugins/mcp/dist/test/fixtures/tasks.js
BIN=packages/cli/bin/pseudoclaude.js
EXPECTED=test/conformance/server-expected-failures.yaml
SCENARIO_TIMEOUT_MS=${CONFORMANCE_SERVER_TIMEOUT_MS:-30000}

for required in "$CLI" "$FIXTURE" "$TASKS_FIXTURE" "$BIN" packages/gateway/dist/src/index.js; do
  if [ ! -f "$required" ]; then
    echo "missing $required (run npm ci and npm run build first)" >&2
    exit 1
  fi
done

node_flags=()
if ! node -e 'process.exit(typeof require("node:fs").globSync === "function" ? 0 : 1)'; then
  node_flags=(--import "./$SHIM")
fi

base=$(mktemp -d)
gateway_pid=""
cleanup() {
  if [ -n "$gateway_pid" ] && kill -0 "$gateway_pid" 2>/dev/null; then
    kill -INT "$gateway_pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$gateway_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$gateway_pid" 2>/dev/null
  fi
  rm -rf "$base"
}
trap cleanup EXIT

mkdir -p "$base/home/.PseudoClaude" "$base/workspace"
cat >"$base/home/.PseudoClaude/config.yaml" <<YAML
mcp_servers:
  conformance:
    command: $(node -p 'JSON.stringify(process.execPath)')
    args: [$(node -p "JSON.stringify(require('path').resolve('$FIXTURE'))")]
  tasks:
    command: $(node -p 'JSON.stringify(process.execPath)')
    args: [$(node -p "JSON.stringify(require('path').resolve('$TASKS_FIXTURE'))")]
permissions:
  allow: ["mcp__conformance__*", "mcp__tasks__*"]
gateway:
  expose:
    allow: ["mcp:conformance", "mcp:tasks"]
  rename:
    "mcp__conformance__*": "*"
    "mcp__tasks__*": "*"
  audit: $base/audit.jsonl
YAML

# The gateway prints one JSON object once it listens: {"url","port","auth","tools"}.
HOME="$base/home" USERPROFILE="$base/home" \
  node "$BIN" serve --mcp --http 0 --no-auth --json --workspace "$base/workspace" \
  >"$base/ready.json" 2>"$base/gateway.log" &
gateway_pid=$!
url=""
for _ in $(seq 300); do
  url=$(node -e 'try { const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); process.stdout.write(r.url ?? "") } catch {}' "$base/ready.json")
  [ -n "$url" ] && break
  kill -0 "$gateway_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "the gateway did not start; its output:" >&2
  cat "$base/ready.json" "$base/gateway.log" >&2
  exit 1
fi
echo "gateway at $url ($(cat "$base/ready.json"))"

status=0
for requirements in 2025-11-25 2026-07-28; do
  echo "== conformance server --requirements $requirements"
  if ! node "${node_flags[@]}" "$CLI" server --url "$url" --requirements "$requirements" \
    --expected-failures "$EXPECTED" --timeout "$SCENARIO_TIMEOUT_MS" "$@"; then
    status=1
    echo "-- the gateway's log:"
    tail -n 40 "$base/gateway.log"
  fi
done

kill -0 "$gateway_pid" 2>/dev/null || { echo "the gateway exited during the run" >&2; status=1; }
exit "$status"
