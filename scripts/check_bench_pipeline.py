#!/usr/bin/env python3
"""Smoke check of `pushgate bench pipeline` (not a measurement): a small run with every contender
against the embedded broker it starts must finish, give a row of figures for each contender (the
broker's CPU included), write exactly the records each was expected to write (the command prints a
`note:` line otherwise) and print the ratios.

Usage: scripts/check_bench_pipeline.py [PATH-TO-PUSHGATE]   (default .build/debug/pushgate)
"""
import math
import subprocess
import sys

CONTENDERS = ["floor", "passthrough", "raw", "worker"]


def main() -> int:
    binary = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/pushgate"
    command = [binary, "bench", "pipeline", "--records", "3000", "--partitions", "4", "--runs", "1", "--timeout", "90"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    output = result.stdout
    problems = []
    if result.returncode != 0:
        problems.append(f"exit {result.returncode}: {result.stderr[-500:]}")
    rows = {}
    for line in output.splitlines():
        fields = line.split()
        if len(fields) >= 11 and fields[0] == "1" and fields[1] in CONTENDERS:
            rows[fields[1]] = [float(value) for value in fields[2:11]]
        if line.strip().startswith("note:"):
            problems.append(f"unexpected record count: {line.strip()}")
    for contender in CONTENDERS:
        figures = rows.get(contender)
        if figures is None:
            problems.append(f"no row for {contender}")
            continue
        # written s, committed s, in rec/s, outputs/s, cpu us/input, cores, peak RSS MB, broker us/input, both cores.
        # A run this small can be written between two polls of the broker (written 0 s, rates infinite), and
        # the broker's CPU time, counted in clock ticks, can be 0: only presence and sign are checked.
        # The written window's figures (rates, both cores) have no meaning when it is empty.
        checked = figures if figures[0] > 0 else [figures[i] for i in (1, 4, 5, 6, 7)]
        if any(math.isnan(value) for value in checked):
            problems.append(f"{contender}: a figure is not a number: {figures}")
        elif figures[1] <= 0 or figures[4] <= 0 or figures[6] <= 0 or figures[7] < 0:
            problems.append(f"{contender}: committed s, CPU and peak RSS must be positive, broker CPU not negative: {figures}")
    for name in ["worker", "passthrough", "floor"]:
        if f"ratio {name} / raw:" not in output:
            problems.append(f"no ratio line for {name}")
    if "writing the outputs (floor)" not in output:
        problems.append("no line splitting the worker's CPU")
    for problem in problems:
        print(f"FAIL bench pipeline: {problem}")
    if problems:
        print(output)
        return 1
    print(f"bench pipeline smoke: {len(rows)} contenders, every figure present")
    return 0


if __name__ == "__main__":
    sys.exit(main())
