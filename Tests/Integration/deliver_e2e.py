#!/usr/bin/env python3
"""`pushgate deliver` end to end (SPEC 10) against `pushgate broker` and the stand-in APNs
(standins/apns_standin.py, a key made at test time), records and receipts written and read with an
independent client (confluent-kafka).

  deliver_e2e.py --pushgate .build/debug/pushgate [SCENARIO ...]

Scenarios (all by default):
  outcomes      every APNs row of SPEC 10.6: delivered, gone (410 with its timestamp, 400 BadDeviceToken),
                rejected (400 BadTopic, 413), expired (apns-expiration past; 0 with a 503), dry_run,
                no_device, a broadcast; each receipt member by member, in the order of 10.7, and its headers;
                a gone device gets nothing more until its directory record is written again
  retry_after   a 429 with Retry-After: 3, then 200: the second request at least 3 s after the first
  outage        20 s of 403 InvalidProviderToken: /ready 503 naming apns, nothing committed, then all
                delivered and committed
  kill9         500 records x 4 devices, deliver killed with SIGKILL in the middle and started again: every
                pair has a final outcome, none lost (duplicates counted)
  directory     invalid directory records ignored, counted and logged without their token; a broadcast
                without --apns-bundle-id is rejected with no_app
  secrets       no device token, key body or JWT in any deliver log of the run
Exit status 0 when every scenario passes.
"""
import argparse
import base64
import hashlib
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
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Broker, client_config  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
STANDIN = os.path.join(HERE, "standins", "apns_standin.py")
KEY_ID, TEAM_ID, BUNDLE = "KID1234567", "TEAM123456", "com.example.shop"
APNS_TOPIC, DEVICES_TOPIC, RECEIPTS_TOPIC = "push.apns", "push.devices", "push.receipts"
ORDER = ["outcome", "platform", "device", "audience", "app", "record", "source", "id", "format", "status", "reason",
         "gone_since", "attempts", "at", "apns_id", "message_id", "location"]
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
QUICK = ["-X", "session.timeout.ms=6000", "-X", "heartbeat.interval.ms=500"]


def token(name):
    """A 32-byte device token in hex, its own for every name."""
    return hashlib.sha256(name.encode()).hexdigest()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Failures:
    def __init__(self):
        self.messages = []

    def check(self, condition, message):
        print(("  ok    " if condition else "  FAIL  ") + message, flush=True)
        if not condition:
            self.messages.append(message)
        return condition


