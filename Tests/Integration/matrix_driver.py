"""What the fault matrices share (fault_matrix.py for `pushgate run`, deliver_fault_matrix.py for `pushgate deliver`):
their common options, choosing cells by pattern and by a seeded sample, running each cell with a random source
seeded by the seed, the repetition and the cell (once more with other choices when the embedded broker crashed),
a line per cell, the summary and the exit status (1 when any cell failed)."""
import argparse
import fnmatch
import os
import random
import shutil
import sys
import tempfile
import time


class Matrix:
    """A fault matrix: its `cells` (tuples whose first member has a `name`), `cell_id(*cell)` naming one,
    `run_cell(args, cell, rng, directory)` -> (run, figures) where `run.failures` lists (check, detail),
    `report(run, figures, cell, seconds, seed, repetition, attempt)` printing its line, and the failure check that
    says the embedded broker crashed."""

    def __init__(self, cells, cell_id, run_cell, report, broker_crashed, log_prefix):
        self.cells = cells
        self.cell_id = cell_id
        self.run_cell = run_cell
        self.report = report
        self.broker_crashed = broker_crashed
        self.log_prefix = log_prefix

    @staticmethod
    def arguments(description, records):
        """The options of a matrix's command line, `records` the default of --records."""
        parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
        parser.add_argument("--pushgate", default=".build/debug/pushgate")
        parser.add_argument("--seed", type=int, default=random.SystemRandom().randrange(10**6))
        parser.add_argument("--cells", default="*", help="comma-separated patterns (see above)")
        parser.add_argument("--sample", type=int, help="run this many of the selected cells, chosen with the seed")
        parser.add_argument("--records", type=int, default=records)
        parser.add_argument("--repeat", type=int, default=1)
        parser.add_argument("--verbose", action="store_true", help="print each cell's events as they happen")
        parser.add_argument("--keep-logs", action="store_true", help="keep the logs of passed cells too")
        args = parser.parse_args()
        args.pushgate = os.path.abspath(args.pushgate)
        return args

    def selected(self, patterns):
        """The cells matching any of `patterns`: against the cell's id, or its fault's name for a pattern
        without ':'."""
        def matches(cell, pattern):
            return fnmatch.fnmatchcase(self.cell_id(*cell) if ":" in pattern else cell[0].name, pattern)
        return [cell for cell in self.cells if any(matches(cell, pattern) for pattern in patterns)]

    @staticmethod
    def sample(cells, count, seed):
        """`count` of `cells`, chosen with `seed`, in matrix order."""
        picked = set(random.Random(seed).sample(range(len(cells)), min(count, len(cells))))
        return [cell for index, cell in enumerate(cells) if index in picked]

    def run_and_report(self, args, cell, repetition, base):
        """Runs a cell and prints its line; whether it passed (its logs are then removed unless kept). When the
        embedded broker crashed (librdkafka 2.0.2's mock can abort, see README), the cell runs once more with
        other choices, and that run decides."""
        name = self.cell_id(*cell)
        for attempt in ("", "-again"):
            directory = os.path.join(base, f"{repetition}-{name.replace(':', '-')}{attempt}")
            started = time.monotonic()
            run, figures = self.run_cell(args, cell, random.Random(f"{args.seed}/{repetition}/{name}{attempt}"),
                                         directory)
            self.report(run, figures, cell, time.monotonic() - started, args.seed, repetition, attempt)
            if attempt or self.broker_crashed not in (check for check, _ in run.failures):
                break
            print("    the embedded broker crashed (not pushgate): the cell runs once more with other choices",
                  flush=True)
        if not run.failures and not args.keep_logs:
            shutil.rmtree(directory, ignore_errors=True)
        return not run.failures

    def main(self, args):
        """Runs the cells `args` select, prints the summary and exits: 1 when any cell failed."""
        print(f"seed {args.seed}", flush=True)
        cells = self.selected(args.cells.split(","))
        if not cells:
            sys.exit(f"no cell matches {args.cells!r}")
        base = tempfile.mkdtemp(prefix=f"{self.log_prefix}-{args.seed}-")
        print(f"logs: {base}", flush=True)
        passed = failed = 0
        started = time.monotonic()
        for repetition in range(1, args.repeat + 1):
            repetition_started = time.monotonic()
            chosen = self.sample(cells, args.sample, f"{args.seed}/{repetition}") if args.sample else cells
            for cell in chosen:
                if self.run_and_report(args, cell, repetition, base):
                    passed += 1
                else:
                    failed += 1
            if args.repeat > 1:
                print(f"repetition {repetition}: {len(chosen)} cells in {time.monotonic() - repetition_started:.0f} s")
        print(f"{passed + failed} cells in {time.monotonic() - started:.0f} s")
        print(f"{passed} passed, {failed} failed")
        sys.exit(1 if failed else 0)


def crash_summary(log_path):
    """The line of the broker's log that says why it stopped (librdkafka's mock asserts), else its last lines."""
    with open(log_path, errors="replace") as log:
        lines = [line.strip() for line in log if line.strip()]
    return next((line for line in lines if "Assertion" in line), " | ".join(lines[-2:]))


def print_failure(run, members, tail, replay):
    """A failed cell: each failed check with its examples, the cell's events, the tail of each member's log
    (`tail(text)`: the lines to show), and the command `replay` that runs the cell again."""
    for check_name, detail in run.failures:
        print(f"    {check_name}: " + detail.replace("\n", "\n      "))
    print("    events:")
    for line in run.events:
        print(f"      {line}")
    for name in members.processes:
        print(f"    {members.kind} {name} log tail ({members.log_path(name)}):")
        for line in tail(members.log(name)):
            print(f"      {line}")
    print(f"    replay: {replay}", flush=True)


def replay_command(script, seed, cell, repetition, attempt):
    """How to run one cell again: `script` with the seed, the cell and the repetition that chose it."""
    repeat = f" --repeat {repetition}" if repetition > 1 else ""
    again = " (runs the choices before the broker crash first)" if attempt else ""
    return f"python3 Tests/Integration/{script} --seed {seed} --cells {cell}{repeat}{again}"


class MemberProcesses:
    """What a cell's group members (`pushgate run` or `pushgate deliver` processes a, b, ...) share: their logs
    (DIRECTORY/KIND-NAME.log), which still run, which stopped unasked, waiting for their assignments. A subclass
    sets `processes` ({name: Popen}), `signalled` (names it sent a signal to), `directory`, `kind`, and says
    whether a log shows an assignment (`assigned_in`)."""

    kind = "member"

    def assigned_in(self, text):
        raise NotImplementedError

    def log_path(self, name):
        return os.path.join(self.directory, f"{self.kind}-{name}.log")

    def log(self, name):
        with open(self.log_path(name), errors="replace") as handle:
            return handle.read()

    def live(self):
        """The members running and not signalled, in start order."""
        return [name for name, process in self.processes.items()
                if name not in self.signalled and process.poll() is None]

    def exited_on_their_own(self):
        """{name: exit status} of the members that stopped without being signalled."""
        return {name: process.returncode for name, process in self.processes.items()
                if name not in self.signalled and process.poll() is not None}

    def wait_assigned(self, names, timeout):
        """Until each of `names` has logged an assignment; the names still without one at `timeout`."""
        deadline = time.monotonic() + timeout
        waiting = list(names)
        while waiting and time.monotonic() < deadline:
            waiting = [name for name in waiting if not self.assigned_in(self.log(name))]
            time.sleep(0.05)
        return waiting

    def kill_all(self):
        """Cleanup: kills whatever still runs."""
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
                process.wait()
