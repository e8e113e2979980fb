#!/usr/bin/env python3
"""The commit probe: is an input ever committed before every record it gives is readable?

  python3 Tests/Integration/commit_probe.py [--pushgate .build/debug/pushgate] [--brokers 1,3]
      [--records 6640] [--seconds 20] [--preload 20] [--repeat 1] [--refusals] [--interval 0.5] [--seed S]

Each run starts `pushgate broker --control` (8 partitions, 1 or 3 brokers) and one `pushgate run`
worker, and writes --records inputs with confluent-kafka: --preload percent (default 20) before the
worker starts, the rest paced over --seconds. The inputs are heavy in dead letters of every stage: the example and golden
payloads in turn, each one that gives a dead letter (parse, validate or emit stage) three times as often.
With --refusals the broker refuses some of the worker's records as too large (`error Produce
MSG_SIZE_TOO_LARGE 1-3`, every few seconds, with the probe's own producer paused), so that replacements
are written too.

While the worker runs, a `CommitSampler` (commit_watch.py) asks the broker every --interval seconds for
the group's committed offsets, then for the end offset of every output and dead-letter partition. At the
end the probe reads every record and checks, with what `pushgate translate` gives for each input:
- early commits: no input lay below a sampled committed offset while a record it gives (or its
  replacement) was not yet below its partition's end offset of that sample;
- nothing lost, nothing unexpected, and the committed offsets reach the input topic's end offsets.

It prints a line per run (samples taken, inputs the samples saw committed while the worker still worked,
early commits, commits logged by the broker, commits before appends, lost, wrong, replaced), then
`N passed, M failed`; the exit status is 1 when any run failed. A failed run's logs stay in the directory
printed at the start.
"""
import argparse
import json
import logging
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (INPUT_TOPIC, LOG, BackgroundReader, Broker, HarnessError, android_options,  # noqa: E402
                     committed_and_end_offsets, expected_outputs, output_topics, payloads, read_all, start_worker)
from commit_watch import (BrokerEvents, CommitSampler, checked_inputs, commits_before_appends,  # noqa: E402
                          describe_commit_before_append, describe_early, early_commits)
from matrix_cell import Feed  # noqa: E402
from output_check import REPLACED, VALUE_OMITTED, Expectation, describe  # noqa: E402

GROUP = "pushgate-commit-probe"
PARTITIONS = 8
KEYS = 97
REFUSAL = "MSG_SIZE_TOO_LARGE"
COMPLETION_TIMEOUT, COMMIT_TIMEOUT = 90, 30


def dead_letter_heavy(pushgate):
    """The example and golden payloads, each one that gives a dead letter three times."""
    corpus = payloads()
    result = subprocess.run([pushgate, "translate", "--lines"] + android_options(pushgate), input=b"\n".join(corpus) + b"\n",
                            capture_output=True)
    dead = set()
    for line in result.stdout.splitlines():
        record = json.loads(line)
        if record["format"] is None:
            source = dict(record["headers"])["__connect.errors.offset"]
            dead.add(int(source))
    if not dead:
        raise HarnessError("`pushgate translate` gave no dead letter for the corpus")
    return corpus + [corpus[index] for index in sorted(dead)] * 2