class Run:
    """One scenario's world: a broker, a stand-in APNs with a script, `pushgate deliver` processes."""

    def __init__(self, pushgate, directory, name, script=None, standin_options=()):
        self.pushgate, self.directory, self.name = pushgate, directory, name
        self.key_path = os.path.join(directory, "AuthKey.p8")
        self.ca = os.path.join(directory, f"{name}-ca.pem")
        self.request_log = os.path.join(directory, f"{name}-requests.jsonl")
        self.logs = []
        self.delivers = []
        self.broker = Broker(pushgate, partitions=4, log_path=os.path.join(directory, f"{name}-broker.log"))
        self.address = self.broker.address
        script_path = os.path.join(directory, f"{name}-script.json")
        with open(script_path, "w") as file:
            json.dump(script or {}, file)
        self.standin = subprocess.Popen(
            [sys.executable, STANDIN, "--verify-key", self.key_path, "--key-id", KEY_ID, "--team-id", TEAM_ID,
             "--bundle-id", BUNDLE, "--ca-out", self.ca, "--log", self.request_log, "--script", script_path]
            + list(standin_options), stdout=subprocess.PIPE, text=True)
        if not select.select([self.standin.stdout], [], [], 30)[0]:
            raise RuntimeError("the stand-in APNs did not start")
        self.ports = json.loads(self.standin.stdout.readline())
        self.producer = Producer(client_config(self.address, {"enable.idempotence": True, "linger.ms": 5}))
        self.metrics_port = None

    def put_devices(self, devices):
        """`pushgate devices put`: devices as (id, audience, token, extra members) or dicts."""
        lines = "".join(json.dumps(device) + "\n" for device in devices)
        result = subprocess.run([self.pushgate, "devices", "put", "--bootstrap-servers", self.address],
                                input=lines, text=True, capture_output=True, timeout=60)
        if result.returncode != 0:
            raise RuntimeError(f"devices put failed: {result.stderr}")

    def produce(self, topic, key, value, headers=(), partition=None):
        """Writes one record; returns its (partition, offset)."""
        where = {}

        def report(error, message):
            where["error"], where["at"] = error, (message.partition(), message.offset())

        kwargs = {"partition": partition} if partition is not None else {}
        self.producer.produce(topic, key=key, value=value, headers=list(headers), on_delivery=report, **kwargs)
        self.producer.flush(30)
        if where.get("error") is not None or "at" not in where:
            raise RuntimeError(f"produce to {topic} failed: {where.get('error')}")
        return where["at"]

    def start_deliver(self, bundle=True, log_level="info", extra=()):
        self.metrics_port = free_port()
        log_path = os.path.join(self.directory, f"{self.name}-deliver-{len(self.delivers) + 1}.log")
        self.logs.append(log_path)
        options = ["--apns-bundle-id", BUNDLE] if bundle else []
        with open(log_path, "w") as log:
            process = subprocess.Popen(
                [self.pushgate, "deliver", "--bootstrap-servers", self.address, "--apns-key-file", self.key_path,
                 "--apns-key-id", KEY_ID, "--apns-team-id", TEAM_ID,
                 "--apns-endpoint", f"https://127.0.0.1:{self.ports['production_port']}",
                 "--apns-sandbox-endpoint", f"https://127.0.0.1:{self.ports['sandbox_port']}",
                 "--ca-file", self.ca, "--receipts", "all", "--metrics-port", str(self.metrics_port),
                 "--log-level", log_level, "--request-timeout", "5s"] + options + QUICK + list(extra),
                stdout=subprocess.DEVNULL, stderr=log)
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

    def requests(self):
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
        found = []
        deadline, enough_at = time.monotonic() + timeout, None
        while time.monotonic() < deadline:
            message = consumer.poll(0.2)
            if message is not None and not message.error():
                value = message.value().decode()
                found.append({"key": message.key().decode() if message.key() is not None else None, "value": value,
                              "pairs": json.loads(value, object_pairs_hook=list),
                              "json": json.loads(value),
                              "headers": [(name, data.decode()) for name, data in message.headers() or []]})
                continue
            if (done(found) if done else len(found) >= expect):
                enough_at = enough_at or time.monotonic()
                if time.monotonic() - enough_at >= idle:
                    break
        consumer.close()
        return found

    def committed(self, group="pushgate-deliver", topic=APNS_TOPIC):
        """{partition: committed offset or None} and {partition: end offset} of `topic`."""
        consumer = Consumer(client_config(self.address, {"group.id": group, "enable.auto.commit": False}))
        partitions = sorted(consumer.list_topics(topic, timeout=10).topics[topic].partitions)
        committed = consumer.committed([TopicPartition(topic, p) for p in partitions], timeout=10)
        ends = {p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in partitions}
        consumer.close()
        return {tp.partition: (tp.offset if tp.offset >= 0 else None) for tp in committed}, ends

    def stop(self):
        for process in self.delivers:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        if self.standin.poll() is None:
            self.standin.terminate()
            self.standin.wait(10)
        self.standin.stdout.close()
        self.broker.stop()


def apns_headers(number, extra=()):
    """The headers of an `apns` record as `pushgate run` writes them, and `extra`."""
    return [("pushgate-source", f"push.unified:0:{number}".encode()), ("pushgate-id", f"e2e-{number}".encode()),
            ("pushgate-format", b"apns"), ("apns-push-type", b"alert"), ("apns-priority", b"10")] + list(extra)


def device(name, audience, extra=None):
    line = {"id": name, "audience": audience, "platform": "apns", "app": BUNDLE, "apns": {"token": token(name)}}
    line.update(extra or {})
    return line


