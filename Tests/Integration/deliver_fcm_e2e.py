#!/usr/bin/env python3
"""`pushgate deliver --platforms fcm` end to end (SPEC 10.4, 10.6, 10.7) against `pushgate broker` and the stand-in
FCM and token endpoint (standins/fcm_standin.py, a service account made at test time), records and receipts written
and read with an independent client (confluent-kafka), every grant's signature verified with `cryptography`.

  deliver_fcm_e2e.py --pushgate .build/debug/pushgate [SCENARIO ...]

Scenarios (all by default):
  outcomes   every FCM row of SPEC 10.6: delivered (message_id), validated (validate_only), gone (404 UNREGISTERED),
             rejected (400 INVALID_ARGUMENT, 403 SENDER_ID_MISMATCH, unknown_app, a value without a message object),
             transient then delivered (429 QUOTA_EXCEEDED and 503 UNAVAILABLE with Retry-After honoured, 500 INTERNAL,
             a 502 HTML page), THIRD_PARTY_AUTH_ERROR (the project paused, then delivered), expired (android.ttl 0s
             with a 503), no_device; each receipt member by member; the body the stand-in got is the record's value
             with the token inserted first in `message`, every other byte the same; a device without `app` uses the
             only project
  refresh    access tokens of 2 s are replaced before they expire (no 401), and a 401 makes one new grant and sends
             again (one attempt)
  storm      20 devices answered 429 QUOTA_EXCEEDED with Retry-After: 2, twice each: every one delivered, each
             device's requests at least 2 s apart
  outage     the token endpoint refuses the grant for 8 s: /ready 503 naming the project, nothing committed, no send;
             then every pair delivered and committed
  badfiles   a service-account file that is not JSON, lacks token_uri or holds a key that is not RSA: exit 64 with a
             message naming --fcm-credentials and the file, never the key
  grants     every grant the stand-in logged is verified again here: RS256 with the service account's public key,
             kid, iss, scope, aud = the token_uri, exp = iat + 3600
  secrets    no registration token, access token, assertion or key in any deliver log of the run
Exit status 0 when every scenario passes.
"""
import base64
import json
import os
import subprocess
import sys
import time

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "standins"))
import delivery_harness  # noqa: E402
from delivery_harness import ORDER, JWT, DeliverRun, key_body, leaked_key_part, log_text  # noqa: E402
from delivery_harness import receipt_at_is_recent  # noqa: E402
import fcm_standin  # noqa: E402

STANDIN = os.path.join(HERE, "standins", "fcm_standin.py")
PROJECT = "shop-12345"
FCM_TOPIC = "push.fcm"
SCOPE = "https://www.googleapis.com/auth/firebase.messaging"


def fcm_token(name):
    """A registration token of the shape FCM gives, its own for every name."""
    return f"{name}:APA91b" + base64.urlsafe_b64encode(name.encode() * 4).decode().rstrip("=")


def value(rest='"data":{"k":"v"},"android":{"priority":"HIGH","ttl":"3600s"}', validate_only=False):
    """An `fcm` value with odd spacing and a nested "message" string, as (value, function of the token giving the
    body FCM must receive: the token first in `message`, every other byte the same)."""
    head = '{"validate_only":' + ("true" if validate_only else "false") + ', "note":"\\"message\\":{x}",\n "message" : {'
    text = head + rest + "}}"

    def expected(token):
        return (head + '"token":' + json.dumps(token) + ("," if rest else "") + rest + "}}").encode()
    return text.encode(), expected


class Run(DeliverRun):
    """One scenario's world: a broker, a stand-in FCM with a script, `pushgate deliver` processes."""

    def __init__(self, pushgate, directory, name, script=None, standin_options=()):
        super().__init__(pushgate, directory, name, FCM_TOPIC)
        self.account_path = self.path("service-account.json")
        # A new key for every run; the file is written again below with the stand-in's token_uri.
        self.key = fcm_standin.make_service_account(self.account_path, PROJECT, "https://127.0.0.1:9/token")
        script_path = self.write_json("script.json", script or {})
        self.ready = self.start_standin(
            STANDIN, ["--service-account", self.account_path, "--ca-out", self.ca, "--log", self.request_log,
                      "--script", script_path] + list(standin_options), "the stand-in FCM")
        with open(self.account_path) as file:
            self.account = json.load(file)
        self.account["token_uri"] = self.ready["token_uri"]
        with open(self.account_path, "w") as file:
            json.dump(self.account, file)

    def produce(self, key, data, headers=()):
        """Writes one record to the fcm topic; returns its (partition, offset)."""
        return super().produce(FCM_TOPIC, key, data, headers)

    def start_deliver(self, log_level="info", extra=()):
        return super().start_deliver(
            ["--platforms", "fcm", "--fcm-credentials", self.account_path,
             "--fcm-endpoint", f"https://127.0.0.1:{self.ready['port']}", "--ca-file", self.ca,
             "--request-timeout", "5s"], log_level, extra)

    def requests(self, kind=None):
        return [line for line in self.logged() if kind is None or line["kind"] == kind]

    def sends(self, token):
        return [line for line in self.requests("send") if line["token"] == token]


