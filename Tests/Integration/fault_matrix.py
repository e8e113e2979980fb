#!/usr/bin/env python3
"""The fault matrix: `pushgate run` workers against `pushgate broker --control` with 1 and 3 brokers,
one fault per cell, alone and paired with a rebalance in progress, checked with confluent-kafka.

  python3 Tests/Integration/fault_matrix.py [--pushgate .build/debug/pushgate] [--seed S]
      [--cells PATTERN,...] [--sample K] [--records 3000] [--repeat N] [--verbose] [--keep-logs]

A cell is NAME:bBROKERS:alone|paired, e.g. `too_large:b3:paired`; `--cells` takes shell patterns
matched against it, or against NAME alone for a pattern without ':' (`too_large`, `*:b1:*`).
Faults (NAME), each with 1 and 3 brokers:
  too_large          `error Produce MSG_SIZE_TOO_LARGE|INVALID_MSG_SIZE|RECORD_LIST_TOO_LARGE 1-3`
  produce_retriable  `error Produce NOT_LEADER_FOR_PARTITION|NOT_ENOUGH_REPLICAS 2-8`
  fetch_error        `error Fetch NOT_LEADER_FOR_PARTITION|UNKNOWN_TOPIC_OR_PART|KAFKA_STORAGE_ERROR 1-6`
  commit_error       `error OffsetCommit REBALANCE_IN_PROGRESS|NOT_COORDINATOR|ILLEGAL_GENERATION 1-4`
  broker_down        `down B`, 1-4 s, `up B`
  latency            `rtt B 25|100|300` for 2-5 s
  join               a member joins
  sigkill            a member is killed with SIGKILL, and a new one starts 0-2 s later
  sigterm            a member gets SIGTERM and must exit 0
  sigterm_outage     a member gets SIGTERM as every broker goes down; it must exit 0 within its
                     --shutdown-timeout (5 s) and 4 s, the brokers still down, by its own stop sequence
                     (not the timeout's last resort, which a commit without a deadline would need);
                     then they come back
  outage_sigterm     every broker goes down, a member gets SIGTERM 0.5-2 s later; the same check
Alone, the fault lands 0-2.5 s after the first assignment, while inputs flow. Paired, a rebalance
starts first (a member joins, or one gets SIGTERM and leaves; for broker_down and the outage cells only
the latter, see FAULTS) and the fault lands 0-3 s later, while the group rebalances. Produce errors are injected with the cell's own input producer paused, after a
burst of inputs, so that they land on the workers' requests; errors no request took are cleared after
the window (2 s alone, 7 s paired: a rebalance on the mock takes about 5 s).

Each cell writes --records inputs (a fifth before the workers start, the rest paced over 8 s; varied
keys, payloads valid for one or several formats or invalid), then checks:
- every output and dead letter `pushgate translate` gives is there (lost), nothing else (wrong), extra
  copies only byte-identical duplicates (counted); in too_large cells a record may instead be its
  replacement (README, "A record the broker refuses as too large"; counted as replaced);
- per output topic and key, first occurrences follow input order (a replacement dead letter, written
  when the refusal comes back, is not held to it);
- no commit comes before the records of the inputs it covers: in the broker's own order of appends and
  commits (`pushgate broker --trace-events`), and in samples of the committed and end offsets taken
  every second while the cell runs (commit_watch.py);
- outputs complete within 45 s once every input is written, committed offsets at the end offsets
  within 20 s after; in too_large cells at least one replacement (the refusals reached a worker);
- every worker still runs (no fatal error is provoked), exits 0 on SIGTERM, and the group's committed
  offsets equal the input topic's end offsets at the end;
- alone, with one member and a fault that does not touch the group (too_large, produce_retriable,
  fetch_error, latency), the member is never revoked;
- the embedded broker is still running; when it crashed (librdkafka 2.0.2's mock group coordinator can
  abort during a rejoin), the cell runs once more with other choices, and that run decides.

Random choices (rebalance trigger, when the fault lands, error codes and counts, broker, victim) come
from `random.Random` seeded with the seed, the repetition and the cell, so `--seed S --cells CELL`
replays one cell of a larger run; `--sample K` picks K cells with the seed. The seed is printed first,
then a line per cell, then `N passed, M failed`; the exit status is 1 when any cell failed. A failed
cell's events, example records and worker log tails follow its line; its logs stay in the directory
printed at the start (passed cells' logs are removed unless --keep-logs).
"""
import collections
import logging
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from confluent_kafka import KafkaException  # noqa: E402

