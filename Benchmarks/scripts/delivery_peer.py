#!/usr/bin/env python3
"""The Python peer of the delivery benchmark: the sender a team would write with the clients it would reach for.

  delivery_peer.py --platform apns|fcm|webpush --bootstrap-servers S --topic T --expect N [credentials...]

asyncio and httpx over HTTP/2 (one connection per push service, its requests as concurrent streams, at most
--concurrency waiting at once), confluent-kafka to read; pywebpush's encryption (RFC 8291 aes128gcm, a new key and
salt per request) and py_vapid's VAPID header (one per origin) for web push; ES256 and RS256 with cryptography for
the APNs provider token and the FCM grant. It does what `pushgate deliver` does for a record: reads the device
directory whole (--devices-topic, the platform's devices by audience), then the records of --topic as a consumer
group, and sends each record to every device of its key's audience, with the headers SPEC 10.3 to 10.5 name.
No retries: the benchmark's push service answers everything.

Prints one JSON line once --expect requests are answered: the requests, the answers by status, and, from the first
record read to the last answer, the seconds and this process's CPU seconds (user + system, every thread).
"""
import argparse
import asyncio
import base64
import json
import resource
import ssl
import sys
import time
import urllib.parse
import uuid

import httpx
from confluent_kafka import Consumer, TopicPartition
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from py_vapid import Vapid02
from pywebpush import WebPusher


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def compact(value):
    return b64url(json.dumps(value, separators=(",", ":")).encode())


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def read_directory(servers, topic, platform):
    """audience -> [(device id, value)] of the platform, the topic read whole from its beginning."""
    consumer = Consumer({"bootstrap.servers": servers, "group.id": "delivery-peer-directory", "log_level": 2,
                         "enable.auto.commit": False})
    partitions = consumer.list_topics(topic, timeout=10).topics[topic].partitions
    ends = {p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in partitions}
    consumer.assign([TopicPartition(topic, p, 0) for p in partitions if ends[p] > 0])
    devices, done = {}, {p for p, end in ends.items() if end == 0}
    while len(done) < len(partitions):
        for message in consumer.consume(1000, 0.5):
            if message.error():
                continue
            if message.offset() + 1 >= ends[message.partition()]:
                done.add(message.partition())
            value = json.loads(message.value()) if message.value() else None
            if value and value.get("platform") == platform:
                devices.setdefault(value["audience"], []).append((message.key().decode(), value))
    consumer.close()
    return devices


class APNs:
    def __init__(self, options):
        with open(options.apns_key_file, "rb") as file:
            key = serialization.load_pem_private_key(file.read(), password=None)
        signing_input = compact({"alg": "ES256", "kid": options.apns_key_id}) + "." + \
            compact({"iss": options.apns_team_id, "iat": int(time.time())})
        r, s = decode_dss_signature(key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
        self.authorization = "bearer " + signing_input + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))
        self.endpoint, self.bundle = options.apns_endpoint.rstrip("/"), options.apns_bundle_id

    def request(self, device_id, device, value, headers):
        request_headers = {"authorization": self.authorization, "apns-topic": device.get("app", self.bundle),
                           "apns-id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"{headers.get('pushgate-source')}/"
                                                                        f"{headers.get('pushgate-format')}/{device_id}"))}
        for name in ("apns-push-type", "apns-priority", "apns-expiration", "apns-collapse-id"):
            if name in headers:
                request_headers[name] = headers[name]
        return f"{self.endpoint}/3/device/{device['apns']['token'].lower()}", value, request_headers

    async def start(self, client):
        pass


class FCM:
    def __init__(self, options):
        with open(options.fcm_credentials) as file:
            self.account = json.load(file)
        self.url = f"{options.fcm_endpoint.rstrip('/')}/v1/projects/{self.account['project_id']}/messages:send"
        self.authorization = None

    async def start(self, client):
        """The access token, from the JWT-bearer grant (RFC 7523) posted to the account's token_uri."""
        key = serialization.load_pem_private_key(self.account["private_key"].encode(), password=None)
        now = int(time.time())
        signing_input = compact({"alg": "RS256", "typ": "JWT", "kid": self.account["private_key_id"]}) + "." + \
            compact({"iss": self.account["client_email"], "scope": "https://www.googleapis.com/auth/firebase.messaging",
                     "aud": self.account["token_uri"], "iat": now, "exp": now + 3600})
        signature = key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
        answer = await client.post(self.account["token_uri"], data={
            "grant_type": "urn:ietf:params:oauth:grant-type:jwt-bearer",
            "assertion": signing_input + "." + b64url(signature)})
        answer.raise_for_status()
        self.authorization = "Bearer " + answer.json()["access_token"]

    def request(self, device_id, device, value, headers):
        body = json.loads(value)
        body["message"] = {"token": device["fcm"]["token"], **body["message"]}
        return self.url, json.dumps(body, separators=(",", ":")).encode(), {
            "authorization": self.authorization, "content-type": "application/json"}


