#!/usr/bin/env bash
# The soaks (not part of `make test`).
#
#   scripts/soak.sh [RECORDS] [PARTITIONS]
# 1,000,000 records through two workers of a release build on an embedded broker with 256 partitions,
# with three SIGKILLs, injected Produce/Fetch/OffsetCommit errors, the broker down and up and a
# rebalance; confluent-kafka checks 0 lost, 0 wrong, duplicates byte-identical and counted, per-key
# order, committed == end offsets, and the workers' peak RSS is printed.
# The embedded broker keeps about 5 MiB per partition and drops older records silently: keep RECORDS /
# PARTITIONS under about 2,000 (the dead-letter topic fills fastest), or the check waits for records the
# broker no longer has. It also slows down with many partitions (1,000,000 on 256: about 5 minutes to
# write and as long to read back, on the 2 shared cores of the machine this was written on).
#
#   scripts/soak.sh --matrix N [--seed S]
# The fault matrix (Tests/Integration/fault_matrix.py, docs/testing.md, "The fault matrix") N times over: every
# cell, 1 and 3 brokers, alone and paired with a rebalance, with random timings from a seed printed
# first (`--seed S` replays its choices). It uses the debug build, the one `make test` runs the matrix's
# sample with, so timings are those of the sample. 12-14 minutes a repetition.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--matrix" ]; then
  usage="usage: scripts/soak.sh --matrix N [--seed S]"
  seed=$(( (RANDOM << 15 | RANDOM) % 1000000 ))
  case $# in
    2) ;;
    4) [ "$3" = "--seed" ] || { echo "$usage" >&2; exit 64; }; seed=$4 ;;
    *) echo "$usage" >&2; exit 64 ;;
  esac
  repetitions=$2
  echo "soak: the fault matrix $repetitions times, seed $seed"
  make --no-print-directory deps
  swift build --product pushgate
  exec python3 Tests/Integration/fault_matrix.py --pushgate .build/debug/pushgate --repeat "$repetitions" --seed "$seed"
fi
records=${1:-1000000}
partitions=${2:-256}
make --no-print-directory deps
swift build -c release --product pushgate
# 4,099 keys spread the records over every partition (101 keys on 256 partitions leave most of them
# empty and overfill the rest past what the embedded broker keeps).
exec python3 Tests/Integration/worker_e2e.py --pushgate .build/release/pushgate --records "$records" --partitions "$partitions" --keys 4099 --soak
