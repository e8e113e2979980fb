"""The moving parts of one fault-matrix cell (fault_matrix.py): the input feed and the worker processes.

`Feed` writes the cell's inputs with an idempotent confluent-kafka producer of its own (one request in
flight, as the mock needs: see README, "An embedded broker"): a part before the workers start, bursts on
demand, the rest paced over the fault phase. It can be paused (flushed, nothing more written), so that
Produce errors injected meanwhile land on the workers' requests only.

`Workers` starts `pushgate run` processes named a, b, c, ... in one group, each logging at info to a
file, and keeps what happened to each: signalled (SIGKILL, SIGTERM) or exited on its own.
"""
import collections
import re
import signal
import subprocess
import threading
import time

from confluent_kafka import Producer

from harness import HEADERS, INPUT_TOPIC, TIMESTAMP, HarnessError, client_config, input_key, payloads, start_worker
from matrix_driver import MemberProcesses

SIGTERM_TIMEOUT = 60
ASSIGNED = re.compile(r"partitions assigned: push")
REVOKED = re.compile(r"partitions (revoked|lost): ")
# Logged by ShutdownDeadlineService when a shutdown reaches --shutdown-timeout and the process is ended
# by this last resort: some step of the stop sequence waited past its share (a call without a deadline).
LAST_RESORT = re.compile(r"shutdown timeout \([^)]*\) reached")


class Feed:
    """The inputs of a cell (`corpus`, default `payloads()`, in turn; `input_key` keys among `keys`;
    HEADERS, TIMESTAMP)."""

    def __init__(self, address, count, keys, corpus=None):
        corpus = corpus or payloads()
        self.pending = collections.deque((input_key(i, keys), corpus[i % len(corpus)]) for i in range(count))
        self.producer = Producer(client_config(address, {"enable.idempotence": True, "linger.ms": 5,
                                                         "max.in.flight.requests.per.connection": 1}))
        self.errors, self.lock, self.paused = [], threading.Lock(), False
        self.stopping, self.thread = threading.Event(), None

    def _write(self, count):
        """Hands the next `count` inputs to the producer; call with the lock held."""
        errors = self.errors  # not self: the producer would keep the feed, and itself, alive

        def report(error, _message):
            if error is not None:
                errors.append(str(error))

        for _ in range(min(count, len(self.pending))):
            key, value = self.pending.popleft()
            self.producer.produce(INPUT_TOPIC, value=value, key=key, headers=HEADERS, timestamp=TIMESTAMP,
                                  on_delivery=report)
        self.producer.poll(0)

    def _flush(self):
        if self.producer.flush(60) or self.errors:
            raise HarnessError(f"inputs not written: {self.errors[:3] or 'flush timed out'}")

    def burst(self, count):
        """Writes the next `count` inputs at once and waits for their acknowledgement."""
        with self.lock:
            self._write(count)
            self._flush()

    def start(self, seconds):
        """Writes the pending inputs at an even pace over `seconds`, on a thread of its own."""
        self.thread = threading.Thread(target=self._run, args=(len(self.pending) / seconds,), daemon=True)
        self.thread.start()

    def _run(self, per_second):
        credit, tick = 0.0, 0.05
        while self.pending and not self.stopping.wait(tick):
            with self.lock:
                if self.paused:
                    continue
                credit += per_second * tick
                self._write(int(credit))
                credit -= int(credit)

    def pause(self):
        """Stops writing and waits until every input handed over is acknowledged."""
        with self.lock:
            self.paused = True
            self._flush()

    def resume(self):
        with self.lock:
            self.paused = False

    def finish(self):
        """Waits until the paced inputs are written (writes them at once if no pace was started) and
        acknowledged; raises HarnessError if any could not be written."""
        if self.thread:
            self.thread.join()
        with self.lock:
            self._write(len(self.pending))
            self._flush()

    def close(self):
        """Cleanup: stops the pace and the producer, whatever is left."""
        self.stopping.set()
        if self.thread:
            self.thread.join()
        self.producer = None


class Workers(MemberProcesses):
    """The cell's `pushgate run` processes and what happened to each."""

    kind = "worker"

    def assigned_in(self, text):
        return ASSIGNED.search(text) is not None

    def __init__(self, pushgate, address, group, directory, shutdown_timeout=None):
        self.pushgate, self.address, self.group, self.directory = pushgate, address, group, directory
        self.shutdown_timeout = shutdown_timeout
        self.processes, self.signalled, self.deadlines = {}, {}, {}

    def start(self):
        """Starts the next worker (a, b, c, ...); returns its name."""
        name = chr(ord("a") + len(self.processes))
        self.processes[name] = start_worker(self.pushgate, self.address, self.group, name, self.log_path(name),
                                            level="info", shutdown_timeout=self.shutdown_timeout)
        return name

    def kill(self, name):
        self.signalled[name] = "SIGKILL"
        self.processes[name].kill()
        self.processes[name].wait()

    def terminate(self, name):
        """Sends SIGTERM; `exit_status` later waits up to SIGTERM_TIMEOUT seconds from now."""
        self.signalled[name] = "SIGTERM"
        self.deadlines[name] = time.monotonic() + SIGTERM_TIMEOUT
        self.processes[name].send_signal(signal.SIGTERM)

    def exit_status(self, name):
        """A SIGTERMed worker's exit status, or None if it did not exit in time (it is then killed)."""
        process = self.processes[name]
        try:
            return process.wait(max(0.0, self.deadlines[name] - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            return None

    def wait_exit(self, name, timeout):
        """Waits up to `timeout` s for a signalled worker to exit: (status, seconds since its signal), status
        None when it still runs (it is left running: `exit_status` or `kill_all` ends it)."""
        signalled = self.deadlines[name] - SIGTERM_TIMEOUT
        try:
            status = self.processes[name].wait(max(0.0, signalled + timeout - time.monotonic()))
        except subprocess.TimeoutExpired:
            status = None
        return status, time.monotonic() - signalled


def log_tail(text, lines=12):
    """The last `lines` lines of a worker log, without the per-record dead-letter lines."""
    kept = [line for line in text.splitlines() if "pushgate: dead letter " not in line]
    return kept[-lines:]
