#!/usr/bin/env python3
"""A stand-in for browsers' push services (RFC 8030) for pushgate's tests: HTTP/2 over TLS on loopback.

  webpush_standin.py --subscriptions SUBSCRIPTIONS.json --ca-out CA.pem --log REQUESTS.jsonl
      [--script SCRIPT.json] [--listen 127.0.0.1[:PORT]] [--listen [::1]:0] ... [--control]

At start it makes a test CA and a server certificate for localhost, 127.0.0.1, 127.0.0.2, ::1 and every --listen
address (cryptography), writes the CA certificate (PEM) to --ca-out, listens on each --listen address (default
127.0.0.1, port 0: any free one; ALPN `h2` only), so that one process can play several push services, and prints one
JSON line once all listen: {"port": P (the first listener's), "listeners": [{"host": H, "port": P}, ...], "ca": PATH}.

--subscriptions is a JSON object: endpoint path -> {"private_key": base64url of the subscription's 32-byte P-256
private key, "auth": base64url of its 16-byte auth secret, optionally "vapid_key": base64url of the application
server key it was created with (then `k` must be that key)}. A path not in it is answered 404 (an unknown
subscription).

Every request is checked as RFC 8030, 8291 and 8292 say (DELIVERY.md, part C), in this order; the first broken rule
is answered with its status and {"reason": ...}:
  method POST (405); a known path (404); `Authorization: vapid t=JWT, k=KEY` present (401 MissingAuthorization); the
  JWT three base64url parts of JSON, `alg` ES256, signed (64-byte r||s) by `k`, a 65-byte P-256 point, `aud` the
  origin the request was sent to (`https://` + :authority), `exp` an integer in the future and at most 24 hours
  ahead, `sub` a `mailto:` or `https:` URI, `k` the subscription's `vapid_key` when it has one (403 BadJwtToken);
  `TTL` digits (400 MissingTTL / BadTTL), `Urgency` very-low|low|normal|high when present (400 BadUrgency),
  `Topic` 1..32 base64url characters when present (400 BadTopic), `Content-Encoding: aes128gcm` (400
  BadContentEncoding), a body of at most 4096 bytes (413 PayloadTooLarge), and a body this stand-in decrypts with
  the subscription's private key by its own RFC 8291 code (cryptography's ECDH, HKDF and AES-GCM): header
  salt|rs|idlen|keyid with rs >= 18, idlen 65, keyid a P-256 point other than `k`, one record, the tag right, the
  last non-zero byte of the padded plaintext 0x02 (400 DecryptionFailed).
A valid request then takes the next scripted answer of its path, if any; without one it is answered 201 Created
with a `Location` header (https://AUTHORITY/m/UUID).

--script is a JSON file: {"answers": {PATH: [ANSWER, ...]}}, used in order, one per valid request, then 201 again.
An ANSWER is an object; every member is optional: "status" (default 201); "retry_after": a `retry-after` header, as
given; "html": true for an HTML error page (text/html) as the body; "body": the body as text; "delay": seconds to
wait before answering; "action": "answer" (default), "no_answer" (never answer the stream), "close" (close the
connection without an answer), "reset" (RST_STREAM the stream). "check": false answers without checking the request.

--control reads fault commands from standard input (h2_standin.Faults: unavailable, silent, refuse-credentials,
goaway-every, clear). Under `refuse-credentials` a request whose VAPID token passes the checks is answered 403
{"reason": "Forbidden"} (a key the push service no longer accepts); under `unavailable` or `silent` a valid request
is answered STATUS or not at all, before any scripted answer of its path is taken.

--log gets one JSON line per event: {"event": "connection", "listener": "HOST:PORT", "time", "connection"} when a
TCP connection is accepted (before TLS), and per request, written before the answer goes out: "event": "request",
"time", "listener", "connection", "stream", "method", "path", "authority", "headers" (every header but
`authorization` and the pseudo headers), "authorization" (the header as sent: tests verify the JWT with another
library), "vapid" ({"alg", "typ", "aud", "exp", "sub", "k"} or null), "body_b64" (the body, base64url), "body_size",
"plaintext" (the decrypted value as UTF-8 text, or null), "answer" ({"status", "reason", "action"}).
"""
import argparse
import asyncio
import base64
import ipaddress
import json
import re
import ssl
import struct
import sys
import time
import uuid

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

