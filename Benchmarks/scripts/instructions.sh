#!/usr/bin/env bash
# Instructions per payload of translating the benchmark mix and of the tokenizer pass over the same bytes,
# counted by valgrind's callgrind in translate-loop (Benchmarks/Sources/TranslateLoop): exact and
# repeatable, unlike times on a shared machine. Prints one line:
#
#   instructions: translate N per payload, tokenizer pass M per payload, ratio R
#
# Usage: instructions.sh TRANSLATE_LOOP [KIND]   (KIND: alert, alertWithActions, carousel, card, invalid)
set -euo pipefail
loop=$1
kind=${2:-}
rounds=5
payloads=$((rounds * 1000))
command -v valgrind >/dev/null || { echo "instructions.sh needs valgrind (apt-get install valgrind)" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# The instructions executed inside the function matching $2 (and what it calls) while running mode $1.
count() {
  valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="$2" "$loop" "$1" "$rounds" $kind \
    >/dev/null 2>&1
  awk '/^summary:/ { print $2 }' "$out"
}

translate=$(count translate '*mixRound*')
tokenizer=$(count tokenizer '*tokenizerRound*')
awk -v t="$translate" -v k="$tokenizer" -v n="$payloads" 'BEGIN {
  printf "instructions: translate %d per payload, tokenizer pass %d per payload, ratio %.2f\n", t / n, k / n, t / k
}'
