#!/usr/bin/env python3
"""`make deliver-demo`: translation and delivery on one machine, against a stand-in APNs.

  deliver_demo.py [PUSHGATE]

Starts `pushgate broker`, the stand-in APNs of the tests (Tests/Integration/standins/apns_standin.py, with a
signing key and a CA made now), `pushgate run` and `pushgate deliver`; registers examples/devices.jsonl with
`pushgate devices put`; sends examples/payloads.jsonl to push.unified (line N keyed user-N, as `make run`
does); prints, per device, what the stand-in received, then every receipt; stops everything.
"""
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
from cryptography.hazmat.primitives.asymmetric import ec

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STANDIN = os.path.join(ROOT, "Tests", "Integration", "standins", "apns_standin.py")
KEY_ID, TEAM_ID, BUNDLE = "KID1234567", "TEAM123456", "com.example.shop"


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


def main():
    pushgate = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/pushgate"))
    work = tempfile.mkdtemp(prefix="pushgate-deliver-demo-")
    key_path, ca, requests = (os.path.join(work, name) for name in ("AuthKey.p8", "ca.pem", "requests.jsonl"))
    with open(key_path, "wb") as file:
        file.write(ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
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
        standin = start("standin", [sys.executable, STANDIN, "--verify-key", key_path, "--key-id", KEY_ID,
                                    "--team-id", TEAM_ID, "--bundle-id", BUNDLE, "--ca-out", ca, "--log", requests],
                        stdout=subprocess.PIPE, text=True)
        if not select.select([standin.stdout], [], [], 30)[0]:
            sys.exit(f"the stand-in APNs did not start; see {work}/standin.log")
        ports = json.loads(standin.stdout.readline())
        print(f"== stand-in APNs: production https://127.0.0.1:{ports['production_port']}, "
              f"sandbox https://127.0.0.1:{ports['sandbox_port']} (a test CA and key made now)")
        put = subprocess.run([pushgate, "devices", "put", os.path.join(ROOT, "examples", "devices.jsonl"),
                              "--bootstrap-servers", address], capture_output=True, text=True, timeout=60)
        if put.returncode != 0:
            sys.exit(f"pushgate devices put failed: {put.stderr}")
        with open(os.path.join(ROOT, "examples", "devices.jsonl")) as file:
            devices = [json.loads(line) for line in file if line.strip()]
        print(f"== pushgate devices put examples/devices.jsonl: {len(devices)} devices")
        start("run", [pushgate, "run", "--bootstrap-servers", address], stdout=subprocess.DEVNULL)
        metrics = free_port()
        deliver = start("deliver", [
            pushgate, "deliver", "--bootstrap-servers", address, "--apns-key-file", key_path,
            "--apns-key-id", KEY_ID, "--apns-team-id", TEAM_ID, "--apns-bundle-id", BUNDLE,
            "--apns-endpoint", f"https://127.0.0.1:{ports['production_port']}",
            "--apns-sandbox-endpoint", f"https://127.0.0.1:{ports['sandbox_port']}", "--ca-file", ca,
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
        with open(requests) as file:
            received = [json.loads(line) for line in file if line.strip()]
        print("\n== what the stand-in APNs received, per device")
        for device in devices:
            token = device["apns"]["token"].lower()
            mine = [line for line in received if line["path"] == f"/3/device/{token}"]
            print(f"-- {device['id']} ({device['audience']}, {device['apns'].get('environment', 'production')}): "
                  f"{len(mine)} request(s)")
            for line in mine:
                headers = line["headers"]
                print(f"   {line['environment']} POST /3/device/{token[:8]}... apns-topic={headers.get('apns-topic')}"
                      f" apns-push-type={headers.get('apns-push-type')} -> {line['answer']['status']}")
                print(f"   body: {line['body']}")
        print(f"\n== push.receipts: {len(receipts)} receipt(s) (key  value)")
        for key, value in receipts:
            print(f"{key}  {value}")
        if not receipts or not received:
            sys.exit(f"no push reached the stand-in or no receipt came; logs in {work}")
        print(f"\n== done in {time.monotonic() - started:.1f} s; logs and the stand-in's requests.jsonl in {work}")
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
