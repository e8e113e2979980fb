#!/usr/bin/env python3
"""`pushgate deliver --platforms webpush` end to end (SPEC 10.5, 10.6) against `pushgate broker` and the stand-in push
service (standins/webpush_standin.py), VAPID keys and subscriptions made at test time; records and receipts written
and read with an independent client (confluent-kafka); what deliver sent decrypted with PyPI http_ece and its VAPID
tokens verified with cryptography, not with the stand-in's code.

  deliver_webpush_e2e.py --pushgate .build/debug/pushgate [SCENARIO ...]

Scenarios (all by default):
  outcomes    every web push row of SPEC 10.6: 201 and 202 delivered (with Location), 404 and 410 gone, 400 and 413
              rejected, 429 and 503 with Retry-After then 201, an HTML 502 page then 201, no answer within
              --request-timeout then 201, 401 and 403 pausing their VAPID key (the other key goes on) then 201,
              expired (webpush-ttl 0 with a 503; a record already past its TTL), dry_run, no_device, unknown_app;
              each receipt member by member; the body decrypted by http_ece equals the record's value; TTL, Urgency
              and Topic as the record's headers; every token verified (aud the origin, exp within 24 h, sub); the
              offsets committed
  allowlist   endpoints on listeners at 127.0.0.2, [::1] and `localhost` (only 127.0.0.1 allowed), an http:// one
              and one with user information: rejected with endpoint_not_allowed, and no listener sees a connection
  pause       three 403s to the key shop: /ready answers 503 naming it and the paused gauge is 1 meanwhile, the key
              site delivers meanwhile, then shop's push is delivered and /ready is 200 again
  storm       30 devices answered 429 with Retry-After: 2 twice, then 201: all delivered, no retry sooner than 2 s
  directory   a subscription whose p256dh is not a point on P-256 or whose auth is not 16 bytes is ignored, counted
              and logged without its keys; the worker goes on
  bad_input   a VAPID file that is not a P-256 key, a missing --vapid-subject, a bad --webpush-allow-host: exit 64
              with a message naming the option (and the file), never the key
  secrets     no endpoint path, subscription key, VAPID key body or JWT in any deliver log of the run
Exit status 0 when every scenario passes.
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
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Broker, client_config  # noqa: E402
from webpush_client import STANDIN, Subscription, b64url, point, unb64url, verify_vapid  # noqa: E402

TOPIC, DEVICES_TOPIC, RECEIPTS_TOPIC = "push.webpush", "push.devices", "push.receipts"
SUBJECT = "mailto:ops@example.com"
ORDER = ["outcome", "platform", "device", "audience", "app", "record", "source", "id", "format", "status", "reason",
         "gone_since", "attempts", "at", "apns_id", "message_id", "location"]
QUICK = ["-X", "session.timeout.ms=6000", "-X", "heartbeat.interval.ms=500"]
VALUE = '{"web_push":8030,"notification":{"title":"Hi é","navigate":"https://example.com/o/1"},"app_badge":2}'


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


class Keys:
    """The run's VAPID keys: `site` written as SEC1 (`openssl ecparam` style), `shop` as PKCS#8."""

    def __init__(self, directory):
        self.keys = {name: ec.generate_private_key(ec.SECP256R1()) for name in ("site", "shop")}
        self.paths = {}
        formats = {"site": serialization.PrivateFormat.TraditionalOpenSSL, "shop": serialization.PrivateFormat.PKCS8}
        for name, key in self.keys.items():
            self.paths[name] = os.path.join(directory, f"vapid-{name}.pem")
            with open(self.paths[name], "wb") as file:
                file.write(key.private_bytes(serialization.Encoding.PEM, formats[name],
                                             serialization.NoEncryption()))

    def public(self, name):
        return b64url(point(self.keys[name].public_key()))

    def options(self):
        return [option for name in sorted(self.paths) for option in ("--vapid-key", f"{name}={self.paths[name]}")]


