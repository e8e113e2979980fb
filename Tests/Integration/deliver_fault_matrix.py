#!/usr/bin/env python3
"""The deliver fault matrix: `pushgate deliver` (1 or 2 processes in one group) against `pushgate broker --control`
and a stand-in push service run with --control, one fault per cell, alone and paired with a rebalance, checked with
confluent-kafka and the stand-in's own request log.

  python3 Tests/Integration/deliver_fault_matrix.py [--pushgate .build/debug/pushgate] [--seed S]
      [--cells PATTERN,...] [--sample K] [--records 1000] [--repeat N] [--verbose] [--keep-logs]

A cell is NAME:PLATFORM:alone|paired, e.g. `goaway:apns:paired`; `--cells` takes shell patterns matched against
it, or against NAME alone for a pattern without ':' (`sigkill`, `*:apns:*`). Faults (NAME):
  sigkill       a deliver is killed with SIGKILL; a new one starts 0-2 s later
  broker_down   `down 1` for 10 s, then `up 1` (the cell's only broker)
  unavailable   the stand-in answers every request 503 for UNAVAILABLE_SECONDS (15 s, see below)
  goaway        the stand-in sends GOAWAY after every 1,000th request of a connection, from then to the end
  silent        the stand-in answers no request for 10 s; the delivers run with --request-timeout 2s
  credentials   the stand-in refuses the credentials for 15 s (APNs: 403 InvalidProviderToken)
Alone, one deliver runs and the fault lands 0-2.5 s after its first assignment, while records flow. Paired, a
rebalance starts first (a second deliver joins, or one of two gets SIGTERM and leaves; broker_down pairs with a
member leaving only: librdkafka 2.0.2's mock can abort when a broker goes down during a join) and the fault lands
0-3 s later. The 503 window is 15 s, not 30: a push refused at the window's start is tried again after 1, 2, 4, 8
and 16 s (SPEC 10.6), so a 30 s window ends in a 32 s back-off and a cell of two minutes; 15 s ends within the
fourth.

Each cell puts DEVICES devices (4) for each of 50 audiences in the directory, then writes --records records to the
delivered topic (a fifth before the delivers start, the rest paced over 8 s), each to one audience: records x 4
(record, device) pairs. The delivers run with --receipts all and --shutdown-timeout 5s. Then it checks:
- every pair has a final outcome, `delivered` (receipts; none is expected to fail), within 120 s of the fault's end;
- 0 receipts missing: every pair the stand-in answered 200 has a `delivered` receipt, and every receipt names a
  pair of the cell and the partition and offset its record was written at;
- duplicates (a pair's second receipt, a pair answered 200 twice) are counted, not failed (SPEC 10.6: at least
  once);
- the committed offsets of the group reach the end offsets within 30 s of the last receipt, and still equal them
  after every deliver stopped;
- the fault reached the delivers (the stand-in answered some request 503, refused credentials, left one
  unanswered, or a connection reached 1,000 requests; a kill came before every pair was answered);
- no deliver exited unless signalled; every SIGTERM ends its deliver with status 0 within its --shutdown-timeout
  and 2 s (the process's own start and exit);
- the embedded broker still runs; when it crashed (librdkafka 2.0.2's mock can abort on `down` or during a
  rejoin), the cell runs once more with other choices, and that run decides.

Random choices (rebalance trigger, when the fault lands, the victim) come from `random.Random` seeded with the
seed, the repetition and the cell, so `--seed S --cells CELL` replays one cell of a larger run. The seed is printed
first, then a line per cell, then `N passed, M failed`; the exit status is 1 when any cell failed. A failed cell's
events and deliver log tails follow its line; its logs stay in the directory printed at the start.
"""
import collections
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from confluent_kafka import KafkaException  # noqa: E402

from deliver_cell import Delivers, Feed, StandIn, committed_and_ends, put_devices, read_receipts  # noqa: E402
from deliver_platforms import PLATFORMS  # noqa: E402
from harness import Broker, HarnessError  # noqa: E402
from matrix_driver import Matrix, crash_summary, print_failure, replay_command  # noqa: E402

