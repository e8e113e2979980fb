#!/usr/bin/env bash
# The README's run command: start the worker on an embedded broker, feed it the example payloads with
# kcat, print every record that lands (topic, key, format, first bytes) and keep serving until Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/debug/pushgate}
log=/tmp/pushgate-run.log
out=$(mktemp)
# Every Android format, as the binary lists them (`pushgate formats`).
android=$(python3 -c 'import sys; sys.path.insert(0, "scripts"); from pushgate_formats import names_for_platform
print(",".join(names_for_platform("android", sys.argv[1])))' "$bin")
"$bin" run --partitions 4 --log-level notice --android-formats "$android" >"$out" 2>"$log" &
worker=$!
viewer=""
cleanup() {
  [ -n "$viewer" ] && kill "$viewer" 2>/dev/null || true
  kill -TERM "$worker" 2>/dev/null && wait "$worker" 2>/dev/null || true
  echo "worker stopped (log: $log)"
}
trap cleanup EXIT
trap 'exit 0' INT TERM
for _ in $(seq 100); do [ -s "$out" ] && break; sleep 0.1; done
broker=$(head -n 1 "$out")
[ -n "$broker" ] || { echo "the worker did not start; see $log"; cat "$log"; exit 1; }
echo "== pushgate run: worker up, embedded broker at $broker (worker log: $log)"
python3 scripts/demo_viewer.py "$broker" "$bin" &
viewer=$!
awk '{ printf "user-%d\t%s\n", NR, $0 }' examples/payloads.jsonl \
  | kcat -P -b "$broker" -t push.unified -K $'\t' -H trace-id=demo
n=$(wc -l < examples/payloads.jsonl)
echo "== sent $n example payloads to push.unified; records appear below as the worker writes them"
cat <<MSG
== the worker keeps serving; send more from another terminal, then stop with Ctrl-C:
   echo '{"message":{"title":"Hi","body":"Hello from kcat"}}' | kcat -P -b $broker -t push.unified -k user-42
MSG
wait "$worker"