def fcm_headers(number):
    """The headers of an `fcm` record as `pushgate run` writes them."""
    return [("pushgate-source", f"push.unified:0:{number}".encode()), ("pushgate-id", f"fcm-{number}".encode()),
            ("pushgate-format", b"fcm")]


def device(name, audience, app=PROJECT):
    line = {"id": name, "audience": audience, "platform": "fcm", "fcm": {"token": fcm_token(name)}}
    if app is not None:
        line["app"] = app
    return line


def check_receipt(failures, receipt, key, want, label, now_ms):
    """The receipt's key, headers and value member by member, in the order of 10.7; `at` recent."""
    got = receipt["json"]
    names = [name for name, _ in receipt["pairs"]]
    want_names = [name for name in ORDER if name in want or name == "at"]
    failures.check(names == want_names, f"{label}: members {want_names} (got {names})")
    mismatched = [(name, got.get(name)) for name, expected in want.items()
                  if not (expected(got.get(name)) if callable(expected) else got.get(name) == expected)]
    failures.check(not mismatched, f"{label}: " + ", ".join(f"{n}={v!r}" for n, v in want.items() if not callable(v))
                   + (f" (mismatched {mismatched})" if mismatched else ""))
    receipt_at_is_recent(failures, receipt, label, now_ms, shown=False)
    failures.check(receipt["key"] == key, f"{label}: key {key!r} (got {receipt['key']!r})")
    headers = [("pushgate-outcome", want["outcome"]), ("pushgate-source", want["source"]), ("pushgate-id", want["id"])]
    failures.check(receipt["headers"] == headers, f"{label}: headers {headers} (got {receipt['headers']})")


