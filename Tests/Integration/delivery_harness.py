"""What the `pushgate deliver` end-to-end harnesses share (deliver_e2e.py for APNs, deliver_fcm_e2e.py,
deliver_webpush_e2e.py), on top of harness.py's `Broker` and `client_config`:

- `Failures`: the `ok`/`FAIL` lines and the failed checks;
- `DeliverRun`: one scenario's world: a broker, a stand-in (a script of standins/ whose first line of output is
  JSON), `pushgate devices put`, records written and receipts read with confluent-kafka, `pushgate deliver`
  processes polled on /ready, /metrics, committed offsets, the stand-in's request log;
- `receipt_members_in_order`, `log_text`, `key_body`, `leaked_key_part`, `JWT`: the receipt and log checks;
- `main`: the command line, running the chosen scenarios and the checks made after them, PASS or FAIL.
"""
import argparse
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from confluent_kafka import Consumer, Producer, TopicPartition

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import QUICK, Broker, client_config  # noqa: E402

DEVICES_TOPIC, RECEIPTS_TOPIC = "push.devices", "push.receipts"
# The members of a receipt in the order of SPEC 10.7.
ORDER = ["outcome", "platform", "device", "audience", "app", "record", "source", "id", "format", "status", "reason",
         "gone_since", "attempts", "at", "apns_id", "message_id", "location"]
JWT = re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Failures:
    """Prints every check as `ok` or `FAIL` and keeps the failed ones."""

    def __init__(self):
        self.messages = []

    def check(self, condition, message):
        print(("  ok    " if condition else "  FAIL  ") + message, flush=True)
        if not condition:
            self.messages.append(message)
        return condition