import h2_standin
from h2_standin import Refusal, unbase64url

BODY_LIMIT = 4096
URGENCIES = {"very-low", "low", "normal", "high"}
TOPIC_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
ACTIONS = {"answer", "no_answer", "close", "reset"}
HTML_PAGE = ("<!DOCTYPE html>\n<html><head><title>{status}</title></head><body><h1>{status} Error</h1>"
             "<p>The push service could not handle this request.</p></body></html>\n")


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def hkdf(salt, ikm, info, length):
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def decrypt(body, private_key, auth_secret):
    """RFC 8291 section 3 and RFC 8188 section 2, from the receiving side: the plaintext of a one-record
    `aes128gcm` body, or ValueError saying what is wrong."""
    if len(body) < 86 + 16:
        raise ValueError("shorter than a header and a tag")
    salt, rs, idlen = body[:16], struct.unpack(">I", body[16:20])[0], body[20]
    if rs < 18:
        raise ValueError("record size below 18")
    if idlen != 65:
        raise ValueError("keyid is not a 65-byte point")
    keyid, record = body[21:86], body[86:]
    if len(record) > rs:
        raise ValueError("more than one record")
    try:
        sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), keyid)
    except ValueError:
        raise ValueError("keyid is not a point on P-256")
    user_agent_public = private_key.public_key().public_bytes(serialization.Encoding.X962,
                                                              serialization.PublicFormat.UncompressedPoint)
    ecdh_secret = private_key.exchange(ec.ECDH(), sender)
    ikm = hkdf(auth_secret, ecdh_secret, b"WebPush: info\x00" + user_agent_public + keyid, 32)
    cek = hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
    try:
        padded = AESGCM(cek).decrypt(nonce, bytes(record), None)
    except InvalidTag:
        raise ValueError("the tag does not verify")
    stripped = padded.rstrip(b"\x00")
    if not stripped or stripped[-1] != 2:
        raise ValueError("the last record's delimiter is not 0x02")
    return stripped[:-1], keyid


class Subscription:
    def __init__(self, entry):
        secret = int.from_bytes(unbase64url(entry["private_key"], True), "big")
        self.private_key = ec.derive_private_key(secret, ec.SECP256R1())
        self.auth = unbase64url(entry["auth"], True)
        self.vapid_key = entry.get("vapid_key")


