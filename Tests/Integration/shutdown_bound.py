#!/usr/bin/env python3
"""SPEC 7's bounded shutdown: `pushgate run` exits 0 within --shutdown-timeout whatever the cluster does.

Against `pushgate broker --control` (every broker taken down with `down B`), with inputs flowing so that
records are in flight and offsets wait to be committed, each scenario signals workers and measures how
long each takes to exit:
  together       SIGTERM and every broker down at the same moment
  broker_first   every broker down, then SIGTERM 0.5-2 s later
  rebalance      two members; one leaves on SIGTERM (a rebalance: the other's revoke commits) and every
                 broker goes down 0-1 s later, while the group rebalances; the other gets SIGTERM 1-2 s
                 later.
  join           a second member joins (it has started reading, its join is under way) and every broker
                 goes down 0-0.5 s later; 1-2 s later both get SIGTERM.
  startup        every broker down, then a worker starts; SIGTERM 0.2-1 s after it logs `starting`, while
                 it waits for the cluster to answer (up to --connect-timeout, 10 s).
  early          a worker starts; SIGTERM 0-1 s after it logs `starting`: while it checks the cluster,
                 starts its consumer or joins the group, before its partitions are assigned.
Each worker must exit with status 0 within the timeout plus --margin seconds, by its own stop sequence:
the timeout's last resort (ShutdownDeadlineService) ending it fails the scenario, since only a call
without a deadline makes the stop sequence overrun its shares.

  python3 Tests/Integration/shutdown_bound.py [--pushgate .build/debug/pushgate] [--scenarios together,...]
      [--repeat 3] [--timeout 5s] [--margin 3] [--brokers 1]

Exit status 1 when any worker overstayed or exited non-zero; its log is kept in the directory printed.
"""
import argparse
import logging
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import LOG, Broker, produce, start_worker  # noqa: E402
from matrix_cell import ASSIGNED, LAST_RESORT  # noqa: E402

GROUP = "pushgate-shutdown"
# Logged once the worker has started its consumer (its group join is then under way).
CONSUMING = re.compile(r"consuming push\.unified as group")
# Logged once the worker has read its settings, before it checks the cluster.
STARTING = re.compile(r"info pushgate: starting ")
SCENARIOS = ("together", "broker_first", "rebalance", "join", "startup", "early")