def check_receipt(failures, receipt, expected, label, now_ms):
    """The receipt's key, headers and value member by member; `at` within the last 10 minutes, `apns_id` a UUID
    when expected says "uuid"."""
    got = receipt["json"]
    names = [name for name, _ in receipt["pairs"]]
    ordered = [name for name in ORDER if name in names]
    failures.check(names == ordered and len(set(names)) == len(names) and set(names) <= set(ORDER),
                   f"{label}: members in the order of 10.7 ({','.join(names)})")
    want = dict(expected["value"])
    want_names = [name for name in ORDER if name in want or name == "at"]
    failures.check(names == want_names, f"{label}: members {want_names} (got {names})")
    mismatched = []
    for name, value in want.items():
        if value == "uuid":
            if not (isinstance(got.get(name), str) and UUID.match(got[name])):
                mismatched.append(name)
        elif got.get(name) != value:
            mismatched.append(name)
    failures.check(not mismatched, f"{label}: {', '.join(f'{n}={want[n]!r}' for n in want)}"
                   + (f" (mismatched {[(n, got.get(n)) for n in mismatched]})" if mismatched else ""))
    failures.check(isinstance(got.get("at"), int) and now_ms - 600_000 <= got["at"] <= now_ms + 5_000,
                   f"{label}: at is a recent time in ms ({got.get('at')})")
    failures.check(receipt["key"] == expected["key"], f"{label}: key {expected['key']!r} (got {receipt['key']!r})")
    failures.check(receipt["headers"] == expected["headers"],
                   f"{label}: headers {expected['headers']} (got {receipt['headers']})")