from harness import (INPUT_TOPIC, LOG, output_topics, BackgroundReader, Broker, HarnessError,  # noqa: E402
                     committed_and_end_offsets, expected_outputs, read_all)
from commit_watch import (BrokerEvents, CommitSampler, commits_before_appends,  # noqa: E402
                          describe_commit_before_append, describe_early, early_commits)
from matrix_cell import ASSIGNED, LAST_RESORT, REVOKED, Feed, Workers, log_tail  # noqa: E402
from matrix_driver import Matrix, crash_summary, print_failure, replay_command  # noqa: E402
from output_check import REPLACED, VALUE_OMITTED, WRITTEN, Expectation, describe, order_violations  # noqa: E402

GROUP = "pushgate-matrix"
PARTITIONS = 6
KEYS = 97
PRELOAD_PERCENT, BURST_PERCENT = 20, 15
FEED_SECONDS = 8.0
ASSIGN_TIMEOUT, COMPLETION_TIMEOUT, COMMIT_TIMEOUT = 20, 45, 20
# Every worker's --shutdown-timeout, in seconds, and what the outage cells allow beyond it. Below the
# workers' session.timeout.ms (6 s, harness.QUICK): an unbounded commit then cannot be ended by
# librdkafka's own session expiry (which fails it with _WAIT_COORD) before the timeout.
SHUTDOWN_SECONDS, SHUTDOWN_MARGIN = 5, 4

BROKER_CRASHED = "broker crashed"

Fault = collections.namedtuple("Fault", "name apply members stable triggers", defaults=[("join", "leave")])