def scenario_outcomes(pushgate, directory, failures):
    error = lambda status, code, **more: {"status": status, "error_code": code, **more}  # noqa: E731
    script = {"answers": {
        fcm_token("gone"): [error(404, "UNREGISTERED")],
        fcm_token("invalid"): [error(400, "INVALID_ARGUMENT")],
        fcm_token("mismatch"): [error(403, "SENDER_ID_MISMATCH")],
        fcm_token("quota"): [error(429, "QUOTA_EXCEEDED", retry_after="2")],
        fcm_token("unavailable"): [error(503, "UNAVAILABLE", retry_after="1")],
        fcm_token("internal"): [error(500, "INTERNAL")],
        fcm_token("html"): [{"status": 502, "html": True}],
        fcm_token("thirdparty"): [error(401, "THIRD_PARTY_AUTH_ERROR")],
        fcm_token("expired"): [error(503, "UNAVAILABLE")],
    }}
    run = Run(pushgate, directory, "outcomes", script)
    names = ["ok", "noapp", "dry", "gone", "invalid", "mismatch", "other", "nomessage", "quota", "unavailable",
             "internal", "html", "thirdparty", "expired"]
    try:
        run.put_devices([device(name, f"user-{name}", app={"noapp": None, "other": "other-project"}.get(name, PROJECT))
                         for name in names])
        run.start_deliver(log_level="trace")
        plain, expected_body = value()
        dry, expected_dry = value('"data":{"k":"v"}', validate_only=True)
        zero_ttl, _ = value('"android":{"ttl":"0s"}')
        # label: (record value, outcome, status, reason, attempts)
        plan = {
            "ok": (plain, "delivered", 200, None, 1), "noapp": (plain, "delivered", 200, None, 1),
            "dry": (dry, "validated", 200, None, 1), "gone": (plain, "gone", 404, "UNREGISTERED", 1),
            "invalid": (plain, "rejected", 400, "INVALID_ARGUMENT", 1),
            "mismatch": (plain, "rejected", 403, "SENDER_ID_MISMATCH", 1),
            "other": (plain, "rejected", None, "unknown_app", 0),
            "nomessage": (b'{"validate_only":false}', "rejected", None, "no_message_object", 0),
            "quota": (plain, "delivered", 200, None, 2), "unavailable": (plain, "delivered", 200, None, 2),
            "internal": (plain, "delivered", 200, None, 2), "html": (plain, "delivered", 200, None, 2),
            "thirdparty": (plain, "delivered", 200, None, 2),
            "expired": (zero_ttl, "expired", 503, "UNAVAILABLE", 1),
            "nobody": (plain, "no_device", None, None, 0),
        }
        where = {}
        for number, (label, (data, *_)) in enumerate(plan.items()):
            where[label] = run.produce(f"user-{label}".encode(), data, fcm_headers(number))
        receipts = run.receipts(expect=len(plan), timeout=90)
        now_ms = int(time.time() * 1000)
        failures.check(len(receipts) == len(plan), f"one receipt per pair: {len(plan)} (got {len(receipts)})")
        by_id = {r["json"].get("id"): r for r in receipts}
        for number, (label, (data, outcome, status, reason, attempts)) in enumerate(plan.items()):
            receipt = by_id.get(f"fcm-{number}")
            if not failures.check(receipt is not None, f"{label}: a receipt"):
                continue
            partition, offset = where[label]
            want = {"outcome": outcome, "platform": "fcm"}
            if outcome != "no_device":
                want["device"] = label
            want["audience"] = f"user-{label}"
            # A device without app is sent with the only project, which its receipt names.
            app = {"other": "other-project", "nobody": None}.get(label, PROJECT)
            if app:
                want["app"] = app
            want.update({"record": f"{FCM_TOPIC}:{partition}:{offset}", "source": f"push.unified:0:{number}",
                         "id": f"fcm-{number}", "format": "fcm"})
            if status is not None:
                want["status"] = status
            if reason is not None:
                want["reason"] = reason
            # unknown_app and no_message_object are answered without a request: attempts counts requests made.
            want["attempts"] = attempts
            if outcome in ("delivered", "validated"):
                prefix = f"projects/{PROJECT}/messages/"
                want["message_id"] = ((lambda got: got == prefix + "fake_message_id") if outcome == "validated"
                                      else (lambda got: isinstance(got, str) and got.startswith(prefix + "0:")))
            key = f"user-{label}" if outcome == "no_device" else label
            check_receipt(failures, receipt, key, want, f"{label} ({outcome})", now_ms)
        # The exact bytes FCM got: the token first in `message`, every other byte of the value the same.
        for label, expected in (("ok", expected_body), ("noapp", expected_body), ("dry", expected_dry)):
            sends = run.sends(fcm_token(label))
            failures.check(len(sends) == 1 and base64.b64decode(sends[0]["body_base64"]) == expected(fcm_token(label)),
                           f"{label}: the body is the value with the token inserted first in message, byte for byte")
            failures.check(sends and sends[0]["path"] == f"/v1/projects/{PROJECT}/messages:send"
                           and sends[0]["headers"].get("content-type") == "application/json",
                           f"{label}: POST /v1/projects/{PROJECT}/messages:send, content-type application/json")
        for label in ("other", "nomessage"):
            failures.check(not run.sends(fcm_token(label)), f"{label}: no request made")
        failures.check(not run.sends(fcm_token("expired"))[1:], "expired (android.ttl 0s): one attempt only")
        for label, seconds in (("quota", 2.0), ("unavailable", 1.0)):
            times = [line["time"] for line in run.sends(fcm_token(label))]
            failures.check(len(times) == 2 and times[1] - times[0] >= seconds,
                           f"{label}: the retry came at least {seconds} s after the Retry-After answer "
                           f"({times[1] - times[0] if len(times) == 2 else '?'} s)")
        with open(run.logs[-1]) as file:
            log = file.read()
        failures.check(f"fcm project {PROJECT} paused" in log and "THIRD_PARTY_AUTH_ERROR" in log,
                       "THIRD_PARTY_AUTH_ERROR paused the project (logged with its reason), then it was delivered")
        committed, ends = run.all_committed()[1:]
        failures.check(all(committed[p] == ends[p] for p in ends if ends[p]),
                       f"every record committed (committed {committed}, ends {ends})")
    finally:
        run.stop()
    return run, [fcm_token(name) for name in names]