def scenario_outcomes(pushgate, directory, failures):
    names = ["ok", "gone410", "badtoken", "badtopic", "toolarge", "expired503", "dry"]
    script = {"answers": {
        token("gone410"): [{"status": 410, "reason": "Unregistered", "timestamp": 1700000000123}],
        token("badtoken"): [{"status": 400, "reason": "BadDeviceToken"}],
        token("badtopic"): [{"status": 400, "reason": "BadTopic"}],
        token("toolarge"): [{"status": 413, "reason": "PayloadTooLarge"}],
        token("expired503"): [{"status": 503, "reason": "ServiceUnavailable"}],
    }}
    run = Run(pushgate, directory, "outcomes", script)
    try:
        run.put_devices([device(name, f"user-{name}") for name in names])
        run.start_deliver(log_level="trace")
        body = b'{"aps":{"alert":{"title":"Hi","body":"There"}}}'
        channel = base64.b64encode(b"channel-1").decode()
        now = int(time.time())
        plan = [  # (label, key, extra headers, expected outcome)
            ("ok", "user-ok", [], "delivered"),
            ("gone410", "user-gone410", [], "gone"),
            ("badtoken", "user-badtoken", [], "gone"),
            ("badtopic", "user-badtopic", [], "rejected"),
            ("toolarge", "user-toolarge", [], "rejected"),
            ("expired_past", "user-ok", [("apns-expiration", str(now - 120).encode())], "expired"),
            ("expired503", "user-expired503", [("apns-expiration", b"0")], "expired"),
            ("dry", "user-dry", [("pushgate-dry-run", b"true")], "dry_run"),
            ("nobody", "user-nobody", [], "no_device"),
            ("broadcast", None, [("apns-channel-id", channel.encode()), ("apns-push-type", b"liveactivity"),
                                 ("apns-expiration", str(now + 3600).encode())], "delivered"),
        ]
        where = {}
        for number, (label, key, extra, _) in enumerate(plan):
            headers = apns_headers(number, extra)
            if label == "broadcast":
                headers = [h for h in apns_headers(number) if h[0] != "apns-push-type"] + extra
            where[label] = run.produce(APNS_TOPIC, key.encode() if key else None, body, headers)
        receipts = run.receipts(expect=len(plan))
        now_ms = int(time.time() * 1000)
        failures.check(len(receipts) == len(plan), f"one receipt per pair: {len(plan)} (got {len(receipts)})")
        by_id = {r["json"].get("id"): r for r in receipts}
        answered = {line["path"].rsplit("/", 1)[1]: line for line in run.requests()}
        for number, (label, key, extra, outcome) in enumerate(plan):
            receipt = by_id.get(f"e2e-{number}")
            if not failures.check(receipt is not None, f"{label}: a receipt"):
                continue
            partition, offset = where[label]
            value = {"outcome": outcome, "platform": "apns"}
            device_name = label if label in names else ("ok" if label == "expired_past" else None)
            if outcome not in ("no_device",) and label != "broadcast":
                value.update({"device": device_name, "audience": key, "app": BUNDLE})
            if label == "broadcast":
                value["app"] = BUNDLE
            if outcome == "no_device":
                value["audience"] = key
            value.update({"record": f"{APNS_TOPIC}:{partition}:{offset}", "source": f"push.unified:0:{number}",
                          "id": f"e2e-{number}", "format": "apns"})
            statuses = {"ok": (200, None), "gone410": (410, "Unregistered"), "badtoken": (400, "BadDeviceToken"),
                        "badtopic": (400, "BadTopic"), "toolarge": (413, "PayloadTooLarge"),
                        "expired503": (503, "ServiceUnavailable"), "broadcast": (200, None)}
            if label in statuses:
                status, reason = statuses[label]
                value["status"] = status
                if reason:
                    value["reason"] = reason
                if label == "gone410":
                    value["gone_since"] = 1700000000123
                value["attempts"] = 1
                value["apns_id"] = "uuid"
            else:
                value["attempts"] = 0  # no request made
            headers = [("pushgate-outcome", outcome), ("pushgate-source", f"push.unified:0:{number}"),
                       ("pushgate-id", f"e2e-{number}")]
            expected_key = channel if label == "broadcast" else (key if outcome == "no_device" else device_name)
            check_receipt(failures, receipt, {"key": expected_key, "headers": headers, "value": value},
                          f"{label} ({outcome})", now_ms)
            if label in statuses and label != "broadcast":
                line = answered.get(token(label))
                failures.check(line is not None and line["headers"].get("apns-id") == receipt["json"].get("apns_id")
                               and line["headers"].get("apns-topic") == BUNDLE
                               and line["body"] == body.decode(),
                               f"{label}: the stand-in got the body byte for byte, apns-topic {BUNDLE} and the "
                               "receipt's apns-id")
        paths = [line["path"] for line in run.requests()]
        failures.check(not any(token("dry") in path for path in paths), "dry_run: no request made")
        failures.check(sum(token("ok") in path for path in paths) == 1,
                       "expired (apns-expiration past): no request made")
        failures.check(f"/4/broadcasts/apps/{BUNDLE}" in paths, "broadcast: one request to the broadcast endpoint")

        # A gone device gets nothing more until its directory record is written again.
        gone_requests = lambda: sum(token("gone410") in line["path"] for line in run.requests())  # noqa: E731
        run.produce(APNS_TOPIC, b"user-gone410", body, apns_headers(100))
        later = run.receipts(expect=len(plan) + 1)
        after_gone = [r for r in later if r["json"].get("id") == "e2e-100"]
        failures.check([r["json"]["outcome"] for r in after_gone] == ["no_device"] and gone_requests() == 1,
                       "a gone device gets no request until written again (no_device, still 1 request)")
        run.put_devices([device("gone410", "user-gone410")])
        time.sleep(1.0)
        run.produce(APNS_TOPIC, b"user-gone410", body, apns_headers(101))
        later = run.receipts(expect=len(plan) + 2)
        again = [r for r in later if r["json"].get("id") == "e2e-101"]
        failures.check([r["json"]["outcome"] for r in again] == ["delivered"] and gone_requests() == 2,
                       "written again, the device is sent to again (delivered, 2 requests)")
        committed, ends = run.committed()
        deadline = time.monotonic() + 15
        while committed != {p: (e if e else None) for p, e in ends.items()} and time.monotonic() < deadline:
            time.sleep(1)
            committed, ends = run.committed()
        failures.check(all(committed[p] == ends[p] for p in ends if ends[p]),
                       f"every record committed (committed {committed}, ends {ends})")
    finally:
        run.stop()
    return run, [token(name) for name in names]


def scenario_retry_after(pushgate, directory, failures):
    script = {"answers": {token("slow"): [{"status": 429, "reason": "TooManyRequests", "retry_after": "3"}]}}
    run = Run(pushgate, directory, "retry_after", script)
    try:
        run.put_devices([device("slow", "user-slow")])
        run.start_deliver()
        run.produce(APNS_TOPIC, b"user-slow", b'{"aps":{"alert":"Hi"}}', apns_headers(1))
        receipts = run.receipts(expect=1, timeout=30)
        got = receipts[0]["json"] if receipts else {}
        failures.check((got.get("outcome"), got.get("status"), got.get("attempts")) == ("delivered", 200, 2),
                       f"delivered with status 200 and attempts 2 (got {got})")
        times = [line["time"] for line in run.requests() if token("slow") in line["path"]]
        failures.check(len(times) == 2 and times[1] - times[0] >= 3.0,
                       f"the second request came at least 3 s after the first (got {len(times)} requests, "
                       f"{times[1] - times[0] if len(times) == 2 else '?'} s apart)")
    finally:
        run.stop()
    return run, [token("slow")]


