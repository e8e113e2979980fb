"""What pushgate's process-level harnesses share (worker_e2e.py, fault_matrix.py).

- `Broker`: `pushgate broker --control` (librdkafka's mock cluster) and its fault commands;
- `start_worker`: a `pushgate run` process in a consumer group, its log in a file;
- the inputs: `payloads()` (examples and golden inputs, valid and invalid), `input_key()`, `HEADERS`;
- reading with confluent-kafka, an independent client: `read_all`, `BackgroundReader`,
  `committed_and_end_offsets`, `input_records_dropped`;
- what is expected: `expected_outputs` (from `pushgate translate`) and `actual_outputs`, both as
  (topic, key, value, headers) tuples of bytes.

Progress goes to the `pushgate.integration` logger; each harness decides where it is shown.
"""
import base64
import collections
import glob
import json
import logging
import os
import select
import signal
import subprocess
import sys
import threading
import time

from confluent_kafka import Consumer, Producer, TopicPartition, OFFSET_BEGINNING

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import pushgate_formats  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LOG = logging.getLogger("pushgate.integration")
INPUT_TOPIC = "push.unified"


def output_topics(pushgate):
    """Every format's topic, as the binary lists them (`pushgate formats`), then the dead-letter topic."""
    return pushgate_formats.output_topics(pushgate)


def android_options(pushgate):
    """Every Android format is routed, by the workers and by `pushgate translate` alike."""
    return ["--android-formats", ",".join(pushgate_formats.names_for_platform("android", pushgate))]


TIMESTAMP = 1_700_000_000_000
# A group's first join takes ~3 s on the mock; after a member leaves, the next join waits
# session.timeout.ms - 1 s: short sessions keep rebalances short.
QUICK = ["-X", "session.timeout.ms=6000", "-X", "heartbeat.interval.ms=500"]
# Every input carries these headers: the first is forwarded to every output and dead letter, the
# others (an apns-* and a webpush-* name, in another case) must be dropped. `pushgate translate` gets the same.
HEADERS = [("trace-id", b"e2e-trace"), ("APNS-Priority", b"10"), ("WebPush-Urgency", b"high")]


def client_config(address, settings):
    """A confluent-kafka client's configuration; brokers go down on purpose here, so librdkafka's
    connection errors (log level 3) are not printed: a client that cannot work fails or times out."""
    return {"bootstrap.servers": address, "log_level": 2, **settings}


class HarnessError(Exception):
    """The harness could not do its part (the broker refused a command or died, inputs not written)."""


def payloads():
    """The input values: a few hand-written ones, then every golden input (one line each)."""
    result = [b'{"message":{"title":"T","body":"B"},"data":{"n":1}}', b'not json', b'\xff\xfe{', b'{}',
              b'{"platform":{"ios":false},"message":{"body":"android"}}']
    for path in sorted(glob.glob(os.path.join(HERE, "..", "PushTranslationTests", "Golden", "*.input.json"))):
        with open(path, "rb") as handle:
            result.append(handle.read().replace(b"\r", b" ").replace(b"\n", b" "))
    return result


def input_key(index, keys):
    """The key of input `index` among `keys` distinct ones: none for every 13th, bytes that are not
    UTF-8 for every 7th, `user-N` otherwise."""
    if index % 13 == 0:
        return None
    if index % 7 == 0:
        return b"\xff\x00dev-" + str(index % keys).encode()
    return f"user-{index % keys}".encode()