def seconds_of(duration):
    """`5s`, `500ms`, `1m` or `5` in seconds (the worker's own duration syntax)."""
    for suffix, factor in (("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)):
        if duration.endswith(suffix):
            return float(duration[: -len(suffix)]) * factor
    return float(duration)


class Scenario:
    """One run: a broker, workers, and the time each signalled worker took to exit."""

    def __init__(self, args, directory, rng):
        self.args, self.directory, self.rng = args, directory, rng
        self.broker = Broker(args.pushgate, 6, args.brokers, os.path.join(directory, "broker.log"))
        self.workers, self.signalled, self.waiters, self.exited, self.failures = {}, {}, {}, {}, []

    def start(self, name):
        self.workers[name] = start_worker(self.args.pushgate, self.broker.address, GROUP, name,
                                          os.path.join(self.directory, f"worker-{name}.log"), level="info",
                                          shutdown_timeout=self.args.timeout)

    def wait_assigned(self, names, timeout=30):
        for name in names:
            self.wait_logged(name, ASSIGNED, timeout)

    def log(self, name):
        with open(os.path.join(self.directory, f"worker-{name}.log"), errors="replace") as log:
            return log.read()

    def wait_logged(self, name, pattern, timeout=30):
        """Until worker `name` has logged a line matching `pattern`."""
        deadline = time.monotonic() + timeout
        while not pattern.search(self.log(name)):
            if time.monotonic() > deadline:
                raise RuntimeError(f"worker {name} logged no {pattern.pattern!r} {timeout} s after it started")
            time.sleep(0.05)

    def all_down(self):
        for broker in range(1, self.args.brokers + 1):
            self.broker.control(f"down {broker}")

    def all_up(self):
        for broker in range(1, self.args.brokers + 1):
            self.broker.control(f"up {broker}")

    def terminate(self, name):
        """Sends SIGTERM, and notes when the worker exits (a thread waits for it, so that each worker's
        time is its own even while the scenario goes on)."""
        process = self.workers[name]
        self.signalled[name] = time.monotonic()
        process.send_signal(signal.SIGTERM)

        def note_exit():
            process.wait()
            self.exited[name] = time.monotonic()
        self.waiters[name] = threading.Thread(target=note_exit, daemon=True)
        self.waiters[name].start()

    def check_exits(self):
        """Every signalled worker exited 0 within the timeout plus the margin, measured from its signal."""
        bound = seconds_of(self.args.timeout) + self.args.margin
        for name, signalled in self.signalled.items():
            process = self.workers[name]
            try:
                status = process.wait(max(0.0, signalled + bound - time.monotonic()))
                self.waiters[name].join(1)
                took = self.exited.get(name, time.monotonic()) - signalled
                LOG.info(f"worker {name} exited {status} {took:.1f} s after SIGTERM")
                if status != 0:
                    self.failures.append(f"worker {name} exited {status} after SIGTERM")
                elif LAST_RESORT.search(self.log(name)):
                    self.failures.append(f"worker {name} was ended by the shutdown timeout's last resort: a step "
                                         "of its stop sequence waited past its share")
            except subprocess.TimeoutExpired:
                self.failures.append(f"worker {name} still ran {bound:.0f} s after SIGTERM")
                process.kill()
                process.wait()

    def close(self):
        for process in self.workers.values():
            if process.poll() is None:
                process.kill()
                process.wait()
        self.broker.stop()


def run(scenario, name):
    produce(scenario.broker.address, scenario.args.records, 97)
    rng = scenario.rng
    if name in ("together", "broker_first"):
        scenario.start("a")
        scenario.wait_assigned(["a"])
        time.sleep(rng.uniform(0.2, 1.0))
        if name == "together":
            scenario.terminate("a")
            scenario.all_down()
        else:
            scenario.all_down()
            time.sleep(rng.uniform(0.5, 2.0))
            scenario.terminate("a")
    elif name == "rebalance":
        scenario.start("a")
        scenario.start("b")
        scenario.wait_assigned(["a", "b"])
        scenario.terminate("b")
        time.sleep(rng.uniform(0.0, 1.0))
        scenario.all_down()
        time.sleep(rng.uniform(1.0, 2.0))
        scenario.terminate("a")
    elif name == "startup":
        scenario.all_down()
        scenario.start("a")
        scenario.wait_logged("a", STARTING)
        time.sleep(rng.uniform(0.2, 1.0))
        scenario.terminate("a")
    elif name == "early":
        scenario.start("a")
        scenario.wait_logged("a", STARTING)
        time.sleep(rng.uniform(0.0, 1.0))
        scenario.terminate("a")
        if ASSIGNED.search(scenario.log("a")):
            LOG.info("worker a had its partitions before SIGTERM")
    else:
        scenario.start("a")
        scenario.wait_assigned(["a"])
        scenario.start("b")
        scenario.wait_logged("b", CONSUMING)
        time.sleep(rng.uniform(0.0, 0.5))
        scenario.all_down()
        time.sleep(rng.uniform(1.0, 2.0))
        scenario.terminate("a")
        scenario.terminate("b")
    scenario.check_exits()
    if not scenario.broker.alive():
        scenario.failures.append("the embedded broker crashed")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pushgate", default=".build/debug/pushgate")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeout", default="5s", help="the workers' --shutdown-timeout")
    parser.add_argument("--margin", type=float, default=3.0, help="seconds allowed beyond the timeout")
    parser.add_argument("--brokers", type=int, default=1)
    parser.add_argument("--records", type=int, default=3000)
    parser.add_argument("--keep-logs", action="store_true", help="keep the logs of passed scenarios too")
    parser.add_argument("--seed", type=int, default=random.SystemRandom().randrange(10**6))
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    LOG.setLevel(logging.INFO)
    base = tempfile.mkdtemp(prefix="pushgate-shutdown-")
    print(f"seed {args.seed}, logs: {base}", flush=True)
    failed = 0
    for repetition in range(1, args.repeat + 1):
        for name in args.scenarios.split(","):
            if name not in SCENARIOS:
                sys.exit(f"unknown scenario {name!r}; use {', '.join(SCENARIOS)}")
            directory = os.path.join(base, f"{repetition}-{name}")
            os.makedirs(directory)
            scenario = Scenario(args, directory, random.Random(f"{args.seed}/{repetition}/{name}"))
            try:
                run(scenario, name)
            except Exception as error:  # a harness failure fails the scenario too
                scenario.failures.append(f"harness: {error}")
            finally:
                scenario.close()
            print(f"{name} #{repetition}: " + ("; ".join(scenario.failures) or "ok"), flush=True)
            if scenario.failures:
                failed += 1
            elif not args.keep_logs:
                shutil.rmtree(directory, ignore_errors=True)
    print(f"{failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