def scenario_refresh(pushgate, directory, failures):
    script = {"answers": {fcm_token("renew"): [{"status": 401, "revoke": True}]}}
    run = Run(pushgate, directory, "refresh", script, standin_options=["--token-lifetime", "2"])
    try:
        run.put_devices([device("short", "user-short"), device("renew", "user-renew")])
        run.start_deliver()
        data, _ = value()
        for number in range(4):
            run.produce(b"user-short", data, fcm_headers(number))
            time.sleep(1.3)
        receipts = run.receipts(expect=4, timeout=30)
        failures.check(sorted(r["json"]["outcome"] for r in receipts) == ["delivered"] * 4,
                       f"4 records with 2-second access tokens delivered ({[r['json']['outcome'] for r in receipts]})")
        sends = run.sends(fcm_token("short"))
        digests = {line["access_token_digest"] for line in sends}
        failures.check([line["answer"]["status"] for line in sends] == [200] * 4 and len(digests) >= 2,
                       f"no 401: the tokens were replaced before they expired ({len(digests)} tokens for 4 sends)")
        grants_before = len(run.requests("grant"))
        run.produce(b"user-renew", data, fcm_headers(10))
        receipts = run.receipts(expect=5, timeout=30)
        renewed = [r["json"] for r in receipts if r["json"].get("id") == "fcm-10"]
        failures.check([(r["outcome"], r["attempts"]) for r in renewed] == [("delivered", 1)],
                       f"a 401 is renewed within one attempt ({renewed})")
        sends = run.sends(fcm_token("renew"))
        failures.check([line["answer"]["status"] for line in sends] == [401, 200]
                       and sends[0]["access_token_digest"] != sends[1]["access_token_digest"],
                       "the 401's request was sent again once, with a new access token")
        failures.check(len(run.requests("grant")) - grants_before >= 1, "the 401 made a new grant")
    finally:
        run.stop()
    return run, [fcm_token("short"), fcm_token("renew")]


def scenario_storm(pushgate, directory, failures, count=20):
    names = [f"storm-{n}" for n in range(count)]
    storm = {"status": 429, "error_code": "QUOTA_EXCEEDED", "retry_after": "2"}
    run = Run(pushgate, directory, "storm", {"answers": {fcm_token(name): [storm, storm] for name in names}})
    try:
        run.put_devices([device(name, "user-storm") for name in names])
        run.start_deliver()
        data, _ = value()
        run.produce(b"user-storm", data, fcm_headers(1))
        receipts = run.receipts(expect=count, timeout=60)
        failures.check(sorted((r["json"]["outcome"], r["json"]["attempts"]) for r in receipts)
                       == [("delivered", 3)] * count,
                       f"every device delivered at its third attempt ({len(receipts)} receipts)")
        gaps = []
        for name in names:
            times = [line["time"] for line in run.sends(fcm_token(name))]
            gaps += [later - earlier for earlier, later in zip(times, times[1:])]
        failures.check(len(gaps) == 2 * count and min(gaps) >= 2.0,
                       f"Retry-After honoured: every retry at least 2 s after its 429 (shortest {min(gaps or [0]):.2f} s)")
    finally:
        run.stop()
    return run, [fcm_token(name) for name in names]


def scenario_outage(pushgate, directory, failures, seconds=8):
    run = Run(pushgate, directory, "outage", standin_options=["--refuse-grants-for", str(seconds)])
    names = ["outage-a", "outage-b"]
    try:
        run.put_devices([device(name, "user-outage") for name in names])
        run.start_deliver()
        data, _ = value()
        count = 10
        for number in range(count):
            run.produce(b"user-outage", data, fcm_headers(number))
        start, deadline = None, time.monotonic() + 20
        while start is None and time.monotonic() < deadline:
            grants = run.requests("grant")
            start = grants[0]["time"] if grants else None
            time.sleep(0.2)
        failures.check(start is not None, "the first grant reached the stand-in")
        ready_seen, committed_during = [], []
        while start is not None and time.time() < start + seconds - 1:
            status, body = run.http("/ready")
            ready_seen.append((status, f"fcm project {PROJECT}" in body))
            committed_during += [p for p, offset in run.committed()[0].items() if offset]
            time.sleep(1.5)
        failures.check(len(ready_seen) >= 2 and all(status == 503 and named for status, named in ready_seen[1:]),
                       f"/ready answered 503 naming fcm project {PROJECT} during the outage ({ready_seen})")
        failures.check(not committed_during, f"no offset committed during the outage ({committed_during})")
        refused = [line for line in run.requests("grant") if line["answer"]["status"] == 400]
        failures.check(refused and not [line for line in run.requests("send") if line["time"] < start + seconds],
                       f"the grants were refused ({len(refused)}) and no send was made meanwhile")
        receipts = run.receipts(expect=2 * count, timeout=60)
        outcomes = sorted(r["json"]["outcome"] for r in receipts)
        failures.check(outcomes == ["delivered"] * (2 * count),
                       f"after the outage every pair delivered: {2 * count} (got {len(outcomes)})")
        done, committed, ends = run.all_committed()
        failures.check(done, f"then everything committed (committed {committed}, ends {ends})")
        failures.check(run.http("/ready")[0] == 200, "/ready 200 again")
    finally:
        run.stop()
    return run, [fcm_token(name) for name in names]