class Broker:
    """`pushgate broker --control`: its address and fault commands on its standard input; its standard
    error goes to `log_path` (default: this process's), with every append and commit if `trace_events`."""

    def __init__(self, pushgate, partitions=8, brokers=1, log_path=None, trace_events=False):
        self.log_path = log_path
        log = open(log_path, "w") if log_path else None
        trace = ["--trace-events"] if trace_events else []
        self.process = subprocess.Popen(
            [pushgate, "broker", "--partitions", str(partitions), "--brokers", str(brokers), "--control"] + trace,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True, bufsize=1)
        if log:
            log.close()
        self.address = self.process.stdout.readline().strip()
        if not self.address:
            raise HarnessError(f"pushgate broker printed no address (exit {self.process.wait()})")

    def control(self, line, timeout=30):
        """Sends one fault command; raises HarnessError unless the broker answers `ok` within `timeout` s."""
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
            answered = select.select([self.process.stdout], [], [], timeout)[0]
            answer = self.process.stdout.readline().strip() if answered else ""
        except BrokenPipeError:
            answer = ""
        LOG.info(f"broker: {line} -> {answer or '(no answer)'}")
        if answer != "ok":
            status = self.process.poll()
            raise HarnessError(f"broker refused {line!r}: " + (answer or (f"it exited {status}" if status is not None
                                                                          else f"no answer in {timeout} s")))

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        if self.alive():
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_worker(pushgate, address, group, name, log_path, level="warning", max_in_flight=500, shutdown_timeout=None):
    """A `pushgate run` process in `group`, both Android formats routed, quick group timings, at most
    `max_in_flight` records in flight (None: the default); its standard error goes to `log_path`. With
    `shutdown_timeout` (e.g. `5s`), it is given as PUSHGATE_SHUTDOWN_TIMEOUT."""
    LOG.info(f"starting worker {name} (log: {log_path})")
    bound = ["--max-in-flight", str(max_in_flight)] if max_in_flight else []
    with open(log_path, "w") as log:
        return subprocess.Popen([pushgate, "run", "--bootstrap-servers", address, "--group-id", group,
                                 "--log-level", level] + bound + QUICK + android_options(pushgate),
                                stdout=subprocess.DEVNULL, stderr=log,
                                env=dict(os.environ, PUSHGATE_SHUTDOWN_TIMEOUT=shutdown_timeout)
                                if shutdown_timeout else None)


def produce(address, count, keys):
    """Writes `count` inputs at once (payloads in turn, `input_key` keys, HEADERS, TIMESTAMP)."""
    corpus = payloads()
    producer = Producer(client_config(address, {"enable.idempotence": True, "linger.ms": 20}))
    for index in range(count):
        while True:
            try:
                producer.produce(INPUT_TOPIC, value=corpus[index % len(corpus)], key=input_key(index, keys),
                                 timestamp=TIMESTAMP, headers=HEADERS)
                break
            except BufferError:
                producer.poll(0.1)
        producer.poll(0)
    if producer.flush(60):
        raise HarnessError("inputs not flushed")


def partitions_of(consumer, topic):
    return sorted(consumer.list_topics(topic, timeout=10).topics[topic].partitions)


def assign_from_beginning(consumer, topics):
    consumer.assign([TopicPartition(topic, p, OFFSET_BEGINNING) for topic in topics
                     for p in partitions_of(consumer, topic)])


def input_records_dropped(address):
    """How many input records the embedded broker no longer has (low watermarks above 0)."""
    checker = Consumer(client_config(address, {"group.id": "e2e-watermarks"}))
    dropped = sum(checker.get_watermark_offsets(TopicPartition(INPUT_TOPIC, p), timeout=10)[0]
                  for p in partitions_of(checker, INPUT_TOPIC))
    checker.close()
    return dropped


def read_all(address, topics, expect=None, idle=2.0, timeout=240, complete=None):
    """Reads every record of `topics` until `expect` records (or, with `complete`, until
    `complete(records)` is true: duplicates make a count unreliable) and `idle` quiet seconds."""
    consumer = Consumer(client_config(address, {"group.id": "e2e-reader", "enable.auto.commit": False}))
    assign_from_beginning(consumer, topics)
    records, last, deadline = [], time.monotonic(), time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = consumer.poll(0.2)
        if message is None:
            enough = complete(records) if complete else (expect is None or len(records) >= expect)
            if enough and time.monotonic() - last > idle:
                break
            continue
        if message.error():
            continue
        last = time.monotonic()
        records.append(message)
    consumer.close()
    return records