class StandIn:
    """The checks and the scripted answers, shared by every listener and connection."""

    def __init__(self, subscriptions, script, log, faults):
        self.faults = faults
        self.subscriptions = {path: Subscription(entry) for path, entry in subscriptions.items()}
        self.answers = {key: list(value) for key, value in script.get("answers", {}).items()}
        self.log = log
        self.connections = 0

    @staticmethod
    def check_vapid(headers, authority, subscription, request):
        value = headers.get("authorization")
        if not value:
            raise Refusal(401, "MissingAuthorization")
        scheme, _, parameters = value.partition(" ")
        if scheme.lower() != "vapid":
            raise Refusal(401, "MissingAuthorization")
        fields = {}
        for part in parameters.split(","):
            name, _, field = part.strip().partition("=")
            fields[name.strip().lower()] = field.strip()
        token, key_text = fields.get("t"), fields.get("k")
        if not token or not key_text:
            raise Refusal(401, "MissingAuthorization")
        try:
            header, claims, signature, signing_input = h2_standin.split_jws(token)
            key_bytes = unbase64url(key_text)
            key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key_bytes)
        except ValueError:
            raise Refusal(403, "BadJwtToken")
        request.vapid = {"alg": header.get("alg"), "typ": header.get("typ"), "aud": claims.get("aud"),
                         "exp": claims.get("exp"), "sub": claims.get("sub"), "k": key_text}
        request.vapid_key = key_bytes
        if header.get("alg") != "ES256" or len(key_bytes) != 65 or len(signature) != 64:
            raise Refusal(403, "BadJwtToken")
        if not h2_standin.es256_verifies(key, signature, signing_input):
            raise Refusal(403, "BadJwtToken")
        if claims.get("aud") != "https://" + authority.lower():
            raise Refusal(403, "BadJwtToken")
        exp = claims.get("exp")
        now = time.time()
        if not isinstance(exp, int) or isinstance(exp, bool) or exp <= now or exp > now + 86400 + 5:
            raise Refusal(403, "BadJwtToken")
        subject = claims.get("sub")
        if not isinstance(subject, str) or not re.fullmatch(r"mailto:[^@\s]+@[^@\s]+|https://[^/\s]+(/\S*)?",
                                                            subject):
            raise Refusal(403, "BadJwtToken")
        if subscription.vapid_key is not None and subscription.vapid_key != key_text:
            raise Refusal(403, "BadJwtToken")

    @staticmethod
    def check_headers(headers, body):
        ttl = headers.get("ttl")
        if ttl is None:
            raise Refusal(400, "MissingTTL")
        if not re.fullmatch(r"[0-9]+", ttl):
            raise Refusal(400, "BadTTL")
        urgency = headers.get("urgency")
        if urgency is not None and urgency not in URGENCIES:
            raise Refusal(400, "BadUrgency")
        topic = headers.get("topic")
        if topic is not None and not TOPIC_PATTERN.fullmatch(topic):
            raise Refusal(400, "BadTopic")
        if headers.get("content-encoding") != "aes128gcm":
            raise Refusal(400, "BadContentEncoding")
        if len(body) > BODY_LIMIT:
            raise Refusal(413, "PayloadTooLarge")

    def decide(self, request, authority_expected_port):
        """The answer to a whole request, as a dict (see the module's documentation)."""
        pseudo, headers = request.pseudo, request.plain
        path = pseudo.get(":path", "")
        scripted = self.answers.get(path)
        unchecked = bool(scripted) and scripted[0].get("check") is False
        try:
            if not unchecked:
                if pseudo.get(":method") != "POST":
                    raise Refusal(405, "MethodNotAllowed")
                subscription = self.subscriptions.get(path)
                if subscription is None:
                    raise Refusal(404, "NotFound")
                if request.repeated:
                    raise Refusal(400, "DuplicateHeaders")
                authority = pseudo.get(":authority", "")
                if not authority.endswith(f":{authority_expected_port}"):
                    raise Refusal(400, "BadAuthority")
                self.check_vapid(headers, authority, subscription, request)
                if self.faults.active("refuse-credentials"):
                    raise Refusal(403, "Forbidden")
                self.check_headers(headers, request.body)
                try:
                    plaintext, keyid = decrypt(bytes(request.body), subscription.private_key, subscription.auth)
                except ValueError as error:
                    request.decrypt_error = str(error)
                    raise Refusal(400, "DecryptionFailed")
                if keyid == request.vapid_key:
                    request.decrypt_error = "the ECDH key is the VAPID key"
                    raise Refusal(400, "DecryptionFailed")
                request.plaintext = plaintext
        except Refusal as refusal:
            return {"status": refusal.status, "reason": refusal.reason, "action": "answer"}
        window = None if unchecked else self.faults.window_answer()
        if window is not None:
            return {"status": window.get("status"), "reason": "ServiceUnavailable", "action": window["action"]}
        answer = dict(scripted.pop(0)) if scripted else {}
        answer.setdefault("status", 201)
        answer.setdefault("action", "answer")
        if answer["action"] not in ACTIONS:
            raise SystemExit(f"unknown action {answer['action']!r} in the script")
        if 200 <= int(answer["status"]) < 300:
            answer["location"] = f"https://{pseudo.get(':authority', '')}/m/{uuid.uuid4()}"
        return answer

    def write(self, line):
        self.log.write(json.dumps(line) + "\n")
        self.log.flush()

    def write_request(self, listener, connection, stream_id, request, answer):
        self.write({
            "event": "request", "time": time.time(), "listener": listener, "connection": connection.number,
            "stream": stream_id, "method": request.pseudo.get(":method"), "path": request.pseudo.get(":path"),
            "authority": request.pseudo.get(":authority"),
            "headers": {name: value for name, value in request.plain.items() if name != "authorization"},
            "authorization": request.plain.get("authorization"), "vapid": request.vapid,
            "body_b64": b64url(bytes(request.body)), "body_size": len(request.body),
            "plaintext": None if request.plaintext is None else request.plaintext.decode("utf-8", "replace"),
            "decrypt_error": request.decrypt_error,
            "answer": {"status": answer.get("status"), "reason": answer.get("reason"),
                       "action": answer.get("action", "answer")},
        })


class Request(h2_standin.Request):
    def __init__(self, headers):
        super().__init__(headers)
        self.vapid = None
        self.vapid_key = None
        self.plaintext = None
        self.decrypt_error = None


