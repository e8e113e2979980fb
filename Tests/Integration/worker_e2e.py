#!/usr/bin/env python3
"""End-to-end check of `pushgate run` against `pushgate broker`, with an independent client.

Writes --records inputs (default 20000) into an 8-partition embedded broker, then runs workers through
trouble: a SIGKILL mid-stream and a restart, two workers in one group, injected Produce/Fetch/
OffsetCommit errors, a broker down and up, and finally SIGTERM. Then it checks, with confluent-kafka:
- every output and dead letter `pushgate translate` gives for each input is there, nothing else is
  (duplicates from the crash must be byte-identical copies);
- per output topic and key, records appear in input order (first occurrences);
- the SIGTERMed worker exits 0 and the group's committed offsets equal the input topic's end.

  python3 Tests/Integration/worker_e2e.py --pushgate .build/debug/pushgate [--records 20000]

With --soak (scripts/soak.sh: 1,000,000 records, 256 partitions) the trouble is longer: two workers
throughout, three SIGKILLs each followed by a restart, injected Produce/Fetch/OffsetCommit errors, the
broker down and up, and a rebalance (a third worker joins, then leaves on SIGTERM). Every worker's peak
resident memory (VmHWM) is reported.
"""
import argparse
import base64
import collections
import glob
import json
import operator
import os
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from confluent_kafka import Consumer, Producer, TopicPartition, OFFSET_BEGINNING  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUTPUT_TOPICS = ["push.apns", "push.adobe.carousel", "push.fb.card", "push.android.expandable", "push.fcm", "push.dlq"]
# Both Android formats are routed, by the workers and by `pushgate translate` alike.
ANDROID = ["--android-formats", "android-expandable,fcm"]
TIMESTAMP = 1_700_000_000_000
GROUP = "pushgate-e2e"
QUICK = ["-X", "session.timeout.ms=6000", "-X", "heartbeat.interval.ms=500"]
# Produce errors are injected, and the embedded broker (librdkafka 2.0.2's mock) does not check an
# idempotent producer's sequence numbers as Kafka does: with several produce requests in flight, an error
# on one batch and success of the next make librdkafka count the failed batch as written. `pushgate run`
# recognizes the mock by its cluster id and keeps one request in flight there; this harness relies on it
# (and so checks it: a lost batch fails the run).
# Every input carries these headers: the first is forwarded to every output and dead letter, the
# second (an apns-* name, in another case) must be dropped. `pushgate translate` gets the same.
HEADERS = [("trace-id", b"e2e-trace"), ("APNS-Priority", b"10")]


def log(text):
    print(f"[e2e {time.strftime('%H:%M:%S')}] {text}", flush=True)


def payloads():
    result = [b'{"message":{"title":"T","body":"B"},"data":{"n":1}}', b'not json', b'\xff\xfe{', b'{}',
              b'{"platform":{"ios":false},"message":{"body":"android"}}']
    for path in sorted(glob.glob(os.path.join(HERE, "..", "PushTranslationTests", "Golden", "*.input.json"))):
        with open(path, "rb") as handle:
            result.append(handle.read().replace(b"\r", b" ").replace(b"\n", b" "))
    return result