def scenario_outage(pushgate, directory, failures, seconds=20):
    run = Run(pushgate, directory, "outage", standin_options=["--refuse-tokens-for", str(seconds)])
    names = ["outage-a", "outage-b"]
    try:
        run.put_devices([device(name, "user-outage") for name in names])
        run.start_deliver()
        count = 20
        for number in range(count):
            run.produce(APNS_TOPIC, b"user-outage", b'{"aps":{"alert":"Hi"}}', apns_headers(number))
        start = None
        deadline = time.monotonic() + 20
        while start is None and time.monotonic() < deadline:
            lines = run.requests()
            start = lines[0]["time"] if lines else None
            time.sleep(0.2)
        failures.check(start is not None, "the first request reached the stand-in")
        ready_seen, committed_during, samples = [], [], 0
        while start is not None and time.time() < start + seconds - 1:
            status, body = run.http("/ready")
            ready_seen.append((status, "apns" in body))
            committed, _ = run.committed()
            committed_during += [p for p, offset in committed.items() if offset]
            samples += 1
            time.sleep(2)
        failures.check(ready_seen and all(status == 503 and named for status, named in ready_seen[1:]),
                       f"/ready answered 503 naming apns during the outage ({ready_seen})")
        failures.check(samples >= 3 and not committed_during,
                       f"no offset committed during the outage ({samples} samples, committed: {committed_during})")
        refused = [line for line in run.requests() if line["answer"]["status"] == 403]
        failures.check(refused and all(line["answer"]["reason"] == "InvalidProviderToken" for line in refused),
                       f"the stand-in refused the credentials ({len(refused)} requests 403 InvalidProviderToken)")
        probes = [line for line in refused if line["time"] > start + 1.5]
        failures.check(len(probes) <= 8, f"paused: after the first refusals, one probe at a time with back-off "
                       f"({len(refused)} refused, {len(probes)} of them after the first 1.5 s)")
        receipts = run.receipts(expect=2 * count, timeout=90)
        accepted = [line["time"] for line in run.requests() if line["answer"]["status"] == 200]
        # The probes' back-off (1, 2, 4, 8, 16 s, each up to 1.2 times) brings one within 20 s of the outage's end.
        failures.check(accepted and accepted[0] - (start + seconds) < 20,
                       "the first accepted request came within 20 s of the outage's end "
                       f"({accepted[0] - (start + seconds) if accepted else '?':.1f} s)" if accepted else
                       "a request was accepted after the outage")
        outcomes = sorted(r["json"]["outcome"] for r in receipts)
        failures.check(outcomes == ["delivered"] * (2 * count),
                       f"after the outage every pair delivered: {2 * count} (got {len(outcomes)}, "
                       f"{sorted(set(outcomes))})")
        deadline = time.monotonic() + 20
        committed, ends = run.committed()
        while any(committed[p] != ends[p] for p in ends if ends[p]) and time.monotonic() < deadline:
            time.sleep(1)
            committed, ends = run.committed()
        failures.check(all(committed[p] == ends[p] for p in ends if ends[p]),
                       f"then everything committed (committed {committed}, ends {ends})")
        failures.check(run.http("/ready")[0] == 200, "/ready 200 again")
    finally:
        run.stop()
    return run, [token(name) for name in names]


