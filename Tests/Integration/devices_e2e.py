#!/usr/bin/env python3
"""`pushgate devices put|remove|list` (SPEC 10.8) against `pushgate broker`, the directory topic read back with
an independent client (confluent-kafka): keys, values as given (less `id`), tombstones; `put` all or nothing.

  devices_e2e.py --pushgate .build/debug/pushgate
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile

from confluent_kafka import Consumer, TopicPartition

TOPIC = "push.devices"
TOKEN = "ab" * 32
P256DH = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
AUTH = "AAECAwQFBgcICQoLDA0ODw"
LINES = [
    '{"id":"iphone-1","audience":"user-1","platform":"apns","app":"com.example.shop",'
    f'"apns":{{"token":"{TOKEN.upper()}","environment":"development"}},"mine":{{"added": 1}}}}',
    f'{{ "audience" : "user-1", "id" : "pixel-1", "platform":"fcm", "fcm":{{"token":"fcm-token-1"}} }}',
    '{"id":"browser-1","audience":"user-2","platform":"webpush","webpush":{"subscription":{'
    f'"endpoint":"https://fcm.googleapis.com/fcm/send/x","expirationTime":null,"keys":{{"p256dh":"{P256DH}","auth":"{AUTH}"}}}}}}}}',
]
# What the value of each line is on the topic: the line's members as given, less `id`.
VALUES = {
    "iphone-1": '{"audience":"user-1","platform":"apns","app":"com.example.shop",'
                f'"apns":{{"token":"{TOKEN.upper()}","environment":"development"}},"mine":{{"added": 1}}}}',
    "pixel-1": '{"audience" : "user-1","platform":"fcm","fcm":{"token":"fcm-token-1"}}',
    "browser-1": LINES[2].replace('"id":"browser-1",', ""),
}


def read_topic(address, timeout=20):
    """Every record of the directory topic, (key, value or None), in offset order per partition."""
    consumer = Consumer({"bootstrap.servers": address, "group.id": "devices-e2e-check", "enable.auto.commit": False,
                         "log_level": 2})
    metadata = consumer.list_topics(TOPIC, timeout=10)
    partitions = sorted(metadata.topics[TOPIC].partitions)
    ends = {p: consumer.get_watermark_offsets(TopicPartition(TOPIC, p), timeout=10)[1] for p in partitions}
    consumer.assign([TopicPartition(TOPIC, p, 0) for p in partitions if ends[p] > 0])
    records, seen = [], {p: 0 for p in partitions}
    import time
    deadline = time.time() + timeout
    while any(seen[p] < ends[p] for p in partitions) and time.time() < deadline:
        message = consumer.poll(0.5)
        if message is None or message.error():
            continue
        records.append((message.key().decode(), None if message.value() is None else message.value().decode()))
        seen[message.partition()] = message.offset() + 1
    consumer.close()
    if any(seen[p] < ends[p] for p in partitions):
        raise AssertionError(f"could not read {TOPIC} to its end: {seen} of {ends}")
    return records


def devices(pushgate, address, *arguments, stdin=None):
    return subprocess.run([pushgate, "devices", *arguments, "--bootstrap-servers", address, "--log-level", "warning"],
                          input=stdin, capture_output=True, text=True, timeout=120)


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print(f"ok: {message}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pushgate", default=".build/debug/pushgate")
    pushgate = os.path.abspath(parser.parse_args().pushgate)
    broker = subprocess.Popen([pushgate, "broker", "--partitions", "3", "--extra-topic", TOPIC],
                              stdout=subprocess.PIPE, text=True)
    try:
        address = broker.stdout.readline().strip()
        check(bool(address), f"pushgate broker started at {address}")
        with tempfile.TemporaryDirectory() as directory:
            bad = os.path.join(directory, "bad.jsonl")
            with open(bad, "w") as handle:
                handle.write("\n".join(LINES[:2]) + "\n\n")
                handle.write('{"id":"ipad-1","audience":"user-3","platform":"apns","app":"a",'
                             f'"apns":{{"token":"{TOKEN[:-2]}zz"}}}}\n')
                handle.write(LINES[2] + "\n")
            result = devices(pushgate, address, "put", bad)
            check(result.returncode == 1, f"put with one bad line exits 1 (got {result.returncode})")
            check("line 4: /apns/token: must be hexadecimal digits" in result.stderr,
                  f"put names the bad line and its rule: {result.stderr.strip()!r}")
            check(TOKEN[:-2] not in result.stderr, "put's message holds no token")
            check(read_topic(address) == [], "nothing was written")

        result = devices(pushgate, address, "put", stdin="\n".join(LINES) + "\n")
        check(result.returncode == 0, f"put of three valid lines from standard input exits 0 ({result.stderr.strip()})")
        records = read_topic(address)
        check(sorted(records) == sorted(VALUES.items()), "each line is written keyed by its id, its value as given")

        result = devices(pushgate, address, "list")
        check(result.returncode == 0, f"list exits 0 ({result.stderr.strip()})")
        listed = result.stdout.splitlines()
        check([json.loads(line)["id"] for line in listed] == ["browser-1", "iphone-1", "pixel-1"], "list sorts by id")
        check(all(line.startswith('{"id":') for line in listed), "list writes id first")
        check(listed[1] == '{"id":"iphone-1",' + VALUES["iphone-1"][1:], "list writes the value as it was given")

        result = devices(pushgate, address, "list", "--audience", "user-1")
        check([json.loads(line)["id"] for line in result.stdout.splitlines()] == ["iphone-1", "pixel-1"],
              "list --audience keeps that audience's devices")

        result = devices(pushgate, address, "remove", "pixel-1", "browser-1")
        check(result.returncode == 0, f"remove exits 0 ({result.stderr.strip()})")
        records = read_topic(address)
        check(sorted(r for r in records if r[1] is None) == [("browser-1", None), ("pixel-1", None)],
              "remove writes a tombstone (null value) per id")
        result = devices(pushgate, address, "list")
        check([json.loads(line)["id"] for line in result.stdout.splitlines()] == ["iphone-1"],
              "list leaves removed devices out")

        result = devices(pushgate, address, "put", "/nonexistent/devices.jsonl")
        check(result.returncode != 0 and "cannot read" in result.stderr, "put of a missing file fails naming it")
        result = subprocess.run([pushgate, "devices", "list"], capture_output=True, text=True, timeout=60,
                                env={k: v for k, v in os.environ.items() if k != "PUSHGATE_BOOTSTRAP_SERVERS"})
        check(result.returncode == 64 and "--bootstrap-servers" in result.stderr,
              "devices without --bootstrap-servers is a usage error")
    finally:
        broker.send_signal(signal.SIGTERM)
        broker.wait(10)
    print("devices_e2e: all checks passed")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as error:
        print(f"FAIL: {error}", file=sys.stderr)
        sys.exit(1)