class Connection(h2_standin.Connection):
    """One client connection to one listener (`port` is the port a request's :authority must name)."""

    request_class = Request

    def __init__(self, standin, listener, port, reader, writer, number):
        super().__init__(reader, writer, number, standin.faults)
        self.standin = standin
        self.listener = listener
        self.port = port

    def decide(self, stream_id, request):
        answer = self.standin.decide(request, self.port)
        self.standin.write_request(self.listener, self, stream_id, request, answer)
        return answer

    def response(self, answer):
        status = int(answer["status"])
        headers = [(":status", str(status))]
        if answer.get("location"):
            headers.append(("location", answer["location"]))
        if answer.get("retry_after") is not None:
            headers.append(("retry-after", str(answer["retry_after"])))
        if answer.get("html"):
            body = HTML_PAGE.format(status=status).encode()
            headers.append(("content-type", "text/html; charset=utf-8"))
        elif "body" in answer:
            body = answer["body"].encode()
        elif 200 <= status < 300:
            body = b""
        else:
            body = json.dumps({"code": status, "reason": answer.get("reason", "")}).encode()
            headers.append(("content-type", "application/json"))
        headers.append(("content-length", str(len(body))))
        return headers, body


def listen_address(text):
    """`HOST[:PORT]`, `[V6]:PORT` or `V6` -> (host, port)."""
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        return host, int(rest[1:]) if rest.startswith(":") else 0
    if text.count(":") > 1:
        return text, 0
    host, _, port = text.partition(":")
    return host, int(port) if port else 0


async def serve(options):
    with open(options.subscriptions) as file:
        subscriptions = json.load(file)
    script = h2_standin.load_script(options.script)
    addresses = [listen_address(text) for text in (options.listen or ["127.0.0.1"])]
    for host, _ in addresses:
        if host != "localhost" and not ipaddress.ip_address(host).is_loopback:
            raise SystemExit(f"{host}: the stand-in listens on loopback addresses only")
    certified = {"127.0.0.1", "127.0.0.2", "::1"} | {host for host, _ in addresses if host != "localhost"}
    context = h2_standin.server_context(options.ca_out, "pushgate stand-in push service test CA", sorted(certified),
                                        prefix="webpush-standin-")
    log = open(options.log, "a", buffering=1)
    standin = StandIn(subscriptions, script, log, h2_standin.Faults())
    control = h2_standin.control_task(options, standin.faults)

    def handler(host, port):
        listener = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

        async def handle(reader, writer):
            standin.connections += 1
            number = standin.connections
            standin.write({"event": "connection", "time": time.time(), "listener": listener, "connection": number})
            try:
                await writer.start_tls(context)
            except (ssl.SSLError, ConnectionError, OSError):
                writer.transport.abort()
                return
            if h2_standin.speaks_h2(writer):
                await Connection(standin, listener, port, reader, writer, number).run()
        return h2_standin.quiet_at_shutdown(handle)

    servers, listeners = [], []
    for host, port in addresses:
        # A plain TCP server that starts TLS itself: every accepted connection is logged, even one whose
        # handshake fails.
        placeholder = {}
        server = await asyncio.start_server(
            lambda reader, writer, placeholder=placeholder: placeholder["handle"](reader, writer), host, port)
        bound = server.sockets[0].getsockname()[1]
        placeholder["handle"] = handler(host, bound)
        servers.append(server)
        listeners.append({"host": host, "port": bound})
    h2_standin.announce({"port": listeners[0]["port"], "listeners": listeners, "ca": options.ca_out})
    await h2_standin.wait_for_stop()
    if control is not None:
        control.cancel()
    for server in servers:
        server.close()
    log.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--subscriptions", required=True, help="JSON: endpoint path -> subscription's keys")
    parser.add_argument("--ca-out", required=True, help="where to write the test CA certificate (PEM)")
    parser.add_argument("--log", required=True, help="JSON Lines log of every connection and request")
    parser.add_argument("--script", help="JSON file of scripted answers per endpoint path")
    parser.add_argument("--listen", action="append",
                        help="a loopback address to listen on, HOST[:PORT] or [V6]:PORT (repeatable; default "
                             "127.0.0.1, port 0: any free one)")
    h2_standin.add_control_option(parser)
    return h2_standin.run(serve(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