def scenario_kill9(pushgate, directory, failures, records=500, devices_per_record=4):
    names = [f"k9-{n}" for n in range(devices_per_record)]
    script = {"answers": {token(name): [{"delay": 0.1}] * (3 * records) for name in names}}
    run = Run(pushgate, directory, "kill9", script)
    try:
        run.put_devices([device(name, "user-k9") for name in names])
        first = run.start_deliver(extra=["--max-in-flight-requests", "40"])
        for number in range(records):
            run.producer.produce(APNS_TOPIC, key=b"user-k9", value=b'{"aps":{"alert":"Hi"}}',
                                 headers=apns_headers(number))
            run.producer.poll(0)
        run.producer.flush(30)
        pairs = records * devices_per_record
        deadline = time.monotonic() + 60
        while len(run.requests()) < pairs * 0.35 and time.monotonic() < deadline:
            time.sleep(0.1)
        sent_before = len(run.requests())
        first.send_signal(signal.SIGKILL)
        first.wait()
        print(f"  ..    killed deliver (SIGKILL) after {sent_before} of {pairs} requests", flush=True)
        failures.check(0 < sent_before < pairs, f"the kill came in the middle ({sent_before} of {pairs} requests)")
        run.start_deliver(extra=["--max-in-flight-requests", "200"])
        receipts = run.receipts(expect=pairs, timeout=120, idle=3, done=lambda found: len(
            {(r["json"].get("record"), r["json"].get("device")) for r in found}) >= pairs)
        seen = {}
        for receipt in receipts:
            pair = (receipt["json"].get("record"), receipt["json"].get("device"))
            seen.setdefault(pair, []).append(receipt["json"]["outcome"])
        duplicates = len(receipts) - len(seen)
        print(f"  ..    {len(receipts)} receipts, {len(seen)} distinct pairs, {duplicates} duplicates; "
              f"{len(run.requests())} requests", flush=True)
        failures.check(len(seen) == pairs, f"every pair has a final outcome: {pairs} (got {len(seen)})")
        failures.check(all(set(outcomes) == {"delivered"} for outcomes in seen.values()),
                       "every outcome is delivered")
        sent = {(line["path"], line["headers"].get("apns-id")) for line in run.requests()}
        failures.check(len(sent) == pairs, f"a pair sent again carries the same apns-id ({len(sent)} distinct "
                       f"(token, apns-id) in {len(run.requests())} requests)")
        committed, ends = run.committed()
        failures.check(all(committed[p] == ends[p] for p in ends if ends[p]),
                       f"everything committed in the end (committed {committed}, ends {ends})")
    finally:
        run.stop()
    return run, [token(name) for name in names]


def scenario_directory(pushgate, directory, failures):
    run = Run(pushgate, directory, "directory")
    bad_token = "zz" + token("dir-bad")[2:]
    try:
        run.put_devices([device("dir-ok", "user-dir")])
        raw = [
            ("dir-bad-token", json.dumps({"audience": "user-dir", "platform": "apns", "app": BUNDLE,
                                          "apns": {"token": bad_token}})),
            ("dir-no-audience", json.dumps({"platform": "apns", "app": BUNDLE,
                                            "apns": {"token": token("dir-no-audience")}})),
            ("dir-not-json", "not json {" + token("dir-not-json")),
        ]
        where = [run.produce(DEVICES_TOPIC, key.encode(), value.encode()) for key, value in raw]
        run.start_deliver(bundle=False)
        ignored = run.metric("pushgate_directory_ignored_records_total")
        failures.check(ignored == 3, f"pushgate_directory_ignored_records_total is 3 (got {ignored})")
        # One more after start, for a device that was valid: it receives nothing afterwards.
        run.put_devices([device("dir-later", "user-later")])
        where.append(run.produce(DEVICES_TOPIC, b"dir-later", b'{"audience":"user-later","platform":"apns"}'))
        time.sleep(1.0)
        body = b'{"aps":{"alert":"Hi"}}'
        channel = base64.b64encode(b"channel-2").decode().encode()
        run.produce(APNS_TOPIC, b"user-dir", body, apns_headers(1))
        run.produce(APNS_TOPIC, b"user-later", body, apns_headers(2))
        run.produce(APNS_TOPIC, None, body, [h for h in apns_headers(3) if h[0] != "apns-push-type"]
                    + [("apns-channel-id", channel), ("apns-push-type", b"liveactivity"),
                       ("apns-expiration", str(int(time.time()) + 3600).encode())])
        receipts = {r["json"]["id"]: r["json"] for r in run.receipts(expect=3, timeout=30)}
        failures.check(receipts.get("e2e-1", {}).get("outcome") == "delivered"
                       and receipts["e2e-1"].get("device") == "dir-ok",
                       f"the worker went on: the valid device got its push ({receipts.get('e2e-1')})")
        failures.check(receipts.get("e2e-2", {}).get("outcome") == "no_device",
                       f"a device whose value became invalid receives nothing ({receipts.get('e2e-2')})")
        failures.check((receipts.get("e2e-3", {}).get("outcome"), receipts.get("e2e-3", {}).get("reason"))
                       == ("rejected", "no_app"),
                       f"a broadcast without --apns-bundle-id: rejected, no_app ({receipts.get('e2e-3')})")
        ignored = run.metric("pushgate_directory_ignored_records_total")
        failures.check(ignored == 4, f"pushgate_directory_ignored_records_total is 4 after the later one ({ignored})")
        with open(run.logs[-1]) as file:
            log = file.read()
        warnings = [line for line in log.splitlines() if "directory" in line and "ignored" in line]
        for partition, offset in where:
            failures.check(any(f"{DEVICES_TOPIC}[{partition}]@{offset}" in line for line in warnings),
                           f"a warning names {DEVICES_TOPIC}[{partition}]@{offset}")
        failures.check(bad_token not in log and token("dir-no-audience") not in log
                       and token("dir-not-json") not in log, "no warning shows the token")
        failures.check(run.delivers[-1].poll() is None, "deliver still runs")
    finally:
        run.stop()
    return run, [token("dir-ok"), token("dir-later"), bad_token, token("dir-no-audience"), token("dir-not-json")]