def scenario_badfiles(pushgate, directory, failures):
    good = os.path.join(directory, "badfiles-good.json")
    key = fcm_standin.make_service_account(good, PROJECT, "https://127.0.0.1:9/token")
    with open(good) as file:
        account = json.load(file)
    key_body = "".join(line for line in account["private_key"].splitlines() if not line.startswith("-----"))
    ec_pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    cases = {
        "not-json": ("this is not json " + key_body[:40], "is not JSON"),
        "no-token-uri": (json.dumps({k: v for k, v in account.items() if k != "token_uri"}), "has no token_uri"),
        "not-rsa": (json.dumps({**account, "private_key": ec_pem}), "private_key is not an RSA private key"),
    }
    del key
    for name, (text, message) in cases.items():
        path = os.path.join(directory, f"badfiles-{name}.json")
        with open(path, "w") as file:
            file.write(text)
        result = subprocess.run(
            [pushgate, "deliver", "--bootstrap-servers", "127.0.0.1:1", "--fcm-credentials", path],
            capture_output=True, text=True, timeout=60)
        output = result.stdout + result.stderr
        failures.check(result.returncode == 64 and "--fcm-credentials" in output and path in output
                       and message in output,
                       f"{name}: exit 64 naming --fcm-credentials, the file and '{message}' "
                       f"(exit {result.returncode}: {output.strip().splitlines()[-1:] if output else ''})")
        chunks = [key_body[i:i + 24] for i in range(0, len(key_body) - 24, 12)]
        failures.check(not any(chunk in output for chunk in chunks) and "BEGIN" not in output,
                       f"{name}: no part of the key in the message")
    return None, []


def scenario_grants(runs, failures):
    checked = 0
    for run, _ in runs:
        if run is None:
            continue
        public_key = run.key.public_key()
        for line in run.requests("grant"):
            assertion = line["assertion"]
            if assertion is None:
                continue
            header_text, claims_text, signature_text = assertion.split(".")
            unpad = lambda text: base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))  # noqa: E731
            try:
                public_key.verify(unpad(signature_text), f"{header_text}.{claims_text}".encode(), padding.PKCS1v15(),
                                  hashes.SHA256())
                valid = True
            except InvalidSignature:
                valid = False
            header, claims = json.loads(unpad(header_text)), json.loads(unpad(claims_text))
            shape = (header == {"alg": "RS256", "typ": "JWT", "kid": run.account["private_key_id"]}
                     and list(claims) == ["iss", "scope", "aud", "iat", "exp"]
                     and claims["iss"] == run.account["client_email"] and claims["scope"] == SCOPE
                     and claims["aud"] == run.ready["token_uri"] and claims["exp"] == claims["iat"] + 3600)
            if not failures.check(valid and shape, f"{run.name}: a grant's assertion verified (RS256, claims)"):
                print(f"        header {header}, claims {claims}")
            checked += 1
    failures.check(checked >= 5, f"{checked} grants verified with cryptography")


def scenario_secrets(runs, failures):
    text = log_text(failures, [path for run, _ in runs if run is not None for path in run.logs])
    tokens = sorted({t for _, run_tokens in runs for t in run_tokens})
    failures.check(not [t for t in tokens if t in text], f"no registration token in the logs ({len(tokens)} tokens)")
    failures.check("ya29." not in text, "no access token in the logs")
    failures.check(not JWT.search(text), "no JWT (eyJ...) in the logs")
    for run, _ in runs:
        if run is None:
            continue
        body = key_body(run.account["private_key"])
        failures.check(not leaked_key_part(body, text), f"{run.name}: no part of the key in the logs")


SCENARIOS = {"outcomes": scenario_outcomes, "refresh": scenario_refresh, "storm": scenario_storm,
             "outage": scenario_outage, "badfiles": scenario_badfiles}


if __name__ == "__main__":
    sys.exit(delivery_harness.main(__doc__, "deliver_fcm_e2e", SCENARIOS,
                                   {"grants": scenario_grants, "secrets": scenario_secrets}, prefix="deliver-fcm-e2e-"))
