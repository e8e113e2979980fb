#!/usr/bin/env bash
# Heap allocations per translated payload. An LD_PRELOAD counter (scripts/malloc-count.c, built here
# with cc) counts every allocation of `pushgate bench translate --iterations N` and of the same command
# with 0 iterations; the difference over the payload count is the figure. It repeats exactly.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/pushgate}
payloads=${PAYLOADS:-1000}
lib=$(mktemp -d)/malloc-count.so
cc -O2 -shared -fPIC -o "$lib" scripts/malloc-count.c
allocs() {
  LD_PRELOAD="$lib" "$bin" bench translate --payloads "$payloads" --iterations "$1" 2>&1 >/dev/null \
    | sed -n 's/^malloc-count: //p'
}
base=$(allocs 0)
run=$(allocs 4)
echo "allocations per payload: $(( (run - base) / (4 * payloads) )) ($payloads-payload mix translated 4 times, LD_PRELOAD counter)"
