#!/usr/bin/env python3
"""The translation line of `make bench`, from the translation benchmarks' results exported as JMH JSON
(`swift package benchmark baseline read NAME --format jmh`):

    translate: N payloads/s, F x the tokenizer pass, A allocations per payload, medians M% and T% above the fastest iterations

N: payloads of the mix translated per second on one thread (median iteration); F: the median time to
translate the mix over the median time of the tokenizer pass over the same bytes; A: allocations (the
library's mallocCountTotal, median) per payload of the mix; M and T: how far the median iteration of the
mix and of the tokenizer pass sat above their fastest iteration. On a quiet machine both are a few
percent; a run disturbed by other load shows larger ones, and its N and F are then not the code's. One
iteration is 1,000 payloads (TranslateSet.count, the benchmarks' scaling factor).

Usage: translate_summary.py RESULTS.jmh.json
"""
import json
import sys

PAYLOADS_PER_ITERATION = 1000


def metrics(element):
    """The benchmark's name and its metrics by description, the throughput included."""
    name = element["benchmark"].rsplit(".", 1)[-1]
    found = {"throughput": element["primaryMetric"]}
    found.update(element.get("secondaryMetrics", {}))
    return name, found


def median(found, words):
    """The median of the metric whose description contains every one of `words` (case ignored)."""
    for description, metric in found.items():
        if all(word in description.lower() for word in words):
            return metric["scorePercentiles"]["50.0"]
    raise SystemExit(f"no metric {' '.join(words)} in {sorted(found)}")


def fastest(found, words):
    """The fastest iteration (lowest percentile) of the metric whose description contains `words`."""
    for description, metric in found.items():
        if all(word in description.lower() for word in words):
            percentiles = metric["scorePercentiles"]
            return percentiles.get("0.0", min(percentiles.values()))
    raise SystemExit(f"no metric {' '.join(words)} in {sorted(found)}")


def above(median_value, fastest_value):
    """How far `median_value` sits above `fastest_value`, in whole percent."""
    return round(100 * (median_value / fastest_value - 1)) if fastest_value > 0 else 0


def main():
    with open(sys.argv[1]) as file:
        elements = json.load(file)
    results = dict(metrics(element) for element in elements)
    try:
        mix, tokenizer = results["translate-mix"], results["tokenizer-pass-mix"]
    except KeyError as missing:
        raise SystemExit(f"no benchmark {missing} in {sorted(results)}")
    wall = median(mix, ["wall"])  # microseconds per iteration
    tokenizer_wall = median(tokenizer, ["wall"])
    allocations = median(mix, ["malloc", "total"])
    spread = (above(wall, fastest(mix, ["wall"])), above(tokenizer_wall, fastest(tokenizer, ["wall"])))
    print(f"translate: {PAYLOADS_PER_ITERATION / (wall / 1e6):.0f} payloads/s, "
          f"{wall / tokenizer_wall:.1f} x the tokenizer pass, "
          f"{allocations / PAYLOADS_PER_ITERATION:.2f} allocations per payload, "
          f"medians {spread[0]}% and {spread[1]}% above the fastest iterations")


if __name__ == "__main__":
    main()