class DeliverRun:
    """One scenario's world: a broker of 4 partitions, a stand-in (`start_standin`), `pushgate deliver` processes
    (`start_deliver`), their logs in `directory` named after the scenario."""

    def __init__(self, pushgate, directory, name, topic):
        self.pushgate, self.directory, self.name, self.topic = pushgate, directory, name, topic
        self.ca = self.path("ca.pem")
        self.request_log = self.path("requests.jsonl")
        self.logs, self.delivers = [], []
        self.standin = None
        self.broker = Broker(pushgate, partitions=4, log_path=self.path("broker.log"))
        self.address = self.broker.address
        self.producer = Producer(client_config(self.address, {"enable.idempotence": True, "linger.ms": 5}))
        self.metrics_port = None

    def path(self, suffix):
        """The path of this scenario's file `suffix` in the directory."""
        return os.path.join(self.directory, f"{self.name}-{suffix}")

    def write_json(self, suffix, content):
        """Writes `content` as JSON to this scenario's file `suffix`; returns its path."""
        path = self.path(suffix)
        with open(path, "w") as file:
            json.dump(content, file)
        return path

    def start_standin(self, script, arguments, what):
        """Starts `python3 script arguments` (logging to `request_log`, its CA written to `ca`); returns the JSON of
        the first line it prints once listening. `what` names it in the error when it prints none within 30 s."""
        self.standin = subprocess.Popen([sys.executable, script] + list(arguments), stdout=subprocess.PIPE, text=True)
        if not select.select([self.standin.stdout], [], [], 30)[0]:
            raise RuntimeError(f"{what} did not start")
        return json.loads(self.standin.stdout.readline())

    def put_devices(self, devices):
        """`pushgate devices put` of `devices` (dicts, one JSON line each)."""
        lines = "".join(json.dumps(device) + "\n" for device in devices)
        result = subprocess.run([self.pushgate, "devices", "put", "--bootstrap-servers", self.address],
                                input=lines, text=True, capture_output=True, timeout=60)
        if result.returncode != 0:
            raise RuntimeError(f"devices put failed: {result.stderr}")

    def produce(self, topic, key, value, headers=(), **options):
        """Writes one record (`options`: partition, timestamp; None ones left out); returns its (partition,
        offset)."""
        where = {}
        options = {name: value for name, value in options.items() if value is not None}

        def report(error, message):
            where["error"], where["at"] = error, (message.partition(), message.offset())

        self.producer.produce(topic, key=key, value=value, headers=list(headers), on_delivery=report, **options)
        self.producer.flush(30)
        if where.get("error") is not None or "at" not in where:
            raise RuntimeError(f"produce to {topic} failed: {where.get('error')}")
        return where["at"]

    def start_deliver(self, arguments, log_level, extra=(), env=None):
        """Starts `pushgate deliver` with the broker, `arguments`, the receipts, metrics and log level, the quick
        group timings and `extra` (and `env`'s variables over this process's); its standard error goes to a new
        file of `logs`. Waits up to 60 s for /ready to answer 200."""
        self.metrics_port = free_port()
        log_path = self.path(f"deliver-{len(self.delivers) + 1}.log")
        self.logs.append(log_path)
        with open(log_path, "w") as log:
            process = subprocess.Popen(
                [self.pushgate, "deliver", "--bootstrap-servers", self.address] + list(arguments)
                + ["--receipts", "all", "--metrics-port", str(self.metrics_port), "--log-level", log_level] + QUICK
                + list(extra),
                stdout=subprocess.DEVNULL, stderr=log, env=dict(os.environ, **env) if env else None)
        self.delivers.append(process)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"deliver exited {process.returncode}: {open(log_path).read()[-2000:]}")
            if self.http("/ready")[0] == 200:
                return process
            time.sleep(0.2)
        raise RuntimeError("deliver was not ready within 60 s")

    def http(self, path):
        """(status, body) of GET `path` on the last deliver's metrics port; (None, "") when it does not answer."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.metrics_port}{path}", timeout=5) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()
        except (urllib.error.URLError, OSError):
            return None, ""

    def metric(self, name):
        """The sum of every sample of `name` in /metrics (None when it has none)."""
        total = None
        for line in self.http("/metrics")[1].splitlines():
            if line.startswith(name + " ") or line.startswith(name + "{"):
                total = (total or 0) + float(line.rsplit(" ", 1)[1])
        return total

    def logged(self):
        """Every line of the stand-in's request log so far, as JSON."""
        if not os.path.exists(self.request_log):
            return []
        with open(self.request_log) as file:
            return [json.loads(line) for line in file if line.strip()]

    def receipts(self, expect, timeout=60, idle=1.5, done=None):
        """Every receipt, as dicts (key, value as text, members as pairs, headers), waiting for `expect` ones
        (or until `done(receipts)` is true, when given), then `idle` more seconds for any extra, or `timeout`."""
        consumer = Consumer(client_config(self.address, {"group.id": f"deliver-e2e-read-{time.time()}",
                                                         "enable.auto.commit": False}))
        metadata = consumer.list_topics(RECEIPTS_TOPIC, timeout=10)
        partitions = sorted(metadata.topics[RECEIPTS_TOPIC].partitions) if RECEIPTS_TOPIC in metadata.topics else []
        consumer.assign([TopicPartition(RECEIPTS_TOPIC, p, 0) for p in partitions])
        found, deadline, enough_at = [], time.monotonic() + timeout, None
        while time.monotonic() < deadline:
            message = consumer.poll(0.2)
            if message is not None and not message.error():
                value = message.value().decode()
                found.append({"key": message.key().decode() if message.key() is not None else None, "value": value,
                              "pairs": json.loads(value, object_pairs_hook=list), "json": json.loads(value),
                              "headers": [(name, data.decode()) for name, data in message.headers() or []]})
                continue
            if (done(found) if done else len(found) >= expect):
                enough_at = enough_at or time.monotonic()
                if time.monotonic() - enough_at >= idle:
                    break
        consumer.close()
        return found

    def committed(self, group="pushgate-deliver"):
        """{partition: committed offset or None} and {partition: end offset} of the run's topic."""
        topic = self.topic
        consumer = Consumer(client_config(self.address, {"group.id": group, "enable.auto.commit": False}))
        partitions = sorted(consumer.list_topics(topic, timeout=10).topics[topic].partitions)
        committed = consumer.committed([TopicPartition(topic, p) for p in partitions], timeout=10)
        ends = {p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in partitions}
        consumer.close()
        return {tp.partition: (tp.offset if tp.offset >= 0 else None) for tp in committed}, ends

    def all_committed(self, timeout=20):
        """Waits up to `timeout` s for every partition that holds records to be committed to its end; returns
        (whether it was, committed, ends)."""
        deadline = time.monotonic() + timeout
        committed, ends = self.committed()
        while any(committed[p] != ends[p] for p in ends if ends[p]) and time.monotonic() < deadline:
            time.sleep(1)
            committed, ends = self.committed()
        return all(committed[p] == ends[p] for p in ends if ends[p]), committed, ends

    def stop(self):
        """Stops every deliver (SIGTERM, SIGKILL after 20 s), the stand-in and the broker."""
        for process in self.delivers:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        if self.standin is not None:
            if self.standin.poll() is None:
                self.standin.terminate()
                self.standin.wait(10)
            self.standin.stdout.close()
        self.broker.stop()


