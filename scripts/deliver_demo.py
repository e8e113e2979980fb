#!/usr/bin/env python3
"""`make deliver-demo`: translation and delivery on one machine, against stand-ins of APNs, FCM and a push service.

  deliver_demo.py [PUSHGATE]

Starts `pushgate broker`, the stand-ins of the tests (Tests/Integration/standins/: APNs, FCM with its token
endpoint, and a browser's push service), each with keys and a CA made now, `pushgate run` and `pushgate deliver`;
registers examples/devices.jsonl with `pushgate devices put`, and a browser subscription made now (the stand-in
push service needs its private key to decrypt); sends examples/payloads.jsonl to push.unified (line N keyed
user-N, as `make run` does); prints, per device, what the stand-ins received, then every receipt; stops everything.
"""
import base64
import json
import os
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
from cryptography.hazmat.primitives.asymmetric import ec, rsa

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STANDINS = os.path.join(ROOT, "Tests", "Integration", "standins")
KEY_ID, TEAM_ID, BUNDLE = "KID1234567", "TEAM123456", "com.example.shop"
FCM_PROJECT, VAPID_NAME, SUBSCRIPTION_PATH = "demo-shop", "shop", "/push/v2/demo-browser-10"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def pem(key):
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def point(key):
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def service_account(key, token_uri):
    """A Google service-account file for the demo project (its key made now)."""
    return {"type": "service_account", "project_id": FCM_PROJECT, "private_key_id": "demo0123456789abcdef",
            "private_key": pem(key).decode(), "client_email": f"pushgate@{FCM_PROJECT}.iam.gserviceaccount.com",
            "token_uri": token_uri}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def ready(port):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/ready", timeout=2) as answer:
            return answer.status == 200
    except (urllib.error.URLError, OSError):
        return False


def read_receipts(address, settle=3.0, timeout=40.0):
    """The receipts, once none has come for `settle` seconds after the first (or `timeout`)."""
    consumer = Consumer({"bootstrap.servers": address, "group.id": "deliver-demo-receipts", "log_level": 2,
                         "enable.auto.commit": False})
    deadline = time.monotonic() + timeout
    partitions = []
    while not partitions and time.monotonic() < deadline:
        topics = consumer.list_topics("push.receipts", timeout=5).topics
        partitions = sorted(topics["push.receipts"].partitions) if "push.receipts" in topics else []
        time.sleep(0.2)
    consumer.assign([TopicPartition("push.receipts", p, 0) for p in partitions])
    receipts, last = [], None
    while time.monotonic() < deadline and (last is None or time.monotonic() - last < settle):
        message = consumer.poll(0.2)
        if message is not None and not message.error():
            receipts.append((message.key().decode(), message.value().decode()))
            last = time.monotonic()
    consumer.close()
    return receipts


def read_lines(name):
    with open(name) as file:
        return [json.loads(line) for line in file if line.strip()]


def show_requests(device, received):
    """Prints what the stand-in of `device`'s platform received for it; returns how many requests."""
    platform = device["platform"]
    if platform == "apns":
        token = device["apns"]["token"].lower()
        mine = [line for line in received["apns"] if line["path"] == f"/3/device/{token}"]
        where = device["apns"].get("environment", "production")
    elif platform == "fcm":
        token = device["fcm"]["token"]
        mine = [line for line in received["fcm"] if line.get("token") == token]
        where = device.get("app")
    else:
        path = "/" + device["webpush"]["subscription"]["endpoint"].split("/", 3)[3]
        mine = [line for line in received["webpush"] if line.get("event") == "request" and line["path"] == path]
        where = "a browser"
    print(f"-- {device['id']} ({device['audience']}, {platform}, {where}): {len(mine)} request(s)")
    for line in mine:
        status = line["answer"]["status"]
        if platform == "apns":
            headers = line["headers"]
            print(f"   {line['environment']} POST /3/device/{token[:8]}... apns-topic={headers.get('apns-topic')}"
                  f" apns-push-type={headers.get('apns-push-type')} -> {status}")
            print(f"   body: {line['body']}")
        elif platform == "fcm":
            print(f"   POST {line['path']} (bearer access token from the grant) -> {status}")
            print(f"   body: {line['body']}")
        else:
            headers = line["headers"]
            print(f"   POST {path[:14]}... ttl={headers.get('ttl')} urgency={headers.get('urgency')} "
                  f"topic={headers.get('topic')} aes128gcm {line['body_size']} bytes, VAPID aud={line['vapid']['aud']}"
                  f" -> {status}")
            print(f"   decrypted: {line['plaintext']}")
    return len(mine)


