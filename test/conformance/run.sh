#!/usr/bin/env bash
# Run the MCP conformance suite's client scenarios against our client (test/conformance/client.ts,
# which drives the real MCP plugin through a real agent). Scenarios run one at a time: sse-retry
# measures reconnect timing and fails on a busy machine when others run beside it.
#
# Usage: test/conformance/run.sh [scenario ...]   (build first: npx tsc -b)
# Ends with the line "N passed, M failed" and exits non-zero if any scenario failed.
set -uo pipefail
cd "$(dirname "$0")/../.."

CLI=node_modules/@modelcontextprotocol/conformance/dist/index.js
SHIM=test/conformance/node20-fs-shim.mjs
CLIENT=test/dist/conformance/client.js
# The suite's own limit on the client; the outer limit catches a suite that hangs itself.
CLIENT_TIMEOUT_MS=${CONFORMANCE_CLIENT_TIMEOUT_MS:-30000}
SCENARIO_TIMEOUT_S=${CONFORMANCE_SCENARIO_TIMEOUT_S:-60}

for required in "$CLI" "$CLIENT"; do
  if [ ! -f "$required" ]; then
    echo "missing $required (run npm ci and npx tsc -b first)" >&2
    echo "0 passed, 1 failed"
    exit 1
  fi
done

# The shim adds fs.globSync for the suite on Node 20 only; newer Node has it built in.
node_flags=()
if ! node -e 'process.exit(typeof require("node:fs").globSync === "function" ? 0 : 1)'; then
  node_flags=(--import "./$SHIM")
fi

# Every client scenario the pinned suite lists (48 in 0.2.0-alpha.12: the 2025-11-25 and 2026-07-28
# requirement sets and the extensions): none skipped, none expected to fail.
if [ "$#" -gt 0 ]; then
  scenarios=("$@")
else
  mapfile -t scenarios < <(node "${node_flags[@]}" "$CLI" list --client | sed -n 's/^  - \([^ ]*\).*/\1/p')
  if [ "${#scenarios[@]}" -eq 0 ]; then
    echo "the suite listed no client scenarios"
    echo "0 passed, 1 failed"
    exit 1
  fi
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
passed=0
failed=0
for scenario in "${scenarios[@]}"; do
  started=$(date +%s%N)
  # timeout signals its whole process group, so the suite's client child goes with it.
  timeout --kill-after=5 "$SCENARIO_TIMEOUT_S" \
    node "${node_flags[@]}" "$CLI" client \
    --command "node $CLIENT" \
    --scenario "$scenario" \
    --timeout "$CLIENT_TIMEOUT_MS" >"$log" 2>&1
  status=$?
  elapsed_ms=$((($(date +%s%N) - started) / 1000000))
  if [ "$status" -eq 0 ] && grep -q "OVERALL: PASSED" "$log"; then
    passed=$((passed + 1))
    echo "PASS $scenario (${elapsed_ms} ms)"
  else
    failed=$((failed + 1))
    [ "$status" -eq 124 ] && reason="timed out after ${SCENARIO_TIMEOUT_S} s" || reason="exit $status"
    echo "FAIL $scenario (${elapsed_ms} ms, $reason); last output:"
    tail -n "${CONFORMANCE_LOG_LINES:-40}" "$log" | sed 's/^/    /'
  fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