class Broker:
    def __init__(self, pushgate, partitions=8):
        self.process = subprocess.Popen([pushgate, "broker", "--partitions", str(partitions), "--control"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self.address = self.process.stdout.readline().strip()

    def control(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().strip()
        log(f"broker: {line} -> {answer}")
        if answer != "ok":
            raise SystemExit(f"broker refused {line!r}: {answer}")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(10)


def start_worker(pushgate, address, name, level="warning"):
    log(f"starting worker {name} (log: /tmp/pushgate-e2e-{name}.log)")
    return subprocess.Popen([pushgate, "run", "--bootstrap-servers", address, "--group-id", GROUP,
                             "--log-level", level, "--max-in-flight", "500"] + QUICK + ANDROID,
                            stdout=subprocess.DEVNULL, stderr=open(f"/tmp/pushgate-e2e-{name}.log", "w"))


PEAK_RSS = {}


def note_rss(name, process):
    """Records the worker's peak resident set (VmHWM) so far, in MB; call it before the worker ends."""
    try:
        with open(f"/proc/{process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    PEAK_RSS[name] = max(PEAK_RSS.get(name, 0), int(line.split()[1]) // 1024)
    except OSError:
        pass


def stop(name, process, how):
    """SIGKILL (how="kill") or SIGTERM a worker after noting its peak memory; its exit status."""
    note_rss(name, process)
    if how == "kill":
        log(f"SIGKILL worker {name}")
        process.kill()
        return process.wait()
    log(f"SIGTERM worker {name}")
    process.send_signal(signal.SIGTERM)
    return process.wait(120)


def soak_trouble(args, broker, failures):
    """The soak schedule; returns the worker that is left running."""
    workers = {"a": start_worker(args.pushgate, broker.address, "a", args.worker_log_level),
               "b": start_worker(args.pushgate, broker.address, "b", args.worker_log_level)}
    time.sleep(8)
    broker.control("error Produce NOT_LEADER_FOR_PARTITION 5")
    broker.control("error Fetch NOT_LEADER_FOR_PARTITION 3")
    # Each event waits until the group has settled again (a dead member holds it for session.timeout.ms):
    # librdkafka 2.0.2's mock coordinator aborts (rdkafka_mock_cgrp.c:567, `!member->resp`) when a member
    # joins while another join of the group is still pending, which quick kills and an outage provoke.
    for round_, (victim, replacement) in enumerate([("a", "c"), ("b", "d"), ("c", "e")], 1):
        stop(victim, workers.pop(victim), "kill")
        workers[replacement] = start_worker(args.pushgate, broker.address, replacement, args.worker_log_level)
        time.sleep(15)
        if round_ == 1:
            broker.control("error OffsetCommit REBALANCE_IN_PROGRESS 2")
            broker.control("down 1")
            time.sleep(3)
            broker.control("up 1")
            time.sleep(12)
        if round_ == 2:
            broker.control("rtt 1 30")
            time.sleep(3)
            broker.control("rtt 1 0")
    # A rebalance on purpose: a third member joins, takes partitions, then leaves.
    workers["f"] = start_worker(args.pushgate, broker.address, "f", args.worker_log_level)
    time.sleep(15)
    if stop("f", workers.pop("f"), "term") != 0:
        failures.append("worker f did not exit 0 on SIGTERM")
    if stop("d", workers.pop("d"), "term") != 0:
        failures.append("worker d did not exit 0 on SIGTERM")
    return "e", workers["e"]


def produce(address, count, keys):
    corpus = payloads()
    producer = Producer({"bootstrap.servers": address, "enable.idempotence": True, "linger.ms": 20})
    for index in range(count):
        key = None if index % 13 == 0 else f"user-{index % keys}".encode()
        while True:
            try:
                producer.produce("push.unified", value=corpus[index % len(corpus)], key=key, timestamp=TIMESTAMP,
                                 headers=HEADERS)
                break
            except BufferError:
                producer.poll(0.1)
        producer.poll(0)
    if producer.flush(60):
        raise SystemExit("inputs not flushed")


def input_records_dropped(address):
    """How many input records the embedded broker no longer has (low watermarks above 0)."""
    checker = Consumer({"bootstrap.servers": address, "group.id": "e2e-watermarks"})
    partitions = checker.list_topics("push.unified", timeout=10).topics["push.unified"].partitions
    dropped = sum(checker.get_watermark_offsets(TopicPartition("push.unified", p), timeout=10)[0] for p in partitions)
    checker.close()
    return dropped


def read_all(address, topics, expect=None, idle=2.0, timeout=240, complete=None):
    """Reads every record of `topics` until `expect` records (or, with `complete`, until
    `complete(records)` is true: duplicates make a count unreliable) and `idle` quiet seconds."""
    consumer = Consumer({"bootstrap.servers": address, "group.id": "e2e-reader", "enable.auto.commit": False})
    assignment = []
    for topic in topics:
        partitions = consumer.list_topics(topic, timeout=10).topics[topic].partitions
        assignment += [TopicPartition(topic, p, OFFSET_BEGINNING) for p in partitions]
    consumer.assign(assignment)
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
        consumer = Consumer({"bootstrap.servers": address, "group.id": "e2e-background-reader",
                             "enable.auto.commit": False})
        assignment = []
        for topic in topics:
            partitions = consumer.list_topics(topic, timeout=10).topics[topic].partitions
            assignment += [TopicPartition(topic, p, OFFSET_BEGINNING) for p in partitions]
        consumer.assign(assignment)
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

    def wait_until(self, complete, timeout, idle=3.0):
        """Until `complete(records)` and no new record for `idle` seconds, or `timeout`; then stops."""
        deadline, count, quiet_since = time.monotonic() + timeout, -1, time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(2)
            records = self.snapshot()
            if len(records) != count:
                count, quiet_since = len(records), time.monotonic()
                if count and int(time.monotonic()) % 30 < 2:
                    log(f"{count} output records read so far")
            elif time.monotonic() - quiet_since > idle and complete(records):
                break
        self.stopping.set()
        self.thread.join(30)
        return self.snapshot()


def committed_and_end_offsets(address):
    """The group's committed offsets and the input topic's end offsets, by partition."""
    checker = Consumer({"bootstrap.servers": address, "group.id": GROUP})
    partitions = checker.list_topics("push.unified", timeout=10).topics["push.unified"].partitions
    committed = {tp.partition: tp.offset for tp in checker.committed(
        [TopicPartition("push.unified", p) for p in partitions], timeout=10)}
    ends = {p: checker.get_watermark_offsets(TopicPartition("push.unified", p), timeout=10)[1] for p in partitions}
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
                                 "--record-timestamp", str(TIMESTAMP)] + header_options + ANDROID,
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
    return [(m.topic(), m.key(), m.value() or b"", tuple((n, v) for n, v in (m.headers() or []))) for m in records]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pushgate", default=".build/debug/pushgate")
    parser.add_argument("--records", type=int, default=20000)
    parser.add_argument("--worker-log-level", default="warning")
    parser.add_argument("--partitions", type=int, default=8, help="partitions of every topic")
    parser.add_argument("--soak", action="store_true", help="the soak schedule (see above)")
    parser.add_argument("--keys", type=int, default=101,
                        help="distinct keys (user-0 ...); many partitions need many keys, or a few partitions "
                             "get most records and the embedded broker drops their oldest past ~5 MiB")
    args = parser.parse_args()
    started = time.monotonic()

    broker = Broker(args.pushgate, args.partitions)
    log(f"broker at {broker.address}")
    failures = []
    try:
        produce(broker.address, args.records, args.keys)
        dropped = input_records_dropped(broker.address)
        if dropped:
            raise SystemExit(f"the embedded broker dropped {dropped} inputs (over ~5 MiB in a partition): "
                             "use more --partitions or --keys")
        inputs = read_all(broker.address, ["push.unified"], expect=args.records, timeout=600)
        log(f"{len(inputs)} inputs written")
        expected = expected_outputs(args.pushgate, inputs)
        log(f"{len(expected)} outputs expected")

        reader = BackgroundReader(broker.address, OUTPUT_TOPICS) if args.soak else None
        if args.soak:
            last_name, last = soak_trouble(args, broker, failures)
        else:
            first = start_worker(args.pushgate, broker.address, "first", args.worker_log_level)
            time.sleep(4.5)
            broker.control("error Produce NOT_LEADER_FOR_PARTITION 5")
            broker.control("error Fetch NOT_LEADER_FOR_PARTITION 3")
            log("SIGKILL first worker mid-stream")
            first.kill()
            first.wait()
            second = start_worker(args.pushgate, broker.address, "second", args.worker_log_level)
            third = start_worker(args.pushgate, broker.address, "third", args.worker_log_level)
            time.sleep(12)  # the dead member holds the group for session.timeout.ms, then both join
            broker.control("error OffsetCommit REBALANCE_IN_PROGRESS 2")
            broker.control("down 1")
            time.sleep(2)
            broker.control("up 1")
            broker.control("rtt 1 30")
            time.sleep(3)
            broker.control("rtt 1 0")
            third.send_signal(signal.SIGTERM)
            if third.wait(60) != 0:
                failures.append(f"third worker exited {third.returncode} on SIGTERM")
            last_name, last = "second", second

        # Wait until every expected record is there: after the third worker leaves, the second one
        # takes over its partitions only after a rejoin, and duplicates would satisfy a mere count.
        wanted = collections.Counter(expected)

        def all_there(records):
            if len(records) < len(expected):
                return False
            return not (wanted - collections.Counter(actual_outputs(records)))

        if reader:
            actual_records = reader.wait_until(all_there, timeout=1800)
        else:
            actual_records = read_all(broker.address, OUTPUT_TOPICS, idle=3, complete=all_there, timeout=240)
        # Every output is there, but records the killed and the stopped workers produced without
        # committing are only committed once the second worker owns their partitions and has
        # re-translated them (after a rejoin): wait for that before stopping it.
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and operator.ne(*committed_and_end_offsets(broker.address)):
            time.sleep(1)
        code = stop(last_name, last, "term")
        if code != 0:
            failures.append(f"worker {last_name} exited {code} on SIGTERM")

        actual = actual_outputs(actual_records)
        expected_counts, actual_counts = collections.Counter(expected), collections.Counter(actual)
        missing = expected_counts - actual_counts
        unknown = [record for record in actual_counts if record not in expected_counts]
        log(f"{len(actual)} outputs read ({len(actual) - len(expected)} duplicates)")
        if missing:
            failures.append(f"{sum(missing.values())} expected outputs missing, e.g. {list(missing)[:2]}")
        if unknown:
            failures.append(f"{len(unknown)} outputs not expected, e.g. {unknown[:2]}")

        # Per output topic and key: first occurrences in input order.
        seen, last = set(), {}
        for message in sorted(actual_records, key=lambda m: (m.topic(), m.partition(), m.offset())):
            record = actual_outputs([message])[0]
            if record in seen or message.key() is None:
                seen.add(record)
                continue
            seen.add(record)
            source = dict(record[3]).get("pushgate-source") or dict(record[3]).get("__connect.errors.offset")
            offset = int(source.decode().rsplit(":", 1)[-1])
            slot = (message.topic(), message.key())
            if slot in last and last[slot] > offset:
                failures.append(f"order broken for {slot}: {last[slot]} before {offset}")
                break
            last[slot] = offset

        committed, ends = committed_and_end_offsets(broker.address)
        if committed != ends:
            failures.append(f"committed {committed} != end offsets {ends}")
    finally:
        broker.stop()

    log(f"{args.records} inputs, {args.partitions} partitions, {time.monotonic() - started:.0f} s in all; peak RSS per worker (MB): "
        + ", ".join(f"{name} {mb}" for name, mb in sorted(PEAK_RSS.items())))
    if failures:
        for failure in failures:
            log(f"FAIL: {failure}")
        sys.exit(1)
    log("PASS")


if __name__ == "__main__":
    main()