def main():
    pushgate = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/pushgate"))
    work = tempfile.mkdtemp(prefix="pushgate-deliver-demo-")
    path = lambda name: os.path.join(work, name)  # noqa: E731
    key_path, requests = path("AuthKey.p8"), path("apns-requests.jsonl")
    with open(key_path, "wb") as file:
        file.write(pem(ec.generate_private_key(ec.SECP256R1())))
    fcm_key, vapid_key = rsa.generate_private_key(public_exponent=65537, key_size=2048), ec.generate_private_key(ec.SECP256R1())
    with open(path("vapid.pem"), "wb") as file:
        file.write(pem(vapid_key))
    browser_key, browser_auth = ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
    with open(path("subscriptions.json"), "w") as file:
        json.dump({SUBSCRIPTION_PATH: {"private_key": b64url(browser_key.private_numbers().private_value.to_bytes(32, "big")),
                                       "auth": b64url(browser_auth), "vapid_key": b64url(point(vapid_key))}}, file)
    with open(path("service-account.json"), "w") as file:
        json.dump(service_account(fcm_key, "https://127.0.0.1/token"), file)
    processes = []

    def start(name, arguments, **options):
        log = open(os.path.join(work, f"{name}.log"), "w")
        process = subprocess.Popen(arguments, stderr=log, **options)
        processes.append((name, process))
        return process

    started = time.monotonic()
    try:
        broker = start("broker", [pushgate, "broker", "--partitions", "4"], stdout=subprocess.PIPE, text=True)
        address = broker.stdout.readline().strip()
        if not address:
            sys.exit(f"pushgate broker did not start; see {work}/broker.log")
        print(f"== pushgate broker: {address}")
        def standin(name, script, arguments):
            process = start(name, [sys.executable, os.path.join(STANDINS, script), "--ca-out", path(f"{name}-ca.pem"),
                                   "--log", path(f"{name}-requests.jsonl")] + arguments, stdout=subprocess.PIPE, text=True)
            if not select.select([process.stdout], [], [], 30)[0]:
                sys.exit(f"the stand-in {name} did not start; see {work}/{name}.log")
            return json.loads(process.stdout.readline())

        ports = standin("apns", "apns_standin.py", ["--verify-key", key_path, "--key-id", KEY_ID, "--team-id", TEAM_ID,
                                                    "--bundle-id", BUNDLE])
        print(f"== stand-in APNs: production https://127.0.0.1:{ports['production_port']}, "
              f"sandbox https://127.0.0.1:{ports['sandbox_port']} (a test CA and key made now)")
        fcm = standin("fcm", "fcm_standin.py", ["--service-account", path("service-account.json")])
        with open(path("service-account.json"), "w") as file:
            json.dump(service_account(fcm_key, fcm["token_uri"]), file)
        print(f"== stand-in FCM and token endpoint: https://127.0.0.1:{fcm['port']} (a service account made now)")
        webpush = standin("webpush", "webpush_standin.py", ["--subscriptions", path("subscriptions.json")])
        endpoint = f"https://127.0.0.1:{webpush['port']}{SUBSCRIPTION_PATH}"
        print(f"== stand-in push service: https://127.0.0.1:{webpush['port']} (a VAPID key and a subscription made now)")
        with open(path("ca.pem"), "w") as bundle:
            for name in ("apns", "fcm", "webpush"):
                with open(path(f"{name}-ca.pem")) as file:
                    bundle.write(file.read())
        with open(os.path.join(ROOT, "examples", "devices.jsonl")) as file:
            devices = [json.loads(line) for line in file if line.strip()]
        browser = {"id": "browser-10", "audience": "user-10", "platform": "webpush", "app": VAPID_NAME,
                   "webpush": {"subscription": {"endpoint": endpoint, "keys": {"p256dh": b64url(point(browser_key)),
                                                                               "auth": b64url(browser_auth)}}}}
        devices.append(browser)
        put = subprocess.run([pushgate, "devices", "put", "--bootstrap-servers", address],
                             input="".join(json.dumps(device) + "\n" for device in devices),
                             capture_output=True, text=True, timeout=60)
        if put.returncode != 0:
            sys.exit(f"pushgate devices put failed: {put.stderr}")
        print(f"== pushgate devices put: examples/devices.jsonl and the browser made now, {len(devices)} devices")
        start("run", [pushgate, "run", "--bootstrap-servers", address], stdout=subprocess.DEVNULL)
        metrics = free_port()
        deliver = start("deliver", [
            pushgate, "deliver", "--bootstrap-servers", address, "--apns-key-file", key_path,
            "--apns-key-id", KEY_ID, "--apns-team-id", TEAM_ID, "--apns-bundle-id", BUNDLE,
            "--apns-endpoint", f"https://127.0.0.1:{ports['production_port']}",
            "--apns-sandbox-endpoint", f"https://127.0.0.1:{ports['sandbox_port']}",
            "--fcm-credentials", path("service-account.json"), "--fcm-endpoint", f"https://127.0.0.1:{fcm['port']}",
            "--vapid-key", f"{VAPID_NAME}={path('vapid.pem')}", "--vapid-subject", "mailto:push@example.com",
            "--webpush-allow-host", "127.0.0.1", "--ca-file", path("ca.pem"),
            "--receipts", "all", "--metrics-port", str(metrics)], stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while not ready(metrics) and deliver.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        if not ready(metrics):
            sys.exit(f"pushgate deliver is not ready; see {work}/deliver.log")
        print("== pushgate run and pushgate deliver (--receipts all) are up")
        producer = Producer({"bootstrap.servers": address, "log_level": 2})
        with open(os.path.join(ROOT, "examples", "payloads.jsonl"), "rb") as file:
            payloads = [line.rstrip(b"\n") for line in file if line.strip()]
        for number, payload in enumerate(payloads, start=1):
            producer.produce("push.unified", key=f"user-{number}".encode(), value=payload,
                             headers=[("trace-id", b"demo")])
        producer.flush(30)
        print(f"== sent {len(payloads)} example payloads to push.unified (keys user-1..user-{len(payloads)})")
        receipts = read_receipts(address)
        received = {name: read_lines(path(f"{name}-requests.jsonl")) for name in ("apns", "fcm", "webpush")}
        print("\n== what the stand-ins received, per device")
        reached = set()
        for device in devices:
            shown = show_requests(device, received)
            if shown:
                reached.add(device["platform"])
        print(f"\n== push.receipts: {len(receipts)} receipt(s) (key  value)")
        for key, value in receipts:
            print(f"{key}  {value}")
        if not receipts or reached != {"apns", "fcm", "webpush"}:
            sys.exit(f"no receipt came, or a platform's stand-in received no push ({sorted(reached)}); logs in {work}")
        print(f"\n== done in {time.monotonic() - started:.1f} s; logs and the stand-ins' *-requests.jsonl in {work}")
    finally:
        for name, process in reversed(processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