class BackgroundReader:
    """Reads `topics` from the beginning on a thread of its own while the workers run, so that records are
    counted before the embedded broker drops them (it keeps ~5 MiB per partition)."""

    def __init__(self, address, topics):
        self.records, self.lock, self.stopping = [], threading.Lock(), threading.Event()
        self.thread = threading.Thread(target=self._run, args=(address, topics), daemon=True)
        self.thread.start()

    def _run(self, address, topics):
        consumer = Consumer(client_config(address, {"group.id": "e2e-background-reader",
                                                      "enable.auto.commit": False}))
        assign_from_beginning(consumer, topics)
        while not self.stopping.is_set():
            batch = consumer.consume(1000, 0.2)
            good = [m for m in batch if not m.error()]
            if good:
                with self.lock:
                    self.records.extend(good)
        consumer.close()

    def snapshot(self):
        with self.lock:
            return list(self.records)

    def wait_until(self, complete, timeout, idle=3.0, check_every=2.0):
        """Until `complete(records)` and no new record for `idle` seconds (True), or `timeout` (False)."""
        deadline, count, quiet_since = time.monotonic() + timeout, -1, time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(check_every)
            records = self.snapshot()
            if len(records) != count:
                count, quiet_since = len(records), time.monotonic()
                if count and int(time.monotonic()) % 30 < check_every:
                    LOG.info(f"{count} output records read so far")
            elif time.monotonic() - quiet_since > idle and complete(records):
                return True
        return False

    def stop(self, idle=1.0):
        """Reads until no new record came for `idle` seconds, stops, and returns every record read."""
        count = -1
        while count != len(self.snapshot()):
            count = len(self.snapshot())
            time.sleep(idle)
        self.stopping.set()
        self.thread.join(30)
        return self.snapshot()


def committed_and_end_offsets(address, group):
    """The group's committed offsets and the input topic's end offsets, by partition."""
    checker = Consumer(client_config(address, {"group.id": group}))
    partitions = partitions_of(checker, INPUT_TOPIC)
    committed = {tp.partition: tp.offset for tp in checker.committed(
        [TopicPartition(INPUT_TOPIC, p) for p in partitions], timeout=10)}
    ends = {p: checker.get_watermark_offsets(TopicPartition(INPUT_TOPIC, p), timeout=10)[1] for p in partitions}
    checker.close()
    # A partition that never held a record has nothing to commit: no offset (-1001) equals its end, 0.
    committed = {p: (0 if offset < 0 and ends[p] == 0 else offset) for p, offset in committed.items()}
    return committed, ends


def expected_outputs(pushgate, inputs):
    """What `pushgate translate` gives for each input (one call per input partition)."""
    by_partition = collections.defaultdict(list)
    for message in inputs:
        by_partition[message.partition()].append(message)
    expected = []
    for partition, messages in by_partition.items():
        messages.sort(key=lambda m: m.offset())
        assert [m.offset() for m in messages] == list(range(len(messages))), "input offsets are not 0..n-1"
        lines = b"\n".join(m.value() for m in messages) + b"\n"
        header_options = [option for name, value in HEADERS for option in ("--record-header", f"{name}={value.decode()}")]
        result = subprocess.run([pushgate, "translate", "--lines", "--record-partition", str(partition),
                                 "--record-timestamp", str(TIMESTAMP)] + header_options + android_options(pushgate),
                                input=lines, capture_output=True)
        for line in result.stdout.splitlines():
            record = json.loads(line)
            source = next(v for n, v in record["headers"] if n in ("pushgate-source", "__connect.errors.offset"))
            offset = int(source.rsplit(":", 1)[-1])
            key = messages[offset].key()
            if record["format"] is None:
                value = base64.b64decode(record["value_base64"])
            else:
                value = raw_value(line)
            expected.append((record["topic"], key, value, tuple((n, v.encode()) for n, v in record["headers"])))
    return expected


def raw_value(line):
    """The exact bytes of the "value" member of a translate line (re-encoding would change numbers)."""
    decoder, text, position = json.JSONDecoder(), line.decode(), 0
    for member in ("topic", "format", "key", "headers"):
        prefix = ("{" if member == "topic" else ",") + f'"{member}":'
        assert text.startswith(prefix, position), f"unexpected translate line shape: {text[:80]}"
        _, position = decoder.raw_decode(text, position + len(prefix))
    assert text.startswith(',"value":', position) and text.endswith("}")
    return text[position + len(',"value":'):-1].encode()


def actual_outputs(records):
    """Consumed messages as (topic, key, value, headers) tuples, comparable with `expected_outputs`."""
    return [(m.topic(), m.key(), m.value() or b"", tuple((n, v) for n, v in (m.headers() or []))) for m in records]
