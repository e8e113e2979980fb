#!/usr/bin/env bash
# The README's console demo: `pushgate console` on its own embedded broker, a worker pointed at it, the
# example payloads and a few broken ones sent with kcat; the console's address is printed, and both keep
# serving until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/debug/pushgate}
port=${CONSOLE_PORT:-8081}
console_log=/tmp/pushgate-console.log
worker_log=/tmp/pushgate-run.log
out=$(mktemp)
"$bin" console --partitions 4 --port "$port" >"$out" 2>"$console_log" &
console=$!
worker=""
cleanup() {
  [ -n "$worker" ] && kill -TERM "$worker" 2>/dev/null && wait "$worker" 2>/dev/null || true
  kill -TERM "$console" 2>/dev/null && wait "$console" 2>/dev/null || true
  echo "console and worker stopped (logs: $console_log, $worker_log)"
}
trap cleanup EXIT
trap 'exit 0' INT TERM
for _ in $(seq 100); do [ "$(wc -l <"$out")" -ge 2 ] && break; sleep 0.1; done
broker=$(head -n 1 "$out")
[ -n "$broker" ] && grep -q "listening" "$out" || { echo "the console did not start; see $console_log"; cat "$console_log"; exit 1; }
"$bin" run --bootstrap-servers "$broker" --log-level warning -X session.timeout.ms=6000 2>"$worker_log" >/dev/null &
worker=$!
cat examples/payloads.jsonl examples/broken.jsonl | awk '{ printf "user-%d\t%s\n", NR, $0 }' \
  | kcat -P -b "$broker" -t push.unified -K $'\t' -H trace-id=demo
n=$(cat examples/payloads.jsonl examples/broken.jsonl | wc -l)
cat <<MSG
== pushgate console: http://127.0.0.1:$port/  (embedded broker at $broker, worker group pushgate)
== sent $n payloads to push.unified ($(wc -l < examples/broken.jsonl) of them broken on purpose): open the console, pick a
   dead letter, fix it in the editor and re-drive it. Logs: $console_log, $worker_log. Stop with Ctrl-C.
MSG
wait "$console"
