#!/usr/bin/env bash
# The soak (not part of `make test`): 1,000,000 records through two workers of a release build on an
# embedded broker with 256 partitions (the mock keeps about 5 MiB per partition: 256 keeps every input
# and output), with three SIGKILLs, injected Produce/Fetch/OffsetCommit errors, the broker down and up
# and a rebalance; confluent-kafka checks 0 lost, 0 wrong, duplicates byte-identical and counted,
# per-key order, committed == end offsets, and the workers' peak RSS is printed.
#   scripts/soak.sh [RECORDS]
set -euo pipefail
cd "$(dirname "$0")/.."
records=${1:-1000000}
make --no-print-directory deps
swift build -c release --product pushgate
exec python3 Tests/Integration/worker_e2e.py --pushgate .build/release/pushgate --records "$records" --partitions 256 --soak
