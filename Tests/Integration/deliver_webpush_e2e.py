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
import json
import os
import subprocess
import sys
import time

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import delivery_harness  # noqa: E402
from delivery_harness import DEVICES_TOPIC, JWT, DeliverRun, key_body, leaked_key_part, log_text  # noqa: E402
from delivery_harness import receipt_members_in_order  # noqa: E402
from webpush_client import STANDIN, Subscription, b64url, point, unb64url, verify_vapid  # noqa: E402

TOPIC = "push.webpush"
SUBJECT = "mailto:ops@example.com"
VALUE = '{"web_push":8030,"notification":{"title":"Hi é","navigate":"https://example.com/o/1"},"app_badge":2}'


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


class Run(DeliverRun):
    """One scenario's world: a broker, the stand-in push service on several loopback listeners, deliver."""

    def __init__(self, pushgate, directory, name, keys, subscriptions, script=None, listen=("127.0.0.1",)):
        super().__init__(pushgate, directory, name, TOPIC)
        self.keys, self.subscriptions = keys, subscriptions
        subscriptions_path = self.write_json(
            "subscriptions.json", {path: sub.standin_entry() for path, sub in subscriptions.items()})
        script_path = self.write_json("script.json", script or {})
        listen_options = [option for address in listen for option in ("--listen", address)]
        self.listeners = self.start_standin(
            STANDIN, ["--subscriptions", subscriptions_path, "--script", script_path, "--ca-out", self.ca,
                      "--log", self.request_log] + listen_options, "the stand-in push service")["listeners"]
        self.port = self.listeners[0]["port"]

    def origin(self):
        return f"https://127.0.0.1:{self.port}"

    def start_deliver(self, log_level="trace", extra=()):
        return super().start_deliver(
            ["--platforms", "webpush", "--vapid-subject", SUBJECT, "--webpush-allow-host", "127.0.0.1",
             "--ca-file", self.ca, "--request-timeout", "3s"] + self.keys.options(), log_level, extra)

    def events(self, kind="request"):
        return [line for line in self.logged() if line.get("event") == kind]

    def receipts(self, expect, timeout=90, idle=1.5):
        return super().receipts(expect, timeout, idle)

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
    got = receipt["json"]
    receipt_members_in_order(failures, receipt, label)
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
    text = log_text(failures, [path for run in runs if run for path in run.logs])
    secrets = [secret for run in runs if run for secret in run.secrets()]
    leaked = [secret for secret in secrets if secret in text]
    failures.check(not leaked, f"no endpoint path or subscription key in the logs ({len(secrets)}; leaked {leaked[:3]})")
    for name, path in keys.paths.items():
        with open(path) as file:
            body = key_body(file.read())
        failures.check(not leaked_key_part(body, text), f"no part of the {name} key file in the logs")
    failures.check(not JWT.search(text), "no JWT (eyJ...) in the logs")


if __name__ == "__main__":
    sys.exit(delivery_harness.main(__doc__, "deliver_webpush_e2e", SCENARIOS, {"secrets": scenario_secrets},
                                   prefix="deliver-webpush-e2e-", context=lambda directory: (Keys(directory),),
                                   alone={"secrets": ["outcomes", "secrets"]}))