GROUP = "pushgate-deliver-matrix"
PARTITIONS = 4
AUDIENCES, DEVICES = 50, 4
PRELOAD_PERCENT, FEED_SECONDS = 20, 8.0
ASSIGN_TIMEOUT, COMPLETION_TIMEOUT, COMMIT_TIMEOUT = 30, 120, 30
SHUTDOWN_SECONDS, SHUTDOWN_MARGIN = 5, 2
BROKER_DOWN_SECONDS, UNAVAILABLE_SECONDS, SILENT_SECONDS, CREDENTIAL_SECONDS = 10, 15, 10, 15
GOAWAY_EVERY = 1000
BROKER_CRASHED = "broker crashed"

Fault = collections.namedtuple("Fault", "name apply triggers request_timeout", defaults=[("join", "leave"), "10s"])


def sigkill(run):
    victim = run.rng.choice(run.delivers.live())
    run.answered_before_kill = len(run.answered_pairs())
    run.note(f"SIGKILL deliver {victim} ({run.answered_before_kill} pairs answered 200 so far)")
    run.delivers.kill(victim)
    time.sleep(run.rng.uniform(0.0, 2.0))
    run.note(f"deliver {run.delivers.start()} started")


def broker_down(run):
    run.control("down 1")
    time.sleep(BROKER_DOWN_SECONDS)
    run.control("up 1")


def window(command, seconds):
    def fault(run):
        run.standin_control(f"{command} {seconds}")
        time.sleep(seconds)
    return fault


def goaway(run):
    run.standin_control(f"goaway-every {GOAWAY_EVERY}")


FAULTS = [Fault("sigkill", sigkill), Fault("broker_down", broker_down, ("leave",)),
          Fault("unavailable", window("unavailable", UNAVAILABLE_SECONDS)), Fault("goaway", goaway),
          Fault("silent", window("silent", SILENT_SECONDS), request_timeout="2s"),
          Fault("credentials", window("refuse-credentials", CREDENTIAL_SECONDS))]
FAULTS_BY_NAME = {fault.name: fault for fault in FAULTS}
# Every fault on APNs; on FCM and web push, the faults their stand-ins answer differently.
CELLS = ([(fault, "apns", paired) for fault in FAULTS for paired in (False, True)]
         + [(FAULTS_BY_NAME[name], platform, False) for platform, names in
            (("fcm", ("unavailable", "credentials")), ("webpush", ("goaway", "credentials")))
            for name in names])


def cell_id(fault, platform, paired):
    return f"{fault.name}:{platform}:{'paired' if paired else 'alone'}"


class Run:
    """One cell being run: its broker, stand-in, feed, delivers, random choices, events and failures."""

    def __init__(self, args, cell, rng, directory):
        self.fault, platform_name, self.paired = cell
        self.rng, self.records, self.pushgate, self.directory = rng, args.records, args.pushgate, directory
        self.verbose = args.verbose
        self.failures, self.events = [], []
        self.answered_before_kill = None
        self.started = time.monotonic()
        self.broker = Broker(args.pushgate, PARTITIONS, 1, os.path.join(directory, "broker.log"))
        self.platform = PLATFORMS[platform_name](directory)
        self.devices = {audience: [f"d{audience}-{n}" for n in range(DEVICES)] for audience in range(AUDIENCES)}
        self.platform.prepare([name for names in self.devices.values() for name in names])
        self.standin = StandIn(self.platform.standin_script, self.platform.standin_arguments(),
                               os.path.join(directory, "standin.log"))
        self.platform.started(self.standin.announced)
        self.put_devices()
        self.feed = Feed(self.broker.address, self.platform.topic, self.records, self.audience,
                         self.platform.value, self.platform.headers)
        self.delivers = Delivers(args.pushgate, self.broker.address, self.platform.deliver_arguments() + [
            "--group-id", GROUP, "--receipts", "all", "--request-timeout", self.fault.request_timeout,
            "--shutdown-timeout", f"{SHUTDOWN_SECONDS}s", "--log-level", "info"], directory)

    @staticmethod
    def audience(number):
        return f"audience-{number % AUDIENCES}"

    def put_devices(self):
        put_devices(self.pushgate, self.broker.address, [self.platform.device(device, f"audience-{audience}")
                                                         for audience, names in self.devices.items()
                                                         for device in names])

    def expected_pairs(self):
        return {(number, device) for number in range(self.records)
                for device in self.devices[number % AUDIENCES]}

    def answered_pairs(self):
        """The (record number, device) pairs the stand-in answered with success, with how many times each."""
        return collections.Counter(pair for pair, success in self.platform.requests() if success)

    def note(self, text):
        line = f"+{time.monotonic() - self.started:5.1f}s {text}"
        self.events.append(line)
        if self.verbose:
            print(f"    {line}", flush=True)

    def control(self, command):
        self.note(f"broker: {command}")
        self.broker.control(command)

    def standin_control(self, command):
        self.note(f"stand-in: {command}")
        self.standin.control(command)

    def fail(self, check, detail):
        self.failures.append((check, detail))


