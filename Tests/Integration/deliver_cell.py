"""The moving parts of one deliver fault-matrix cell (deliver_fault_matrix.py): the stand-in under control, the
records fed to a delivered topic, the `pushgate deliver` processes, and reading back receipts and offsets.

`StandIn` runs a stand-in of standins/ with --control: `control(COMMAND)` sends one fault command
(h2_standin.Faults) and waits for its `ok`. `Feed` writes the cell's records with an idempotent confluent-kafka
producer of its own, a part at once and the rest paced on a thread, and keeps where each was written.
`Delivers` starts `pushgate deliver` processes named a, b, c, ... in one group and keeps what happened to each
(signalled with SIGKILL or SIGTERM and when, or exited on its own). `read_receipts` and `committed_and_ends` read
what the broker holds with confluent-kafka, a client independent of pushgate.
"""
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

from confluent_kafka import Consumer, Producer, TopicPartition

from delivery_harness import free_port
from harness import QUICK, HarnessError, client_config
from matrix_driver import MemberProcesses

RECEIPTS_TOPIC = "push.receipts"
ASSIGNED = "partitions assigned"


class StandIn:
    """A stand-in script run with --control: its announcement (the JSON line it prints once it listens) and its
    fault commands."""

    def __init__(self, script, arguments, log_path):
        with open(log_path, "w") as log:
            self.process = subprocess.Popen([sys.executable, script, "--control"] + list(arguments),
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True,
                                            bufsize=1)
        if not select.select([self.process.stdout], [], [], 30)[0]:
            self.process.kill()
            raise HarnessError(f"{os.path.basename(script)} did not start")
        self.announced = json.loads(self.process.stdout.readline())

    def control(self, command):
        """Sends one fault command; raises HarnessError unless the stand-in answers `ok` within 10 s."""
        try:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
            answered = select.select([self.process.stdout], [], [], 10)[0]
            answer = self.process.stdout.readline().strip() if answered else ""
        except BrokenPipeError:
            answer = ""
        if answer != "ok":
            raise HarnessError(f"the stand-in refused {command!r}: {answer or 'no answer'}")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdin.close()
        self.process.stdout.close()


class Feed:
    """The cell's records: record N has the key `audience(N)` and the value `value(N)`, headers `headers(N)`;
    `where[N]` is its (partition, offset) once acknowledged."""

    def __init__(self, address, topic, count, audience, value, headers):
        self.topic, self.count = topic, count
        self.audience, self.value, self.headers = audience, value, headers
        self.next = 0
        self.where, self.errors = {}, []
        self.producer = Producer(client_config(address, {"enable.idempotence": True, "linger.ms": 5}))
        self.lock, self.stopping, self.thread = threading.Lock(), threading.Event(), None

    def _write(self, count):
        where, errors = self.where, self.errors  # not self: the producer would keep the feed alive

        for _ in range(min(count, self.count - self.next)):
            number = self.next
            self.next += 1

            def report(error, message, number=number):
                if error is not None:
                    errors.append(str(error))
                else:
                    where[number] = (message.partition(), message.offset())

            while True:
                try:
                    self.producer.produce(self.topic, key=self.audience(number).encode(), value=self.value(number),
                                          headers=self.headers(number), on_delivery=report)
                    break
                except BufferError:
                    self.producer.poll(0.1)
        self.producer.poll(0)

    def burst(self, count):
        """Writes the next `count` records at once and waits for their acknowledgement."""
        with self.lock:
            self._write(count)
            self._flush()

    def _flush(self):
        if self.producer.flush(60) or self.errors:
            raise HarnessError(f"records not written: {self.errors[:3] or 'flush timed out'}")

    def start(self, seconds):
        """Writes the rest at an even pace over `seconds`, on a thread of its own."""
        per_second = (self.count - self.next) / seconds
        self.thread = threading.Thread(target=self._run, args=(per_second,), daemon=True)
        self.thread.start()

    def _run(self, per_second):
        credit, tick = 0.0, 0.05
        while self.next < self.count and not self.stopping.wait(tick):
            with self.lock:
                credit += per_second * tick
                self._write(int(credit))
                credit -= int(credit)

    def finish(self):
        """Waits until every record is written and acknowledged."""
        if self.thread:
            self.thread.join()
        with self.lock:
            self._write(self.count - self.next)
            self._flush()

    def close(self):
        self.stopping.set()
        if self.thread:
            self.thread.join()
        self.producer = None