SCENARIOS = {"outcomes": scenario_outcomes, "retry_after": scenario_retry_after, "outage": scenario_outage,
             "kill9": scenario_kill9, "directory": scenario_directory}


def scenario_secrets(runs, key_path, failures):
    with open(key_path) as file:
        key_body = "".join(line.strip() for line in file if not line.startswith("-----"))
    tokens = sorted({t for _, run_tokens in runs for t in run_tokens})
    jwt = re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")
    logs = [path for run, _ in runs for path in run.logs]
    text = ""
    for path in logs:
        with open(path, errors="replace") as file:
            text += file.read()
    failures.check(len(text) > 0, f"the deliver logs read: {len(logs)} files, {len(text)} bytes")
    leaked = [t for t in tokens if t in text or t.upper() in text]
    failures.check(not leaked, f"no device token in the logs ({len(tokens)} tokens; leaked: {len(leaked)})")
    chunks = [key_body[i:i + 24] for i in range(0, len(key_body) - 24, 12)]
    failures.check(not any(chunk in text for chunk in chunks), "no part of the key file's base64 body in the logs")
    failures.check(not jwt.search(text), "no JWT (eyJ...) in the logs")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pushgate", default=".build/debug/pushgate")
    parser.add_argument("--keep", action="store_true", help="keep the logs' directory")
    parser.add_argument("scenarios", nargs="*", help=", ".join(list(SCENARIOS) + ["secrets"]))
    args = parser.parse_args()
    chosen = args.scenarios or list(SCENARIOS) + ["secrets"]
    unknown = [name for name in chosen if name not in SCENARIOS and name != "secrets"]
    if unknown:
        parser.error(f"unknown scenario {unknown}")
    if chosen == ["secrets"]:
        chosen = ["outcomes", "secrets"]
    pushgate = os.path.abspath(args.pushgate)
    directory = tempfile.mkdtemp(prefix="deliver-e2e-")
    key = ec.generate_private_key(ec.SECP256R1())
    key_path = os.path.join(directory, "AuthKey.p8")
    with open(key_path, "wb") as file:
        file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()))
    failures, runs, started = Failures(), [], time.monotonic()
    for name in chosen:
        if name == "secrets":
            continue
        print(f"== {name}", flush=True)
        began = time.monotonic()
        try:
            runs.append(SCENARIOS[name](pushgate, directory, failures))
        except Exception as error:  # a scenario that could not run is a failure, the others still run
            failures.check(False, f"{name}: could not run: {error!r}")
        print(f"   ({time.monotonic() - began:.1f} s)", flush=True)
    if "secrets" in chosen:
        print("== secrets", flush=True)
        scenario_secrets(runs, key_path, failures)
    print(f"logs: {directory}" if args.keep or failures.messages else "", flush=True)
    if failures.messages:
        print(f"FAIL: {len(failures.messages)} check(s) failed in {time.monotonic() - started:.0f} s:")
        for message in failures.messages:
            print("  - " + message)
        return 1
    if not args.keep:
        subprocess.run(["rm", "-rf", directory])
    print(f"PASS: deliver_e2e ({', '.join(chosen)}) in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