def produce_errors(run, code, count):
    """Produce errors for the workers' requests alone (see the module's description)."""
    run.feed.pause()
    run.feed.burst(run.records * BURST_PERCENT // 100)
    request_errors(run, "Produce", code, count)
    run.feed.resume()


def request_errors(run, api, code, count):
    run.control(f"error {api} {code} {count}")
    time.sleep(run.window)
    run.control(f"clear {api}")


def too_large(run):
    run.refused_reason = run.rng.choice(["MSG_SIZE_TOO_LARGE", "INVALID_MSG_SIZE", "RECORD_LIST_TOO_LARGE"])
    produce_errors(run, run.refused_reason, run.rng.randint(1, 3))


def produce_retriable(run):
    produce_errors(run, run.rng.choice(["NOT_LEADER_FOR_PARTITION", "NOT_ENOUGH_REPLICAS"]), run.rng.randint(2, 8))


def fetch_error(run):
    code = run.rng.choice(["NOT_LEADER_FOR_PARTITION", "UNKNOWN_TOPIC_OR_PART", "KAFKA_STORAGE_ERROR"])
    request_errors(run, "Fetch", code, run.rng.randint(1, 6))


def commit_error(run):
    code = run.rng.choice(["REBALANCE_IN_PROGRESS", "NOT_COORDINATOR", "ILLEGAL_GENERATION"])
    request_errors(run, "OffsetCommit", code, run.rng.randint(1, 4))


def broker_down(run):
    broker = run.rng.randint(1, run.brokers)
    run.control(f"down {broker}")
    time.sleep(run.rng.uniform(1.0, 4.0))
    run.control(f"up {broker}")


def latency(run):
    broker = run.rng.randint(1, run.brokers)
    run.control(f"rtt {broker} {run.rng.choice([25, 100, 300])}")
    time.sleep(run.rng.uniform(2.0, 5.0))
    run.control(f"rtt {broker} 0")


def join(run):
    run.workers.start()


def sigkill(run):
    victim = run.rng.choice(run.workers.live())
    run.note(f"SIGKILL worker {victim}")
    run.workers.kill(victim)
    time.sleep(run.rng.uniform(0.0, 2.0))
    run.workers.start()


def sigterm(run):
    victim = run.rng.choice(run.workers.live())
    run.note(f"SIGTERM worker {victim}")
    run.workers.terminate(victim)


def sigterm_outage(run):
    """SIGTERM and every broker down at the same moment (SPEC 7: the worker still exits 0 in time)."""
    shutdown_in_outage(run, lambda victim: (run.workers.terminate(victim), every_broker(run, "down")))


def outage_sigterm(run):
    """Every broker down, then SIGTERM 0.5-2 s later."""
    def fault(victim):
        every_broker(run, "down")
        time.sleep(run.rng.uniform(0.5, 2.0))
        run.workers.terminate(victim)
    shutdown_in_outage(run, fault)


def every_broker(run, command):
    for broker in range(1, run.brokers + 1):
        run.control(f"{command} {broker}")


def shutdown_in_outage(run, fault):
    """Lands `fault` on a member and checks it exits 0 within its --shutdown-timeout (plus a margin) while
    the brokers are still down; then brings them back for the others to finish."""
    victim = run.rng.choice(run.workers.live())
    run.note(f"outage and SIGTERM of worker {victim}")
    fault(victim)
    status, took = run.workers.wait_exit(victim, SHUTDOWN_SECONDS + SHUTDOWN_MARGIN)
    run.note(f"worker {victim} exited {status} {took:.1f} s after SIGTERM")
    if status != 0:
        run.fail("bounded shutdown", f"worker {victim} " + (f"exited {status}" if status is not None else
                 f"still ran {SHUTDOWN_SECONDS + SHUTDOWN_MARGIN} s") + " after SIGTERM with the brokers down")
    elif LAST_RESORT.search(run.workers.log(victim)):
        run.fail("bounded shutdown", f"worker {victim} was ended by the shutdown timeout's last resort: a step "
                 "of its stop sequence waited past its share (a call to the cluster without a deadline)")
    every_broker(run, "up")


# members: how many workers run before the fault (paired with a member leaving: one more).
# stable: alone, no rebalance may happen at all.
# triggers: the rebalances a paired cell starts with. A broker taken down while a member joins makes
# librdkafka 2.0.2's mock abort (rdkafka_mock_cgrp.c:567) in most runs (4 of 5 tried; 0 of 8 with a
# member leaving), so broker_down and the outage cells pair with a member leaving only.
FAULTS = [Fault("too_large", too_large, 1, True), Fault("produce_retriable", produce_retriable, 1, True),
          Fault("fetch_error", fetch_error, 1, True), Fault("commit_error", commit_error, 1, False),
          Fault("broker_down", broker_down, 1, False, ("leave",)), Fault("latency", latency, 1, True),
          Fault("join", join, 1, False), Fault("sigkill", sigkill, 2, False), Fault("sigterm", sigterm, 2, False),
          Fault("sigterm_outage", sigterm_outage, 2, False, ("leave",)),
          Fault("outage_sigterm", outage_sigterm, 2, False, ("leave",))]
CELLS = [(fault, brokers, paired) for fault in FAULTS for brokers in (1, 3) for paired in (False, True)]


def cell_id(fault, brokers, paired):
    return f"{fault.name}:b{brokers}:{'paired' if paired else 'alone'}"


class Run:
    """One cell being run: its broker, feed, workers, random choices, event trail and failures."""

    def __init__(self, args, cell, rng, directory):
        self.fault, self.brokers, self.paired = cell
        self.rng, self.records, self.pushgate = rng, args.records, args.pushgate
        self.window = 7.0 if self.paired else 2.0
        self.refused_reason, self.failures, self.events, self.late, self.reader = None, [], [], 0, None
        self.sampler, self.samples, self.commits = None, [], 0
        self.started = time.monotonic()
        self.verbose = args.verbose
        self.broker = Broker(args.pushgate, PARTITIONS, self.brokers, os.path.join(directory, "broker.log"),
                             trace_events=True)
        self.feed = Feed(self.broker.address, self.records, KEYS)
        self.workers = Workers(args.pushgate, self.broker.address, GROUP, directory,
                               shutdown_timeout=f"{SHUTDOWN_SECONDS}s")

    def note(self, text):
        line = f"+{time.monotonic() - self.started:5.1f}s {text}"
        self.events.append(line)
        if self.verbose:
            print(f"    {line}", flush=True)

    def control(self, command):
        self.broker.control(command)

    def fail(self, check, detail):
        self.failures.append((check, detail))


class Trail(logging.Handler):
    """Puts the harness's progress lines (broker commands, workers started) into the run's events."""

    def __init__(self, run):
        super().__init__()
        self.run = run

    def emit(self, record):
        self.run.note(record.getMessage())


def drive(run):
    """Starts the workers, writes the inputs and lands the fault; returns once every input is written."""
    run.feed.burst(run.records * PRELOAD_PERCENT // 100)
    trigger = run.rng.choice(run.fault.triggers) if run.paired else None
    names = [run.workers.start() for _ in range(run.fault.members + (trigger == "leave"))]
    for name in run.workers.wait_assigned(names, ASSIGN_TIMEOUT):
        run.fail("no assignment", f"worker {name} had no partitions {ASSIGN_TIMEOUT} s after it started")
    run.note("initial workers assigned")
    run.sampler = CommitSampler(run.broker.address, GROUP, output_topics(run.pushgate), interval=1.0)
    run.feed.start(FEED_SECONDS)
    if trigger:
        time.sleep(run.rng.uniform(0.5, 2.0))
        start_rebalance(run, trigger)
        time.sleep(run.rng.uniform(0.0, 3.0))
    else:
        time.sleep(run.rng.uniform(0.0, 2.5))
    run.note(f"fault {run.fault.name}")
    run.fault.apply(run)
    run.feed.finish()
    run.note("fault over, every input written")


def start_rebalance(run, trigger):
    """A member joins, or the last one started gets SIGTERM and leaves."""
    if trigger == "join":
        run.note("rebalance: a member joins")
        run.workers.start()
    else:
        leaving = run.workers.live()[-1]
        run.note(f"rebalance: SIGTERM worker {leaving}, which leaves")
        run.workers.terminate(leaving)


def check(run):
    """Waits for the outputs and commits, stops the workers and checks everything; returns the comparison."""
    inputs = read_all(run.broker.address, [INPUT_TOPIC], expect=run.records, idle=0.3, timeout=60)
    if len(inputs) != run.records:
        raise HarnessError(f"{len(inputs)} inputs read back of {run.records} written")
    expectation = Expectation(expected_outputs(run.pushgate, inputs), inputs, run.refused_reason)
    reader = run.reader = BackgroundReader(run.broker.address, output_topics(run.pushgate))
    reader.wait_until(lambda records: not run.workers.live() or expectation.complete(records),
                      timeout=COMPLETION_TIMEOUT, idle=1.0, check_every=0.5)
    if not expectation.complete(reader.snapshot()):
        run.fail("stall", f"outputs incomplete {COMPLETION_TIMEOUT} s after every input was written"
                 if run.workers.live() else "outputs incomplete and no worker left running")
    else:
        wait_for_commits(run)
    for name, code in run.workers.exited_on_their_own().items():
        run.fail("worker stopped", f"worker {name} exited {code} without a signal")
    check_no_rebalance(run)
    for name in run.workers.live():
        run.workers.terminate(name)
    for name, how in run.workers.signalled.items():
        if how == "SIGTERM" and (status := run.workers.exit_status(name)) != 0:
            run.fail("SIGTERM", f"worker {name} " + (f"exited {status}" if status is not None
                                                      else "still ran 60 s") + " after SIGTERM")
    records = reader.stop()
    run.samples = run.sampler.stop()
    run.note(f"{len(records)} output records read, {len(run.samples)} commit samples")
    committed, ends = committed_and_end_offsets(run.broker.address, GROUP)
    if committed != ends:
        run.fail("offsets", f"after the workers stopped, committed {committed} != end offsets {ends}")
    return compare(run, expectation, records)


def wait_for_commits(run):
    deadline = time.monotonic() + COMMIT_TIMEOUT
    while (offsets := committed_and_end_offsets(run.broker.address, GROUP))[0] != offsets[1]:
        if time.monotonic() > deadline or not run.workers.live():
            run.fail("commit stall", f"every output read, but committed {offsets[0]} != end offsets "
                     f"{offsets[1]} {COMMIT_TIMEOUT} s later")
            return
        time.sleep(0.5)


def check_no_rebalance(run):
    """Alone, with a fault that leaves the group alone, the one member keeps its first assignment."""
    if run.paired or not run.fault.stable:
        return
    lines = run.workers.log("a").splitlines()
    assigned = [line for line in lines if ASSIGNED.search(line)]
    revoked = [line for line in lines if REVOKED.search(line)]
    if revoked or len(assigned) != 1:
        run.fail("rebalance", "the only member was revoked though no member joined or left:\n"
                 + "\n".join(line[:110] for line in sorted(assigned + revoked)[:4]))


def compare(run, expectation, records):
    comparison = expectation.compare(records)
    if comparison.lost:
        run.fail("lost", f"{len(comparison.lost)} expected records missing, e.g.\n"
                 + "\n".join(describe(record) for record in comparison.lost[:3]))
    if comparison.wrong:
        run.fail("wrong", f"{len(comparison.wrong)} records not expected, e.g.\n"
                 + "\n".join(describe(record) for record in comparison.wrong[:3]))
    if run.refused_reason and not comparison.kinds[REPLACED] + comparison.kinds[VALUE_OMITTED]:
        run.fail("fault missed", "no replacement read: the refusals reached no worker request")
    check_commit_order(run, expectation, records)
    violations, run.late = order_violations(records, exempt=lambda record: expectation.kind(record) != WRITTEN)
    if violations:
        run.fail("order", f"{len(violations)} (topic, key) out of input order, e.g. "
                 + "; ".join(f"{topic} key {key!r}: input {before} before {after}"
                             for (topic, key), before, after in violations[:3]))
    return comparison


def check_commit_order(run, expectation, records):
    """Every commit came after its inputs' records, in the broker's own order of events and in the samples
    taken while the cell ran (commit_watch.py)."""
    events = BrokerEvents(run.broker.log_path, GROUP)
    run.commits = len(events.commits)
    if not events.commits:
        run.fail("early commit", "the broker logged no commit of the group: the order was not checked")
    if (before := commits_before_appends(events, expectation, records, INPUT_TOPIC)):
        run.fail("early commit", f"{len(before)} records appended after the commit of their input, e.g.\n"
                 + "\n".join(describe_commit_before_append(e) for e in before[:3]))
    if (early := early_commits(run.samples, expectation, records)):
        run.fail("early commit", f"{len(early)} records of inputs seen committed were not readable then, e.g.\n"
                 + "\n".join(describe_early(e) for e in early[:3]))


def run_cell(args, cell, rng, directory):
    """Runs one cell; returns the Run (its failures) and the comparison (None if checks did not finish)."""
    os.makedirs(directory, exist_ok=True)
    run = Run(args, cell, rng, directory)
    trail = Trail(run)
    LOG.addHandler(trail)
    comparison = None
    try:
        drive(run)
        comparison = check(run) if run.broker.alive() else None
    except (HarnessError, KafkaException) as error:
        run.fail("harness", str(error))
    finally:
        LOG.removeHandler(trail)
        if run.reader:
            run.reader.stop(idle=0)
        if run.sampler:
            run.sampler.stop()
        run.feed.close()
        run.workers.kill_all()
        if not run.broker.alive():
            run.fail(BROKER_CRASHED, f"the embedded broker exited {run.broker.process.returncode}: "
                     + crash_summary(run.broker.log_path))
        run.broker.stop()
    return run, comparison


def report(run, comparison, cell, seconds, seed, repetition, attempt):
    """The cell's line, and for a failed cell what to look at."""
    fault, brokers, paired = cell
    counts = ("lost=? wrong=? duplicates=?" if comparison is None else
              f"lost={len(comparison.lost)} wrong={len(comparison.wrong)} duplicates={comparison.duplicates}")
    extra = ""
    if comparison is not None and fault.name == "too_large":
        extra = (f" replaced={comparison.kinds[REPLACED]} value_omitted={comparison.kinds[VALUE_OMITTED]}"
                 f" late_replacements={run.late}")
    checks = list(dict.fromkeys(check for check, _ in run.failures))
    verdict = f"FAIL ({', '.join(checks)})" if checks else "PASS"
    print(f"cell {fault.name} brokers={brokers} paired={'yes' if paired else 'no'}: {verdict} {counts} "
          f"commits={run.commits} samples={len(run.samples)} seconds={seconds:.1f}{extra}", flush=True)
    if checks:
        print_failure(run, run.workers, log_tail,
                      replay_command("fault_matrix.py", seed, cell_id(*cell), repetition, attempt))


MATRIX = Matrix(CELLS, cell_id, run_cell, report, BROKER_CRASHED, "pushgate-matrix")


def main():
    args = Matrix.arguments(__doc__, records=3000)
    LOG.setLevel(logging.INFO)
    LOG.propagate = False
    MATRIX.main(args)


if __name__ == "__main__":
    main()