def drive(run):
    """Starts the delivers, writes the records and lands the fault; returns once every record is written and the
    fault is over."""
    run.feed.burst(run.records * PRELOAD_PERCENT // 100)
    trigger = run.rng.choice(run.fault.triggers) if run.paired else None
    names = [run.delivers.start() for _ in range(1 + (trigger == "leave"))]
    run.note(f"delivers {', '.join(names)} started")
    for name in run.delivers.wait_assigned(names, ASSIGN_TIMEOUT):
        run.fail("no assignment", f"deliver {name} had no partitions {ASSIGN_TIMEOUT} s after it started")
    run.feed.start(FEED_SECONDS)
    if trigger:
        time.sleep(run.rng.uniform(0.5, 2.0))
        if trigger == "join":
            run.note(f"rebalance: deliver {run.delivers.start()} joins")
        else:
            leaving = run.delivers.live()[-1]
            run.note(f"rebalance: SIGTERM deliver {leaving}, which leaves")
            run.delivers.terminate(leaving)
        time.sleep(run.rng.uniform(0.0, 3.0))
    else:
        time.sleep(run.rng.uniform(0.0, 2.5))
    run.note(f"fault {run.fault.name}")
    run.fault.apply(run)
    run.feed.finish()
    run.note("fault over, every record written")


def check(run):
    """Waits for every pair's receipt and the commits, stops the delivers and checks; returns the counts."""
    expected = run.expected_pairs()
    receipts, deadline = [], time.monotonic() + COMPLETION_TIMEOUT
    while time.monotonic() < deadline and run.delivers.live():
        receipts = read_receipts(run.broker.address)
        if expected <= {pair_of(receipt) for receipt in receipts}:
            break
        time.sleep(2)
    run.note(f"{len(receipts)} receipts read")
    wait_for_commits(run)
    for name, status in run.delivers.exited_on_their_own().items():
        run.fail("deliver stopped", f"deliver {name} exited {status} without a signal")
    for name in run.delivers.live():
        run.delivers.terminate(name)
    for name, (how, _) in run.delivers.signalled.items():
        if how != "SIGTERM":
            continue
        status, took = run.delivers.wait_exit(name, SHUTDOWN_SECONDS + SHUTDOWN_MARGIN)
        run.note(f"deliver {name} exited {status} {took:.1f} s after SIGTERM")
        if status != 0:
            run.fail("SIGTERM", f"deliver {name} " + (f"exited {status}" if status is not None else
                     f"still ran {SHUTDOWN_SECONDS + SHUTDOWN_MARGIN} s") + " after SIGTERM")
    committed, ends = committed_and_ends(run.broker.address, GROUP, run.platform.topic)
    if committed != ends:
        run.fail("offsets", f"after the delivers stopped, committed {committed} != end offsets {ends}")
    return compare(run, expected, read_receipts(run.broker.address))


def pair_of(receipt):
    number = receipt.get("id", "")
    return (int(number[4:]) if number.startswith("dfm-") and number[4:].isdigit() else number, receipt.get("device"))


def wait_for_commits(run):
    deadline = time.monotonic() + COMMIT_TIMEOUT
    while (offsets := committed_and_ends(run.broker.address, GROUP, run.platform.topic))[0] != offsets[1]:
        if time.monotonic() > deadline or not run.delivers.live():
            run.fail("commit stall", f"committed {offsets[0]} != end offsets {offsets[1]} {COMMIT_TIMEOUT} s after "
                     "the receipts were read")
            return
        time.sleep(0.5)


def compare(run, expected, receipts):
    """The checks of receipts against the pairs and the stand-in's log; returns the counts for the cell's line."""
    by_pair = collections.defaultdict(list)
    for receipt in receipts:
        by_pair[pair_of(receipt)].append(receipt)
    missing = sorted(expected - set(by_pair))
    if missing:
        run.fail("no outcome", f"{len(missing)} pairs without a receipt, e.g. {missing[:5]}")
    unexpected = sorted(set(by_pair) - expected, key=str)
    if unexpected:
        run.fail("wrong", f"{len(unexpected)} receipts for pairs the cell does not have, e.g. {unexpected[:5]}")
    misplaced = [(pair, r["record"]) for pair, found in by_pair.items() if pair in expected for r in found
                 if r.get("record") != "{}:{}:{}".format(run.platform.topic, *run.feed.where.get(pair[0], ("?", "?")))]
    if misplaced:
        run.fail("wrong", f"{len(misplaced)} receipts name another record than their id's, e.g. {misplaced[:3]}")
    not_delivered = collections.Counter(r["outcome"] for found in by_pair.values() for r in found
                                        if r["outcome"] != "delivered")
    if not_delivered:
        run.fail("outcome", f"receipts other than delivered: {dict(not_delivered)}")
    answered = run.answered_pairs()
    delivered = {pair for pair, found in by_pair.items() if any(r["outcome"] == "delivered" for r in found)}
    receipts_missing = sorted(set(answered) - delivered, key=str)
    if receipts_missing:
        run.fail("receipts missing", f"{len(receipts_missing)} pairs answered with success have no delivered "
                 f"receipt, e.g. {receipts_missing[:5]}")
    check_fault_landed(run)
    return {"pairs": len(expected), "outcomes": len(expected & set(by_pair)), "receipts_missing": len(receipts_missing),
            "duplicate_receipts": len(receipts) - len(by_pair),
            "duplicate_sends": sum(count - 1 for count in answered.values()),
            "requests": len(run.platform.requests())}


def check_fault_landed(run):
    """The fault reached the delivers: what the stand-in's log shows of it."""
    name, requests = run.fault.name, run.platform.log()
    if name == "sigkill" and run.answered_before_kill is not None and run.answered_before_kill >= len(
            run.expected_pairs()):
        run.fail("fault missed", "the kill came after every pair was answered")
    elif name == "unavailable" and not any(line["answer"]["status"] == 503 for line in requests):
        run.fail("fault missed", "no request was answered 503")
    elif name == "silent" and not any(line["answer"].get("action") == "no_answer" for line in requests):
        run.fail("fault missed", "no request was left unanswered")
    elif name == "credentials" and not run.platform.credentials_refused(requests):
        run.fail("fault missed", "no credentials were refused")
    elif name == "goaway" and max(collections.Counter(line["connection"] for line in requests).values(),
                                  default=0) < GOAWAY_EVERY:
        run.fail("fault missed", f"no connection reached {GOAWAY_EVERY} requests")


def run_cell(args, cell, rng, directory):
    """Runs one cell; returns the Run (its failures) and the counts (None if the checks did not finish)."""
    os.makedirs(directory, exist_ok=True)
    run, counts = None, None
    try:
        run = Run(args, cell, rng, directory)
        drive(run)
        counts = check(run) if run.broker.alive() else None
    except (HarnessError, KafkaException, OSError, RuntimeError) as error:
        if run is None:
            raise
        run.fail("harness", str(error))
    finally:
        if run is not None:
            run.feed.close()
            run.delivers.kill_all()
            run.standin.stop()
            if not run.broker.alive():
                run.fail(BROKER_CRASHED, f"the embedded broker exited {run.broker.process.returncode}: "
                         + crash_summary(run.broker.log_path))
            run.broker.stop()
    return run, counts


def report(run, counts, cell, seconds, seed, repetition, attempt):
    fault, platform, paired = cell
    shown = ("pairs=? outcomes=? receipts_missing=? duplicate_receipts=? duplicate_sends=?" if counts is None else
             " ".join(f"{name}={value}" for name, value in counts.items()))
    checks = list(dict.fromkeys(check for check, _ in run.failures))
    verdict = f"FAIL ({', '.join(checks)})" if checks else "PASS"
    print(f"cell {fault.name} platform={platform} paired={'yes' if paired else 'no'}: {verdict} {shown} "
          f"seconds={seconds:.1f}", flush=True)
    if checks:
        print_failure(run, run.delivers, lambda text: [line[:220] for line in text.splitlines()[-10:]],
                      replay_command("deliver_fault_matrix.py", seed, cell_id(*cell), repetition, attempt))


MATRIX = Matrix(CELLS, cell_id, run_cell, report, BROKER_CRASHED, "pushgate-deliver-matrix")


def main():
    args = Matrix.arguments(__doc__, records=1000)
    MATRIX.main(args)


if __name__ == "__main__":
    main()