class WebPush:
    def __init__(self, options):
        with open(options.vapid_key, "rb") as file:
            self.vapid = Vapid02.from_pem(file.read())
        self.subject, self.authorizations = options.vapid_subject, {}

    async def start(self, client):
        pass

    def authorization(self, endpoint):
        """py_vapid's header for the endpoint's origin, made once per origin (valid for 12 hours)."""
        parts = urllib.parse.urlsplit(endpoint)
        origin = f"{parts.scheme}://{parts.netloc}"
        if origin not in self.authorizations:
            self.authorizations[origin] = self.vapid.sign(
                {"aud": origin, "exp": int(time.time()) + 12 * 3600, "sub": self.subject})["Authorization"]
        return self.authorizations[origin]

    def request(self, device_id, device, value, headers):
        subscription = device["webpush"]["subscription"]
        body = WebPusher(subscription).encode(value, content_encoding="aes128gcm")["body"]
        request_headers = {"ttl": headers.get("webpush-ttl", "0"), "urgency": headers.get("webpush-urgency", "normal"),
                           "content-encoding": "aes128gcm", "content-type": "application/octet-stream",
                           "authorization": self.authorization(subscription["endpoint"])}
        if "webpush-topic" in headers:
            request_headers["topic"] = headers["webpush-topic"]
        return subscription["endpoint"], body, request_headers


async def run(options):
    sender = {"apns": APNs, "fcm": FCM, "webpush": WebPush}[options.platform](options)
    loop = asyncio.get_running_loop()
    directory = await loop.run_in_executor(None, read_directory, options.bootstrap_servers, options.devices_topic,
                                           options.platform)
    context = ssl.create_default_context(cafile=options.ca_file)
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)  # one HTTP/2 connection, its streams
    client = httpx.AsyncClient(http2=True, verify=context, limits=limits, timeout=60)
    await sender.start(client)
    consumer = Consumer({"bootstrap.servers": options.bootstrap_servers, "group.id": options.group_id,
                         "auto.offset.reset": "earliest", "log_level": 2})
    consumer.subscribe([options.topic])
    statuses, sent, failures = {}, 0, []
    room = asyncio.Semaphore(options.concurrency)
    finished = asyncio.Event()
    started = cpu_started = None

    async def send(device_id, device, value, headers):
        nonlocal sent
        try:
            url, body, request_headers = sender.request(device_id, device, value, headers)
            answer = await client.post(url, content=body, headers=request_headers)
            statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
        except Exception as error:  # noqa: BLE001 - a failed request is counted and reported, not retried
            statuses["error"] = statuses.get("error", 0) + 1
            if len(failures) < 3:
                failures.append(repr(error))
        finally:
            sent += 1
            room.release()
            if sent >= options.expect:
                finished.set()

    deadline = time.monotonic() + options.timeout
    while not finished.is_set() and time.monotonic() < deadline:
        messages = await loop.run_in_executor(None, consumer.consume, 500, 0.05)
        for message in messages:
            if message.error():
                continue
            if started is None:
                started, cpu_started = time.monotonic(), cpu_seconds()
            headers = {name: value.decode() for name, value in (message.headers() or [])}
            key = message.key().decode() if message.key() is not None else None
            for device_id, device in directory.get(key, []):
                await room.acquire()
                asyncio.create_task(send(device_id, device, message.value(), headers))
        await asyncio.sleep(0)
    try:
        await asyncio.wait_for(finished.wait(), max(1.0, deadline - time.monotonic()))
    except asyncio.TimeoutError:
        pass
    ended, cpu_ended = time.monotonic(), cpu_seconds()
    await client.aclose()
    consumer.close()
    print(json.dumps({"requests": sent, "statuses": {str(k): v for k, v in statuses.items()},
                      "seconds": ended - started if started else 0.0,
                      "cpu_seconds": cpu_ended - cpu_started if started else 0.0, "failures": failures}), flush=True)
    return 0 if sent >= options.expect else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--platform", required=True, choices=["apns", "fcm", "webpush"])
    parser.add_argument("--bootstrap-servers", required=True)
    parser.add_argument("--topic", required=True)
    parser.add_argument("--devices-topic", default="push.devices")
    parser.add_argument("--group-id", default="delivery-peer")
    parser.add_argument("--expect", type=int, required=True, help="requests to send before stopping")
    parser.add_argument("--concurrency", type=int, default=1000, help="requests waiting for an answer at most")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--ca-file")
    parser.add_argument("--apns-endpoint")
    parser.add_argument("--apns-key-file")
    parser.add_argument("--apns-key-id")
    parser.add_argument("--apns-team-id")
    parser.add_argument("--apns-bundle-id")
    parser.add_argument("--fcm-credentials")
    parser.add_argument("--fcm-endpoint")
    parser.add_argument("--vapid-key")
    parser.add_argument("--vapid-subject")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