class Run:
    """One scenario's world: a broker, the stand-in push service on several loopback listeners, deliver."""

    def __init__(self, pushgate, directory, name, keys, subscriptions, script=None, listen=("127.0.0.1",)):
        self.pushgate, self.directory, self.name, self.keys = pushgate, directory, name, keys
        self.ca = os.path.join(directory, f"{name}-ca.pem")
        self.request_log = os.path.join(directory, f"{name}-requests.jsonl")
        self.logs, self.delivers = [], []
        self.broker = Broker(pushgate, partitions=4, log_path=os.path.join(directory, f"{name}-broker.log"))
        self.address = self.broker.address
        self.subscriptions = subscriptions
        paths = {"subscriptions": os.path.join(directory, f"{name}-subscriptions.json"),
                 "script": os.path.join(directory, f"{name}-script.json")}
        with open(paths["subscriptions"], "w") as file:
            json.dump({path: sub.standin_entry() for path, sub in subscriptions.items()}, file)
        with open(paths["script"], "w") as file:
            json.dump(script or {}, file)
        listen_options = [option for address in listen for option in ("--listen", address)]
        self.standin = subprocess.Popen(
            [sys.executable, STANDIN, "--subscriptions", paths["subscriptions"], "--script", paths["script"],
             "--ca-out", self.ca, "--log", self.request_log] + listen_options, stdout=subprocess.PIPE, text=True)
        if not select.select([self.standin.stdout], [], [], 30)[0]:
            raise RuntimeError("the stand-in push service did not start")
        self.listeners = json.loads(self.standin.stdout.readline())["listeners"]
        self.port = self.listeners[0]["port"]
        self.producer = Producer(client_config(self.address, {"enable.idempotence": True, "linger.ms": 5}))
        self.metrics_port = None

    def origin(self):
        return f"https://127.0.0.1:{self.port}"

    def put_devices(self, devices):
        lines = "".join(json.dumps(device) + "\n" for device in devices)
        result = subprocess.run([self.pushgate, "devices", "put", "--bootstrap-servers", self.address],
                                input=lines, text=True, capture_output=True, timeout=60)
        if result.returncode != 0:
            raise RuntimeError(f"devices put failed: {result.stderr}")

    def produce(self, topic, key, value, headers=(), timestamp=None):
        where = {}

        def report(error, message):
            where["error"], where["at"] = error, (message.partition(), message.offset())

        extra = {"timestamp": timestamp} if timestamp is not None else {}
        self.producer.produce(topic, key=key, value=value, headers=list(headers), on_delivery=report, **extra)
        self.producer.flush(30)
        if where.get("error") is not None or "at" not in where:
            raise RuntimeError(f"produce to {topic} failed: {where.get('error')}")
        return where["at"]

    def start_deliver(self, log_level="trace", extra=()):
        self.metrics_port = free_port()
        log_path = os.path.join(self.directory, f"{self.name}-deliver-{len(self.delivers) + 1}.log")
        self.logs.append(log_path)
        with open(log_path, "w") as log:
            process = subprocess.Popen(
                [self.pushgate, "deliver", "--bootstrap-servers", self.address, "--platforms", "webpush",
                 "--vapid-subject", SUBJECT, "--webpush-allow-host", "127.0.0.1", "--ca-file", self.ca,
                 "--receipts", "all", "--metrics-port", str(self.metrics_port), "--log-level", log_level,
                 "--request-timeout", "3s"] + self.keys.options() + QUICK + list(extra),
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
        total = None
        for line in self.http("/metrics")[1].splitlines():
            if line.startswith(name + " ") or line.startswith(name + "{"):
                total = (total or 0) + float(line.rsplit(" ", 1)[1])
        return total

    def events(self, kind="request"):
        if not os.path.exists(self.request_log):
            return []
        with open(self.request_log) as file:
            return [line for line in map(json.loads, file) if line.get("event") == kind]

    def receipts(self, expect, timeout=90, idle=1.5):
        consumer = Consumer(client_config(self.address, {"group.id": f"webpush-e2e-read-{time.time()}",
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
            if len(found) >= expect:
                enough_at = enough_at or time.monotonic()
                if time.monotonic() - enough_at >= idle:
                    break
        consumer.close()
        return found

    def committed(self, group="pushgate-deliver", topic=TOPIC):
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

    def secrets(self):
        """What must never appear in deliver's logs: endpoint paths and subscription keys."""
        found = []
        for path, subscription in self.subscriptions.items():
            found += [path.rsplit("/", 1)[1], subscription.json()["keys"]["p256dh"],
                      subscription.json()["keys"]["auth"]]
        return found


def endpoint_path(name):
    """An endpoint path as push services make them: a capability nobody may log."""
    return f"/wpush/v2/{name}-{os.urandom(12).hex()}"


def headers(number, extra=()):
    """The headers of a `webpush` record as `pushgate run` writes them, and `extra`."""
    base = [("pushgate-source", f"push.unified:0:{number}".encode()), ("pushgate-id", f"wp-{number}".encode()),
            ("pushgate-format", b"webpush"), ("webpush-ttl", b"3600"), ("webpush-urgency", b"high")]
    names = {name for name, _ in extra}
    return [(name, value) for name, value in base if name not in names] + list(extra)


def device(name, audience, subscription, app="site"):
    line = {"id": name, "audience": audience, "platform": "webpush", "webpush": {"subscription": subscription.json()}}
    if app is not None:
        line["app"] = app
    return line


def check_members(failures, receipt, want, label):
    got, names = receipt["json"], [name for name, _ in receipt["pairs"]]
    failures.check(names == [name for name in ORDER if name in names] and len(set(names)) == len(names),
                   f"{label}: members in the order of 10.7 ({','.join(names)})")
    mismatched = [(name, got.get(name)) for name, value in want.items()
                  if (got.get(name) != value if value != "present" else name not in got)]
    absent = [name for name in ("gone_since", "apns_id", "message_id") if name in got]
    failures.check(not mismatched and not absent,
                   f"{label}: {want}" + (f" (mismatched {mismatched}, not web push {absent})"
                                         if mismatched or absent else ""))


def scenario_outcomes(pushgate, directory, keys, failures):
    rows = {  # name: (app, script, expected outcome, status, reason, attempts)
        "ok": ("site", [], "delivered", 201, "Created", 1),
        "accepted": ("site", [{"status": 202}], "delivered", 202, "Accepted", 1),
        "gone404": ("site", [{"status": 404}], "gone", 404, "Not Found", 1),
        "gone410": ("shop", [{"status": 410}], "gone", 410, "Gone", 1),
        "bad400": ("site", [{"status": 400}], "rejected", 400, "Bad Request", 1),
        "big413": ("site", [{"status": 413}], "rejected", 413, "Content Too Large", 1),
        "busy429": ("site", [{"status": 429, "retry_after": "2"}], "delivered", 201, "Created", 2),
        "down503": ("site", [{"status": 503, "retry_after": "1"}], "delivered", 201, "Created", 2),
        "html502": ("site", [{"status": 502, "html": True}], "delivered", 201, "Created", 2),
        "silent": ("site", [{"action": "no_answer"}], "delivered", 201, "Created", 2),
        "vapid401": ("shop", [{"status": 401, "check": False}], "delivered", 201, "Created", 2),
        "vapid403": ("shop", [{"status": 403, "check": False}], "delivered", 201, "Created", 2),
        "once503": ("site", [{"status": 503}], "expired", 503, "Service Unavailable", 1),
        "late": ("site", [], "expired", None, None, 0),
        "dry": ("site", [], "dry_run", None, None, 0),
        "stranger": ("nope", [], "rejected", None, "unknown_app", 0),
    }
    subscriptions = {endpoint_path(name): Subscription("") for name in rows}
    by_name = {}
    for path, subscription in subscriptions.items():
        name = path.split("/")[-1].rsplit("-", 1)[0]
        subscription.endpoint = f"https://127.0.0.1:{{port}}{path}"
        by_name[name] = (path, subscription)
    script = {"answers": {by_name[name][0]: answers for name, (_, answers, *_) in rows.items() if answers}}
    run = Run(pushgate, directory, "outcomes", keys, subscriptions, script)
    try:
        for _, subscription in by_name.values():
            subscription.endpoint = subscription.endpoint.format(port=run.port)
        run.put_devices([device(name, f"user-{name}", by_name[name][1], app=rows[name][0]) for name in rows])
        run.start_deliver()
        where, now_ms = {}, int(time.time() * 1000)
        plan = list(rows) + ["nobody"]
        for number, name in enumerate(plan):
            extra, timestamp = [], None
            if name == "once503":
                extra = [("webpush-ttl", b"0")]
            elif name == "late":
                extra, timestamp = [("webpush-ttl", b"60")], now_ms - 120_000
            elif name == "dry":
                extra = [("pushgate-dry-run", b"true")]
            elif name == "ok":
                extra = [("webpush-topic", b"order-1"), ("webpush-urgency", b"low")]
            where[name] = run.produce(TOPIC, f"user-{name}".encode(), VALUE.encode(), headers(number, extra),
                                      timestamp=timestamp)
        receipts = run.receipts(expect=len(plan))
        failures.check(len(receipts) == len(plan), f"one receipt per pair: {len(plan)} (got {len(receipts)})")
        by_id = {r["json"].get("id"): r for r in receipts}
        for number, name in enumerate(plan):
            receipt = by_id.get(f"wp-{number}")
            if not failures.check(receipt is not None, f"{name}: a receipt"):
                continue
            partition, offset = where[name]
            record = {"record": f"{TOPIC}:{partition}:{offset}", "source": f"push.unified:0:{number}",
                      "id": f"wp-{number}", "format": "webpush"}
            if name == "nobody":
                check_members(failures, receipt, {"outcome": "no_device", "platform": "webpush",
                                                  "audience": "user-nobody", **record, "attempts": 0}, name)
                continue
            app, _, outcome, status, reason, attempts = rows[name]
            want = {"outcome": outcome, "platform": "webpush", "device": name, "audience": f"user-{name}", "app": app,
                    **record, "attempts": attempts}
            if status is not None:
                want["status"] = status
            if reason is not None:
                want["reason"] = reason
            if outcome == "delivered":
                want["location"] = "present"
            check_members(failures, receipt, want, name)
            if outcome == "delivered":
                failures.check(receipt["json"].get("location", "").startswith(run.origin() + "/m/"),
                               f"{name}: location is the push service's ({receipt['json'].get('location')})")
            failures.check(receipt["headers"] == [("pushgate-outcome", outcome),
                                                  ("pushgate-source", f"push.unified:0:{number}"),
                                                  ("pushgate-id", f"wp-{number}")],
                           f"{name}: receipt headers ({receipt['headers']})")
        requests = run.events()
        by_path = {}
        for line in requests:
            by_path.setdefault(line["path"], []).append(line)
        for name in ("late", "dry", "stranger"):
            failures.check(not by_path.get(by_name[name][0]), f"{name}: no request made")
        for name in ("busy429", "down503"):
            times = [line["time"] for line in by_path.get(by_name[name][0], [])]
            wait = float(rows[name][1][0]["retry_after"])
            failures.check(len(times) == 2 and times[1] - times[0] >= wait - 0.05,
                           f"{name}: the retry waited Retry-After {wait:.0f} s ({[round(t - times[0], 2) for t in times]})")
        # The independent check of the encryption and of VAPID: every request pushgate made that the stand-in took.
        decrypted, verified, problems = 0, 0, []
        for line in requests:
            path = line["path"]
            subscription = subscriptions.get(path)
            if subscription is None:
                continue
            body = unb64url(line["body_b64"])
            try:
                plaintext = subscription.decrypt(body)
                decrypted += plaintext == VALUE.encode()
                if plaintext != VALUE.encode():
                    problems.append(f"{path}: plaintext {plaintext[:40]!r}")
            except Exception as error:  # http_ece raises several kinds
                problems.append(f"{path}: http_ece could not decrypt: {error!r}")
            try:
                header, claims, k = verify_vapid(line["authorization"])
                now = line["time"]
                key_name = rows[path.split("/")[-1].rsplit("-", 1)[0]][0]
                good = (header == {"typ": "JWT", "alg": "ES256"} and claims["aud"] == run.origin()
                        and claims["sub"] == SUBJECT and now < claims["exp"] <= now + 86400
                        and k == keys.public(key_name) and set(claims) == {"aud", "exp", "sub"})
                verified += good
                if not good:
                    problems.append(f"{path}: token {header} {claims}")
            except (ValueError, KeyError) as error:
                problems.append(f"{path}: VAPID not verified: {error!r}")
            if body[16:21] != b"\x00\x00\x10\x00\x41" or len(body) != 86 + len(VALUE.encode()) + 1 + 16:
                problems.append(f"{path}: header layout {body[16:21].hex()} size {len(body)}")
            if line["headers"].get("content-encoding") != "aes128gcm" or line["headers"].get("ttl") is None:
                problems.append(f"{path}: headers {line['headers']}")
        failures.check(decrypted > 0 and verified == decrypted and not problems,
                       f"http_ece decrypted {decrypted} bodies to the record's value, cryptography verified "
                       f"{verified} tokens ({problems[:3]})")
        salts = {line["body_b64"][:22] for line in requests}
        failures.check(len(salts) == len(requests), f"a new salt for each of {len(requests)} requests")
        ok = by_path.get(by_name["ok"][0], [{}])[0].get("headers", {})
        failures.check((ok.get("ttl"), ok.get("urgency"), ok.get("topic"), ok.get("content-type"))
                       == ("3600", "low", "order-1", "application/octet-stream"),
                       f"TTL, Urgency and Topic from the record's headers ({ok})")
        with open(run.logs[-1]) as file:
            log = file.read()
        failures.check("webpush key shop paused" in log, "401/403: the key shop was paused (logged)")
        site_during = [line for line in requests if line["path"] == by_name["ok"][0]]
        failures.check(bool(site_during) and site_during[0]["answer"]["status"] == 201,
                       "the other key (site) went on")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            committed, ends = run.committed()
            if committed == ends:
                break
            time.sleep(0.5)
        failures.check(committed == ends, f"every offset committed ({committed} vs {ends})")
    finally:
        run.stop()
    return run


def scenario_allowlist(pushgate, directory, keys, failures):
    names = ["allowed", "second_loopback", "ipv6", "localhost", "plain_http", "userinfo", "trailing_dot"]
    subscriptions = {endpoint_path(name): Subscription("") for name in names}
    paths = {path.split("/")[-1].rsplit("-", 1)[0]: path for path in subscriptions}
    run = Run(pushgate, directory, "allowlist", keys, subscriptions,
              listen=("127.0.0.1", "127.0.0.2", "[::1]:0", "127.0.0.1:0"))
    try:
        main, second, ipv6, decoy = (listener["port"] for listener in run.listeners)
        endpoints = {
            "allowed": f"https://127.0.0.1:{main}", "second_loopback": f"https://127.0.0.2:{second}",
            "ipv6": f"https://[::1]:{ipv6}", "localhost": f"https://localhost:{decoy}",
            "plain_http": f"http://127.0.0.1:{decoy}", "userinfo": f"https://127.0.0.1@127.0.0.2:{second}",
            "trailing_dot": f"https://127.0.0.1.:{decoy}",
        }
        devices = []
        for name in names:
            subscriptions[paths[name]].endpoint = endpoints[name] + paths[name]
            devices.append(device(name, "user-allow", subscriptions[paths[name]]))
        run.put_devices(devices)
        run.start_deliver()
        run.produce(TOPIC, b"user-allow", VALUE.encode(), headers(1))
        receipts = {r["json"]["device"]: r["json"] for r in run.receipts(expect=len(names))}
        for name in names:
            got = receipts.get(name, {})
            want = ("delivered", 1, "Created") if name == "allowed" else ("rejected", 0, "endpoint_not_allowed")
            failures.check((got.get("outcome"), got.get("attempts"), got.get("reason")) == want,
                           f"{name} ({endpoints[name].split(':')[0]}...): {want} (got {got})")
        connections = {line["listener"] for line in run.events("connection")}
        failures.check(connections == {f"127.0.0.1:{main}"},
                       f"only the allowed listener saw a connection ({sorted(connections)})")
    finally:
        run.stop()
    return run


def scenario_pause(pushgate, directory, keys, failures):
    subscriptions = {endpoint_path("shopdev"): Subscription(""), endpoint_path("sitedev"): Subscription("")}
    paths = {path.split("/")[-1].rsplit("-", 1)[0]: path for path in subscriptions}
    refusals = [{"status": 403, "check": False}] * 3
    run = Run(pushgate, directory, "pause", keys, subscriptions, {"answers": {paths["shopdev"]: refusals}})
    try:
        for name, path in paths.items():
            subscriptions[path].endpoint = f"https://127.0.0.1:{run.port}{path}"
        run.put_devices([device("shopdev", "user-shop", subscriptions[paths["shopdev"]], app="shop"),
                         device("sitedev", "user-site", subscriptions[paths["sitedev"]], app="site")])
        run.start_deliver(log_level="info")
        run.produce(TOPIC, b"user-shop", VALUE.encode(), headers(1))
        ready, gauge, deadline = None, None, time.monotonic() + 10
        while time.monotonic() < deadline:
            status, body = run.http("/ready")
            if status == 503 and "webpush key shop" in body:
                ready, gauge = (status, body.strip()), run.metric('pushgate_deliver_platform_paused{platform="webpush"}')
                break
            time.sleep(0.1)
        failures.check(ready is not None and "403" in ready[1], f"/ready 503 names the paused key ({ready})")
        failures.check(gauge == 1, f"pushgate_deliver_platform_paused{{platform=\"webpush\"}} is 1 meanwhile ({gauge})")
        run.produce(TOPIC, b"user-site", VALUE.encode(), headers(2))
        receipts = {r["json"]["device"]: r["json"] for r in run.receipts(expect=2, timeout=60)}
        shop, site = receipts.get("shopdev", {}), receipts.get("sitedev", {})
        failures.check((shop.get("outcome"), shop.get("attempts")) == ("delivered", 4),
                       f"the key shop's push delivered after three refusals ({shop})")
        failures.check(site.get("outcome") == "delivered" and site.get("at", 0) < shop.get("at", 0),
                       f"the key site delivered meanwhile, before shop ({site.get('at')} < {shop.get('at')})")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and run.http("/ready")[0] != 200:
            time.sleep(0.2)
        failures.check(run.http("/ready")[0] == 200, "/ready 200 again once the key is taken")
    finally:
        run.stop()
    return run


def scenario_storm(pushgate, directory, keys, failures):
    count = 30
    subscriptions = {endpoint_path(f"storm{n}"): Subscription("") for n in range(count)}
    script = {"answers": {path: [{"status": 429, "retry_after": "2"}] * 2 for path in subscriptions}}
    run = Run(pushgate, directory, "storm", keys, subscriptions, script)
    try:
        devices = []
        for number, (path, subscription) in enumerate(subscriptions.items()):
            subscription.endpoint = f"https://127.0.0.1:{run.port}{path}"
            devices.append(device(f"storm{number}", "user-storm", subscription))
        run.put_devices(devices)
        run.start_deliver(log_level="info")
        started = time.monotonic()
        run.produce(TOPIC, b"user-storm", VALUE.encode(), headers(1))
        receipts = run.receipts(expect=count, timeout=60)
        took = time.monotonic() - started
        outcomes = sorted({(r["json"]["outcome"], r["json"]["attempts"]) for r in receipts})
        failures.check(len(receipts) == count and outcomes == [("delivered", 3)],
                       f"{count} devices delivered after two 429s each ({len(receipts)} receipts, {outcomes})")
        by_path = {}
        for line in run.events():
            by_path.setdefault(line["path"], []).append(line["time"])
        gaps = [later - earlier for times in by_path.values() for earlier, later in zip(times, times[1:])]
        failures.check(len(gaps) == 2 * count and min(gaps) >= 1.95,
                       f"no retry sooner than Retry-After 2 s ({len(gaps)} retries, shortest {min(gaps or [0]):.2f} s)")
        retries = run.metric("pushgate_deliver_retries_total")
        failures.check(retries is not None and retries >= 2 * count, f"the retries counted ({retries})")
        failures.check(took < 45, f"the storm did not hold the worker back ({took:.1f} s)")
    finally:
        run.stop()
    return run


def scenario_directory(pushgate, directory, keys, failures):
    good = Subscription("")
    subscriptions = {endpoint_path("dirok"): good}
    run = Run(pushgate, directory, "directory", keys, subscriptions)
    try:
        path = next(iter(subscriptions))
        good.endpoint = f"https://127.0.0.1:{run.port}{path}"
        off_curve = dict(good.json(), keys={"p256dh": b64url(b"\x04" + bytes(range(1, 65))), "auth": b64url(b"a" * 16)})
        short_auth = dict(good.json(), keys={"p256dh": good.json()["keys"]["p256dh"], "auth": b64url(b"a" * 15)})
        bad = [("dir-offcurve", off_curve), ("dir-shortauth", short_auth)]
        where = [run.produce(DEVICES_TOPIC, name.encode(), json.dumps(
            {"audience": "user-bad", "platform": "webpush", "app": "site", "webpush": {"subscription": sub}}).encode())
            for name, sub in bad]
        run.put_devices([device("dir-ok", "user-good", good)])
        run.start_deliver()
        run.produce(TOPIC, b"user-bad", VALUE.encode(), headers(1))
        run.produce(TOPIC, b"user-good", VALUE.encode(), headers(2))
        receipts = {r["json"]["id"]: r["json"] for r in run.receipts(expect=2, timeout=30)}
        failures.check(receipts.get("wp-1", {}).get("outcome") == "no_device",
                       f"the invalid subscriptions were ignored: no_device ({receipts.get('wp-1')})")
        failures.check(receipts.get("wp-2", {}).get("outcome") == "delivered",
                       f"the worker went on: the valid device got its push ({receipts.get('wp-2')})")
        ignored = run.metric("pushgate_directory_ignored_records_total")
        failures.check(ignored == 2, f"pushgate_directory_ignored_records_total is 2 ({ignored})")
        with open(run.logs[-1]) as file:
            log = file.read()
        for (partition, offset), rule in zip(where, ["must be a point on P-256", "must be 16 bytes"]):
            failures.check(any(f"{DEVICES_TOPIC}[{partition}]@{offset}" in line and rule in line
                               for line in log.splitlines()), f"a warning names {DEVICES_TOPIC}[{partition}]@{offset}: {rule}")
        failures.check(off_curve["keys"]["p256dh"] not in log and b64url(b"a" * 15) not in log,
                       "no warning shows the keys")
    finally:
        run.stop()
    return run


def first_line(text):
    return (text.strip().splitlines() or [""])[0][-200:]


def scenario_bad_input(pushgate, directory, keys, failures):
    wrong = {
        "p384": ec.generate_private_key(ec.SECP384R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()),
        "public": keys.keys["site"].public_key().public_bytes(serialization.Encoding.PEM,
                                                              serialization.PublicFormat.SubjectPublicKeyInfo),
        "text": b"not a key at all\n",
    }
    base = [pushgate, "deliver", "--bootstrap-servers", "127.0.0.1:1", "--platforms", "webpush"]
    for name, content in wrong.items():
        path = os.path.join(directory, f"wrong-{name}.pem")
        with open(path, "wb") as file:
            file.write(content)
        result = subprocess.run(base + ["--vapid-key", f"site={path}", "--vapid-subject", SUBJECT],
                                capture_output=True, text=True, timeout=60)
        body = "".join(line for line in content.decode().splitlines() if not line.startswith("-----"))
        failures.check(result.returncode == 64 and "--vapid-key" in result.stderr and path in result.stderr
                       and (not body or body[:20] not in result.stderr + result.stdout),
                       f"a {name} VAPID file: exit 64 naming --vapid-key and the file, not the key "
                       f"({result.returncode}: {first_line(result.stderr)})")
    cases = [
        (["--vapid-key", f"site={keys.paths['site']}"], "--vapid-subject"),
        (["--vapid-key", f"site={keys.paths['site']}", "--vapid-subject", "ops@example.com"], "--vapid-subject"),
        (["--vapid-key", f"site={keys.paths['site']}", "--vapid-subject", SUBJECT, "--webpush-allow-host",
          "https://127.0.0.1:8443"], "--webpush-allow-host"),
        (["--vapid-key", f"site={os.path.join(directory, 'missing.pem')}", "--vapid-subject", SUBJECT],
         "--vapid-key"),
        ([], "--vapid-key"),
    ]
    for extra, option in cases:
        result = subprocess.run(base + extra, capture_output=True, text=True, timeout=60)
        failures.check(result.returncode == 64 and option in result.stderr,
                       f"{' '.join(extra)[-70:] or 'no key'}: exit 64 naming {option} "
                       f"({result.returncode}: {first_line(result.stderr)})")
    return None


SCENARIOS = {"outcomes": scenario_outcomes, "allowlist": scenario_allowlist, "pause": scenario_pause,
             "storm": scenario_storm,
             "directory": scenario_directory, "bad_input": scenario_bad_input}


def scenario_secrets(runs, keys, failures):
    logs = [path for run in runs if run for path in run.logs]
    text = ""
    for path in logs:
        with open(path, errors="replace") as file:
            text += file.read()
    failures.check(len(text) > 0, f"the deliver logs read: {len(logs)} files, {len(text)} bytes")
    secrets = [secret for run in runs if run for secret in run.secrets()]
    leaked = [secret for secret in secrets if secret in text]
    failures.check(not leaked, f"no endpoint path or subscription key in the logs ({len(secrets)}; leaked {leaked[:3]})")
    for name, path in keys.paths.items():
        with open(path) as file:
            body = "".join(line.strip() for line in file if not line.startswith("-----"))
        chunks = [body[i:i + 24] for i in range(0, len(body) - 24, 12)]
        failures.check(not any(chunk in text for chunk in chunks), f"no part of the {name} key file in the logs")
    failures.check(not re.search(r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", text), "no JWT (eyJ...) in the logs")


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
    directory = tempfile.mkdtemp(prefix="deliver-webpush-e2e-")
    keys = Keys(directory)
    failures, runs, started = Failures(), [], time.monotonic()
    for name in chosen:
        if name == "secrets":
            continue
        print(f"== {name}", flush=True)
        began = time.monotonic()
        try:
            runs.append(SCENARIOS[name](pushgate, directory, keys, failures))
        except Exception as error:  # a scenario that could not run is a failure, the others still run
            failures.check(False, f"{name}: could not run: {error!r}")
        print(f"   ({time.monotonic() - began:.1f} s)", flush=True)
    if "secrets" in chosen:
        print("== secrets", flush=True)
        scenario_secrets(runs, keys, failures)
    print(f"logs: {directory}" if args.keep or failures.messages else "", flush=True)
    if failures.messages:
        print(f"FAIL: {len(failures.messages)} check(s) failed in {time.monotonic() - started:.0f} s:")
        for message in failures.messages:
            print("  - " + message)
        return 1
    if not args.keep:
        subprocess.run(["rm", "-rf", directory])
    print(f"PASS: deliver_webpush_e2e ({', '.join(chosen)}) in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