def refuse_now_and_then(broker, feed, rng, records, deadline):
    """Until `deadline`: a burst of inputs, then the broker refuses the next 1-3 produce requests as too
    large for a second, with the probe's own producer paused; every 3-5 s."""
    while time.monotonic() < deadline:
        time.sleep(rng.uniform(3.0, 5.0))
        feed.pause()
        feed.burst(max(1, records // 40))
        broker.control(f"error Produce {REFUSAL} {rng.randint(1, 3)}")
        time.sleep(1.0)
        broker.control("clear Produce")
        feed.resume()


def wait_for_commits(address, deadline):
    while time.monotonic() < deadline:
        committed, ends = committed_and_end_offsets(address, GROUP)
        if committed == ends:
            return None
        time.sleep(0.5)
    return f"committed {committed} != end offsets {ends}"


def probe(args, brokers, corpus, rng, directory):
    """One run; returns (failures, summary)."""
    failures = []
    broker = Broker(args.pushgate, PARTITIONS, brokers, os.path.join(directory, "broker.log"), trace_events=True)
    feed = Feed(broker.address, args.records, KEYS, corpus)
    worker = sampler = reader = None
    try:
        feed.burst(args.records * args.preload // 100)
        worker = start_worker(args.pushgate, broker.address, GROUP, "probe", os.path.join(directory, "worker.log"),
                              level="info", max_in_flight=args.max_in_flight)
        sampler = CommitSampler(broker.address, GROUP, output_topics(args.pushgate), args.interval)
        reader = BackgroundReader(broker.address, output_topics(args.pushgate))
        feed.start(args.seconds)
        if args.refusals:
            refuse_now_and_then(broker, feed, rng, args.records, time.monotonic() + args.seconds)
        feed.finish()
        inputs = read_all(broker.address, [INPUT_TOPIC], expect=args.records, idle=0.3, timeout=60)
        if len(inputs) != args.records:
            raise HarnessError(f"{len(inputs)} inputs read back of {args.records} written")
        expectation = Expectation(expected_outputs(args.pushgate, inputs), inputs, REFUSAL if args.refusals else None)
        if not reader.wait_until(expectation.complete, timeout=COMPLETION_TIMEOUT, idle=1.0, check_every=0.5):
            failures.append(f"outputs incomplete {COMPLETION_TIMEOUT} s after every input was written")
        elif (stalled := wait_for_commits(broker.address, time.monotonic() + COMMIT_TIMEOUT)):
            failures.append(stalled)
        time.sleep(2 * args.interval)
        samples = sampler.stop()
        records = reader.stop()
        if worker.poll() is not None:
            failures.append(f"the worker exited {worker.returncode} on its own")
        comparison = expectation.compare(records)
        early = early_commits(samples, expectation, records)
        # Inputs the samples saw committed while the worker still had work (the last sample comes after it).
        checked = checked_inputs(samples[:-1], expectation)
        if comparison.lost:
            failures.append(f"{len(comparison.lost)} expected records missing, e.g. "
                            + "; ".join(describe(r) for r in comparison.lost[:3]))
        if comparison.wrong:
            failures.append(f"{len(comparison.wrong)} records not expected, e.g. "
                            + "; ".join(describe(r) for r in comparison.wrong[:3]))
        events = BrokerEvents(broker.log_path, GROUP)
        before = commits_before_appends(events, expectation, records, INPUT_TOPIC)
        if before:
            failures.append(f"{len(before)} records appended after the commit of their input, e.g.\n"
                            + "\n".join(describe_commit_before_append(e) for e in before[:5]))
        if not events.commits:
            failures.append("the broker logged no commit of the group: the event order was not checked")
        if early:
            failures.append(f"{len(early)} records of committed inputs not readable when the commit was seen, e.g.\n"
                            + "\n".join(describe_early(e) for e in early[:5]))
        if args.refusals and not comparison.kinds[REPLACED] + comparison.kinds[VALUE_OMITTED]:
            failures.append("no replacement read: the refusals reached no worker request")
        summary = (f"samples={len(samples)} checked_inputs={checked} early_commits={len(early)} "
                   f"commits={len(events.commits)} commits_before_appends={len(before)} "
                   f"lost={len(comparison.lost)} wrong={len(comparison.wrong)} "
                   f"replaced={comparison.kinds[REPLACED] + comparison.kinds[VALUE_OMITTED]} "
                   f"records={len(records)}")
        return failures, summary
    finally:
        if sampler:
            sampler.stop()
        if reader:
            reader.stop(idle=0)
        feed.close()
        if worker and worker.poll() is None:
            worker.kill()
            worker.wait()
        broker.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pushgate", default=".build/debug/pushgate")
    parser.add_argument("--brokers", default="1,3", help="comma-separated broker counts, one run each")
    parser.add_argument("--records", type=int, default=6640)
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the inputs are paced over")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--preload", type=int, default=20, help="percent of the inputs written before the worker starts")
    parser.add_argument("--max-in-flight", type=int, default=None, help="the worker's bound (default: its own)")
    parser.add_argument("--refusals", action="store_true", help="the broker refuses records as too large")
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between samples")
    parser.add_argument("--seed", type=int, default=random.SystemRandom().randrange(10**6))
    args = parser.parse_args()
    LOG.setLevel(logging.WARNING)
    print(f"seed {args.seed}", flush=True)
    base = tempfile.mkdtemp(prefix="pushgate-commit-probe-")
    print(f"logs: {base}", flush=True)
    corpus = dead_letter_heavy(args.pushgate)
    passed = failed = 0
    for repetition in range(1, args.repeat + 1):
        for brokers in [int(b) for b in args.brokers.split(",")]:
            name = f"{repetition}-b{brokers}"
            directory = os.path.join(base, name)
            os.makedirs(directory)
            started = time.monotonic()
            try:
                failures, summary = probe(args, brokers, corpus, random.Random(f"{args.seed}/{name}"), directory)
            except HarnessError as error:
                failures, summary = [f"harness: {error}"], ""
            verdict = "FAIL" if failures else "PASS"
            print(f"run {repetition} brokers={brokers} refusals={'yes' if args.refusals else 'no'}: {verdict} "
                  f"{summary} seconds={time.monotonic() - started:.0f}", flush=True)
            for failure in failures:
                print("    " + failure.replace("\n", "\n      "), flush=True)
            if failures:
                failed += 1
            else:
                passed += 1
                shutil.rmtree(directory, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