def receipt_members_in_order(failures, receipt, label):
    """Checks that the receipt's members come in the order of 10.7, each once; returns their names."""
    names = [name for name, _ in receipt["pairs"]]
    failures.check(names == [name for name in ORDER if name in names] and len(set(names)) == len(names),
                   f"{label}: members in the order of 10.7 ({','.join(names)})")
    return names


def receipt_at_is_recent(failures, receipt, label, now_ms, shown=True):
    """Checks that the receipt's `at` is a time in ms within the last 10 minutes."""
    at = receipt["json"].get("at")
    failures.check(isinstance(at, int) and now_ms - 600_000 <= at <= now_ms + 5_000,
                   f"{label}: at is a recent time in ms" + (f" ({at})" if shown else ""))


def log_text(failures, logs):
    """The text of every deliver log in `logs`, checked to be there."""
    text = ""
    for path in logs:
        with open(path, errors="replace") as file:
            text += file.read()
    failures.check(len(text) > 0, f"the deliver logs read: {len(logs)} files, {len(text)} bytes")
    return text


def key_body(pem):
    """The base64 body of a PEM key, without its lines' ends."""
    return "".join(line.strip() for line in pem.splitlines() if not line.startswith("-----"))


def leaked_key_part(body, text):
    """Whether any 24 characters of a key's base64 `body` (every 12th start) stand in `text`."""
    return any(body[i:i + 24] in text for i in range(0, len(body) - 24, 12))


def main(description, title, scenarios, finals, *, prefix, context=lambda directory: (), alone=None):
    """Runs the harness: `--pushgate BIN`, `--keep` and the scenario names (all by default). Each chosen scenario
    runs as `scenarios[name](pushgate, directory, *context(directory), failures)`, its result kept (a scenario that
    raises is a failure, the others still run); then each chosen name of `finals` as
    `finals[name](results, *context(directory), failures)` (`context` is called once). `alone`: {name: the names
    run when `name` alone is asked for}. Returns the exit status: 0 when every check passed."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pushgate", default=".build/debug/pushgate")
    parser.add_argument("--keep", action="store_true", help="keep the logs' directory")
    parser.add_argument("scenarios", nargs="*", help=", ".join(list(scenarios) + list(finals)))
    args = parser.parse_args()
    chosen = args.scenarios or list(scenarios) + list(finals)
    unknown = [name for name in chosen if name not in scenarios and name not in finals]
    if unknown:
        parser.error(f"unknown scenario {unknown}")
    if len(chosen) == 1 and chosen[0] in (alone or {}):
        chosen = list(alone[chosen[0]])
    pushgate = os.path.abspath(args.pushgate)
    directory = tempfile.mkdtemp(prefix=prefix)
    shared = tuple(context(directory))
    failures, results, started = Failures(), [], time.monotonic()
    for name in chosen:
        if name not in scenarios:
            continue
        print(f"== {name}", flush=True)
        began = time.monotonic()
        try:
            results.append(scenarios[name](pushgate, directory, *shared, failures))
        except Exception as error:  # a scenario that could not run is a failure, the others still run
            failures.check(False, f"{name}: could not run: {error!r}")
        print(f"   ({time.monotonic() - began:.1f} s)", flush=True)
    for name, check in finals.items():
        if name in chosen:
            print(f"== {name}", flush=True)
            check(results, *shared, failures)
    print(f"logs: {directory}" if args.keep or failures.messages else "", flush=True)
    if failures.messages:
        print(f"FAIL: {len(failures.messages)} check(s) failed in {time.monotonic() - started:.0f} s:")
        for message in failures.messages:
            print("  - " + message)
        return 1
    if not args.keep:
        subprocess.run(["rm", "-rf", directory])
    print(f"PASS: {title} ({', '.join(chosen)}) in {time.monotonic() - started:.0f} s")
    return 0
