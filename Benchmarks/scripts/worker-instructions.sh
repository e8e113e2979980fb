#!/usr/bin/env bash
# Instructions per input on the pipeline thread of `pushgate run` (the consumer's poll thread: reading
# each record, translating it, handing its outputs to librdkafka, serving the delivery reports), counted
# by valgrind's callgrind while the pipeline benchmark runs the worker once over RECORDS inputs. The
# count moves by well under 1% between runs (librdkafka's timing decides how records are batched),
# where times on a shared machine move by tens of percent: for comparing two builds of the worker.
# librdkafka's own threads and the broker are not counted. It also counts the atomic (lock-prefixed)
# instructions among them (callgrind's "global bus events"): reference counting, locks and atomic
# counters. Each costs tens of cycles where most instructions cost a fraction of one, so a change that
# removes atomics saves more time than its instruction count says. Prints one line:
#
#   worker instructions: N per input on the pipeline thread, A of them atomic (RECORDS inputs)
#
# With CALLGRIND_OUT=FILE the profile is kept there, for callgrind_annotate (symbols kept, debug info not).
#
# Usage: worker-instructions.sh PUSHGATE PIPELINE_BENCHMARK [RECORDS [OTEL_VARIABLE=VALUE ...]]
# With OTEL_* variables, the worker runs with them (the benchmark's worker-traced contender): the
# instructions of tracing on the pipeline thread (the exporter's own threads are not counted).
# PUSHGATE must be linked with --static-swift-stdlib (make build-release): valgrind 3.19 stops on the
# dynamic build while reading the symbols of the Swift runtime's ICU library.
set -euo pipefail
pushgate=$1
bench=$2
records=${3:-20000}
contender=(--contender worker)
if [ $# -gt 3 ]; then
  contender=(--contender worker-traced)
  for variable in "${@:4}"; do contender+=(--traced-env "$variable"); done
fi
command -v valgrind >/dev/null || { echo "worker-instructions.sh needs valgrind (apt-get install valgrind)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A copy without debug information: valgrind 3.19 cannot read the DWARF 5 that Swift writes.
strip --strip-debug -o "$work/pushgate" "$pushgate"
# The benchmark starts `pushgate broker` and `pushgate run` from the one executable: only `run` goes
# under callgrind, counting from the poll thread's loop down.
cat >"$work/pushgate-under-callgrind" <<WRAPPER
#!/bin/sh
if [ "\$1" = run ]; then
  exec valgrind --tool=callgrind --collect-bus=yes --callgrind-out-file="$work/callgrind.out" \
    --toggle-collect='*PollThreadC4loop*' "$work/pushgate" "\$@" 2>"$work/valgrind.log"
fi
exec "$work/pushgate" "\$@"
WRAPPER
chmod +x "$work/pushgate-under-callgrind"
# WORKER_BENCH_FLAGS: more options of the pipeline benchmark (e.g. --input-traceparent 1).
# shellcheck disable=SC2086
"$bench" --pushgate "$work/pushgate-under-callgrind" --records "$records" --runs 1 "${contender[@]}" \
  --timeout 900 ${WORKER_BENCH_FLAGS:-} >"$work/benchmark.log" 2>&1 || { cat "$work/benchmark.log" >&2; exit 1; }
if [ -n "${CALLGRIND_OUT:-}" ]; then cp "$work/callgrind.out" "$CALLGRIND_OUT"; fi
instructions=$(awk '/^summary:/ { print $2 }' "$work/callgrind.out" 2>/dev/null || true)
atomics=$(awk '/^summary:/ { print $3 }' "$work/callgrind.out" 2>/dev/null || true)
# Nothing counted means the poll thread's loop was not found by name (renamed or inlined): no figure at all
# rather than a wrong one.
if [ -z "$instructions" ] || [ "$instructions" -lt "$records" ]; then
  echo "worker-instructions.sh: callgrind counted no pipeline-thread work (is PollThread.loop still a function of its own?)" >&2
  tail -5 "$work/valgrind.log" >&2 2>/dev/null || true
  exit 1
fi
awk -v n="$instructions" -v a="${atomics:-0}" -v r="$records" 'BEGIN {
  printf "worker instructions: %d per input on the pipeline thread, %.1f of them atomic (%d inputs)\n", n / r, a / r, r
}'
