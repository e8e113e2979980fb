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
import base64
import hashlib
import json
import os
import re
import signal
import sys
import time

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import delivery_harness  # noqa: E402
from delivery_harness import DEVICES_TOPIC, ORDER, JWT, DeliverRun, key_body, leaked_key_part, log_text  # noqa: E402
from delivery_harness import receipt_at_is_recent, receipt_members_in_order  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
STANDIN = os.path.join(HERE, "standins", "apns_standin.py")
KEY_ID, TEAM_ID, BUNDLE = "KID1234567", "TEAM123456", "com.example.shop"
APNS_TOPIC = "push.apns"
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def token(name):
    """A 32-byte device token in hex, its own for every name."""
    return hashlib.sha256(name.encode()).hexdigest()


class Run(DeliverRun):
    """One scenario's world: a broker, a stand-in APNs with a script, `pushgate deliver` processes."""

    def __init__(self, pushgate, directory, key_path, name, script=None, standin_options=()):
        super().__init__(pushgate, directory, name, APNS_TOPIC)
        self.key_path = key_path
        script_path = self.write_json("script.json", script or {})
        self.ports = self.start_standin(
            STANDIN, ["--verify-key", self.key_path, "--key-id", KEY_ID, "--team-id", TEAM_ID, "--bundle-id", BUNDLE,
                      "--ca-out", self.ca, "--log", self.request_log, "--script", script_path]
            + list(standin_options), "the stand-in APNs")

    def start_deliver(self, bundle=True, log_level="info", extra=()):
        options = ["--apns-bundle-id", BUNDLE] if bundle else []
        return super().start_deliver(
            ["--apns-key-file", self.key_path, "--apns-key-id", KEY_ID, "--apns-team-id", TEAM_ID,
             "--apns-endpoint", f"https://127.0.0.1:{self.ports['production_port']}",
             "--apns-sandbox-endpoint", f"https://127.0.0.1:{self.ports['sandbox_port']}",
             "--ca-file", self.ca, "--request-timeout", "5s"] + options, log_level, extra)

    def requests(self):
        return self.logged()


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
    names = receipt_members_in_order(failures, receipt, label)
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
    receipt_at_is_recent(failures, receipt, label, now_ms)
    failures.check(receipt["key"] == expected["key"], f"{label}: key {expected['key']!r} (got {receipt['key']!r})")
    failures.check(receipt["headers"] == expected["headers"],
                   f"{label}: headers {expected['headers']} (got {receipt['headers']})")


def scenario_outcomes(pushgate, directory, key_path, failures):
    names = ["ok", "gone410", "badtoken", "badtopic", "toolarge", "expired503", "dry"]
    script = {"answers": {
        token("gone410"): [{"status": 410, "reason": "Unregistered", "timestamp": 1700000000123}],
        token("badtoken"): [{"status": 400, "reason": "BadDeviceToken"}],
        token("badtopic"): [{"status": 400, "reason": "BadTopic"}],
        token("toolarge"): [{"status": 413, "reason": "PayloadTooLarge"}],
        token("expired503"): [{"status": 503, "reason": "ServiceUnavailable"}],
    }}
    run = Run(pushgate, directory, key_path, "outcomes", script)
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
        done, committed, ends = run.all_committed(timeout=15)
        failures.check(done, f"every record committed (committed {committed}, ends {ends})")
    finally:
        run.stop()
    return run, [token(name) for name in names]


def scenario_retry_after(pushgate, directory, key_path, failures):
    script = {"answers": {token("slow"): [{"status": 429, "reason": "TooManyRequests", "retry_after": "3"}]}}
    run = Run(pushgate, directory, key_path, "retry_after", script)
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


def scenario_outage(pushgate, directory, key_path, failures, seconds=20):
    run = Run(pushgate, directory, key_path, "outage", standin_options=["--refuse-tokens-for", str(seconds)])
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
        done, committed, ends = run.all_committed()
        failures.check(done, f"then everything committed (committed {committed}, ends {ends})")
        failures.check(run.http("/ready")[0] == 200, "/ready 200 again")
    finally:
        run.stop()
    return run, [token(name) for name in names]


def scenario_kill9(pushgate, directory, key_path, failures, records=500, devices_per_record=4):
    names = [f"k9-{n}" for n in range(devices_per_record)]
    script = {"answers": {token(name): [{"delay": 0.1}] * (3 * records) for name in names}}
    run = Run(pushgate, directory, key_path, "kill9", script)
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


def scenario_directory(pushgate, directory, key_path, failures):
    run = Run(pushgate, directory, key_path, "directory")
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
        body = key_body(file.read())
    tokens = sorted({t for _, run_tokens in runs for t in run_tokens})
    text = log_text(failures, [path for run, _ in runs for path in run.logs])
    leaked = [t for t in tokens if t in text or t.upper() in text]
    failures.check(not leaked, f"no device token in the logs ({len(tokens)} tokens; leaked: {len(leaked)})")
    failures.check(not leaked_key_part(body, text), "no part of the key file's base64 body in the logs")
    failures.check(not JWT.search(text), "no JWT (eyJ...) in the logs")


def write_key(directory):
    """A provider key made now, written as PKCS#8 to AuthKey.p8 in `directory`; returns its path."""
    key = ec.generate_private_key(ec.SECP256R1())
    key_path = os.path.join(directory, "AuthKey.p8")
    with open(key_path, "wb") as file:
        file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                     serialization.NoEncryption()))
    return key_path


if __name__ == "__main__":
    sys.exit(delivery_harness.main(__doc__, "deliver_e2e", SCENARIOS, {"secrets": scenario_secrets},
                                   prefix="deliver-e2e-", context=lambda directory: (write_key(directory),),
                                   alone={"secrets": ["outcomes", "secrets"]}))