class Delivers(MemberProcesses):
    """The cell's `pushgate deliver` processes (a, b, ...), each with `arguments`, logging to DIRECTORY/deliver-N.log
    and serving /metrics on a port of its own."""

    kind = "deliver"

    def assigned_in(self, text):
        return ASSIGNED in text

    def __init__(self, pushgate, address, arguments, directory):
        self.pushgate, self.address, self.arguments, self.directory = pushgate, address, list(arguments), directory
        self.processes, self.ports, self.signalled, self.exited_at = {}, {}, {}, {}

    def start(self):
        """Starts the next deliver; returns its name once its /ready answers (200, or 503 while the directory is
        read or a platform paused), or raises HarnessError when it exits or does not answer within 60 s."""
        name = chr(ord("a") + len(self.processes))
        self.ports[name] = free_port()
        with open(self.log_path(name), "w") as log:
            self.processes[name] = subprocess.Popen(
                [self.pushgate, "deliver", "--bootstrap-servers", self.address, "--metrics-port", str(self.ports[name])]
                + self.arguments + QUICK, stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.processes[name].poll() is not None:
                raise HarnessError(f"deliver {name} exited {self.processes[name].returncode} at start: "
                                   + self.log(name)[-500:])
            if self.ready(name) is not None:
                return name
            time.sleep(0.2)
        raise HarnessError(f"deliver {name} did not answer /ready within 60 s")

    def ready(self, name):
        """The status of GET /ready of deliver `name` (None when it does not answer)."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.ports[name]}/ready", timeout=2) as answer:
                return answer.status
        except urllib.error.HTTPError as error:
            return error.code
        except (urllib.error.URLError, OSError):
            return None

    def kill(self, name):
        self.signalled[name] = ("SIGKILL", time.monotonic())
        self.processes[name].kill()
        self.processes[name].wait()

    def terminate(self, name):
        """Sends SIGTERM; a thread notes when the process exits."""
        self.signalled[name] = ("SIGTERM", time.monotonic())
        process, exited_at = self.processes[name], self.exited_at

        def note_exit():
            process.wait()
            exited_at[name] = time.monotonic()

        threading.Thread(target=note_exit, daemon=True).start()
        process.send_signal(signal.SIGTERM)

    def wait_exit(self, name, timeout):
        """(exit status, seconds from its signal to its exit) of a signalled deliver, waiting until `timeout` s after
        the signal; status None when it still ran then (it is killed)."""
        process, signalled_at = self.processes[name], self.signalled[name][1]
        try:
            process.wait(max(0.0, signalled_at + timeout - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            return None, time.monotonic() - signalled_at
        while name not in self.exited_at:
            time.sleep(0.01)
        return process.returncode, self.exited_at[name] - signalled_at


def put_devices(pushgate, address, devices):
    """`pushgate devices put` of `devices` (dicts, one JSON line each)."""
    lines = "".join(json.dumps(device) + "\n" for device in devices)
    result = subprocess.run([pushgate, "devices", "put", "--bootstrap-servers", address], input=lines, text=True,
                            capture_output=True, timeout=60)
    if result.returncode != 0:
        raise HarnessError(f"devices put failed: {result.stderr}")


def read_receipts(address, topic=RECEIPTS_TOPIC):
    """Every receipt the broker holds now, as dicts (the value's JSON), read up to the end offsets taken first."""
    consumer = Consumer(client_config(address, {"group.id": "deliver-matrix-read", "enable.auto.commit": False}))
    try:
        metadata = consumer.list_topics(topic, timeout=10)
        partitions = sorted(metadata.topics[topic].partitions) if topic in metadata.topics else []
        ends = {p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in partitions}
        consumer.assign([TopicPartition(topic, p, 0) for p in partitions if ends[p] > 0])
        found, position, deadline = [], {p: 0 for p in partitions}, time.monotonic() + 60
        while any(position[p] < ends[p] for p in partitions) and time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is None or message.error():
                continue
            position[message.partition()] = message.offset() + 1
            if message.offset() < ends[message.partition()]:
                found.append(json.loads(message.value()))
        if any(position[p] < ends[p] for p in partitions):
            raise HarnessError(f"receipts not read to their end offsets within 60 s ({position} of {ends})")
        return found
    finally:
        consumer.close()


def committed_and_ends(address, group, topic):
    """{partition: committed offset or None} and {partition: end offset} of `topic` for `group`."""
    consumer = Consumer(client_config(address, {"group.id": group, "enable.auto.commit": False}))
    try:
        partitions = sorted(consumer.list_topics(topic, timeout=10).topics[topic].partitions)
        committed = consumer.committed([TopicPartition(topic, p) for p in partitions], timeout=10)
        ends = {p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in partitions}
    finally:
        consumer.close()
    return {tp.partition: (tp.offset if tp.offset >= 0 else None) for tp in committed}, ends
