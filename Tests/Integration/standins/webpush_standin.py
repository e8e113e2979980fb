#!/usr/bin/env python3
"""A stand-in for browsers' push services (RFC 8030) for pushgate's tests: HTTP/2 over TLS on loopback.

  webpush_standin.py --subscriptions SUBSCRIPTIONS.json --ca-out CA.pem --log REQUESTS.jsonl
      [--script SCRIPT.json] [--listen 127.0.0.1[:PORT]] [--listen [::1]:0] ...

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
import binascii
import datetime
import ipaddress
import json
import os
import re
import signal
import ssl
import struct
import sys
import tempfile
import time
import uuid

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions
from cryptography import x509
from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

BODY_LIMIT = 4096
URGENCIES = {"very-low", "low", "normal", "high"}
TOPIC_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
ACTIONS = {"answer", "no_answer", "close", "reset"}
HTML_PAGE = ("<!DOCTYPE html>\n<html><head><title>{status}</title></head><body><h1>{status} Error</h1>"
             "<p>The push service could not handle this request.</p></body></html>\n")


class Refusal(Exception):
    """A request broken as a push service would refuse it: the status and reason to answer."""

    def __init__(self, status, reason):
        super().__init__(f"{status} {reason}")
        self.status = status
        self.reason = reason


def make_certificates(directory, hosts):
    """A test CA and a server certificate it signs for localhost and the loopback addresses; returns the paths of
    the CA certificate, the server certificate and the server key (PEM)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "pushgate stand-in push service test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=2))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                       crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    addresses = {"127.0.0.1", "127.0.0.2", "::1"} | {host for host in hosts if host != "localhost"}
    names = [x509.DNSName("localhost")] + [x509.IPAddress(ipaddress.ip_address(address))
                                           for address in sorted(addresses)]
    server_key = ec.generate_private_key(ec.SECP256R1())
    server = (x509.CertificateBuilder()
              .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
              .issuer_name(ca_name).public_key(server_key.public_key())
              .serial_number(x509.random_serial_number())
              .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=1))
              .add_extension(x509.SubjectAlternativeName(names), critical=False)
              .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
              .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                           data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                           crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
              .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
              .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
              .sign(ca_key, hashes.SHA256()))
    paths = [os.path.join(directory, name) for name in ("ca.pem", "server.pem", "server-key.pem")]
    with open(paths[0], "wb") as file:
        file.write(ca.public_bytes(serialization.Encoding.PEM))
    with open(paths[1], "wb") as file:
        file.write(server.public_bytes(serialization.Encoding.PEM))
    with open(paths[2], "wb") as file:
        file.write(server_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()))
    return paths


def unbase64url(text, padding_allowed=False):
    """Strict base64url (RFC 7515: no padding, unless allowed)."""
    if padding_allowed:
        text = text.rstrip("=")
    if not re.fullmatch(r"[A-Za-z0-9_-]*", text) or len(text) % 4 == 1:
        raise ValueError("not base64url without padding")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


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

    def __init__(self, subscriptions, script, log):
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
        parts = token.split(".")
        if len(parts) != 3:
            raise Refusal(403, "BadJwtToken")
        try:
            header = json.loads(unbase64url(parts[0]))
            claims = json.loads(unbase64url(parts[1]))
            signature = unbase64url(parts[2])
            key_bytes = unbase64url(key_text)
            key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key_bytes)
        except (ValueError, binascii.Error, UnicodeDecodeError):
            raise Refusal(403, "BadJwtToken")
        if not isinstance(header, dict) or not isinstance(claims, dict):
            raise Refusal(403, "BadJwtToken")
        request.vapid = {"alg": header.get("alg"), "typ": header.get("typ"), "aud": claims.get("aud"),
                         "exp": claims.get("exp"), "sub": claims.get("sub"), "k": key_text}
        request.vapid_key = key_bytes
        if header.get("alg") != "ES256" or len(key_bytes) != 65 or len(signature) != 64:
            raise Refusal(403, "BadJwtToken")
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        try:
            key.verify(der, f"{parts[0]}.{parts[1]}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
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
        pseudo, headers, repeated = {}, {}, False
        for name, value in request.headers:
            name, value = name.decode("latin-1").lower(), value.decode("latin-1")
            if name.startswith(":"):
                pseudo[name] = value
            elif name in headers:
                repeated = True
            else:
                headers[name] = value
        request.pseudo, request.plain = pseudo, headers
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
                if repeated:
                    raise Refusal(400, "DuplicateHeaders")
                authority = pseudo.get(":authority", "")
                if not authority.endswith(f":{authority_expected_port}"):
                    raise Refusal(400, "BadAuthority")
                self.check_vapid(headers, authority, subscription, request)
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


class Request:
    def __init__(self, headers):
        self.headers = headers
        self.body = bytearray()
        self.pseudo = {}
        self.plain = {}
        self.vapid = None
        self.vapid_key = None
        self.plaintext = None
        self.decrypt_error = None


class Connection:
    """One client connection: h2's state machine between an asyncio stream and the stand-in."""

    def __init__(self, standin, listener, port, reader, writer, number):
        self.number = number
        self.standin = standin
        self.listener = listener
        self.port = port
        self.reader = reader
        self.writer = writer
        self.h2 = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding=None))
        self.requests = {}
        self.closed = False

    def flush(self):
        data = self.h2.data_to_send()
        if data and not self.closed:
            self.writer.write(data)

    def close(self):
        if not self.closed:
            self.closed = True
            self.writer.transport.abort()

    async def run(self):
        self.h2.initiate_connection()
        self.flush()
        try:
            while not self.closed:
                data = await self.reader.read(65536)
                if not data:
                    break
                try:
                    events = self.h2.receive_data(data)
                except h2.exceptions.ProtocolError:
                    self.flush()
                    break
                for event in events:
                    self.on_event(event)
                self.flush()
        except (ConnectionError, OSError):
            pass
        finally:
            self.close()

    def on_event(self, event):
        if isinstance(event, h2.events.RequestReceived):
            self.requests[event.stream_id] = Request(event.headers)
            if event.stream_ended:
                self.on_request(event.stream_id)
        elif isinstance(event, h2.events.DataReceived):
            request = self.requests.get(event.stream_id)
            if request is not None:
                request.body.extend(event.data)
            self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            if event.stream_ended:
                self.on_request(event.stream_id)
        elif isinstance(event, h2.events.StreamEnded):
            self.on_request(event.stream_id)
        elif isinstance(event, h2.events.StreamReset):
            self.requests.pop(event.stream_id, None)
        elif isinstance(event, h2.events.ConnectionTerminated):
            self.closed = True

    def on_request(self, stream_id):
        request = self.requests.pop(stream_id, None)
        if request is None:
            return
        answer = self.standin.decide(request, self.port)
        self.standin.write_request(self.listener, self, stream_id, request, answer)
        asyncio.get_running_loop().create_task(self.answer(stream_id, answer))

    async def answer(self, stream_id, answer):
        if answer.get("delay"):
            await asyncio.sleep(float(answer["delay"]))
        if self.closed:
            return
        action = answer.get("action", "answer")
        try:
            if action == "no_answer":
                return
            if action == "close":
                self.close()
                return
            if action == "reset":
                self.h2.reset_stream(stream_id, h2.errors.ErrorCodes.INTERNAL_ERROR)
                self.flush()
                return
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
            self.h2.send_headers(stream_id, headers, end_stream=not body)
            if body:
                self.h2.send_data(stream_id, body, end_stream=True)
            self.flush()
        except (h2.exceptions.StreamClosedError, h2.exceptions.ProtocolError, ConnectionError, OSError):
            pass


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
    script = {}
    if options.script:
        with open(options.script) as file:
            script = json.load(file)
    addresses = [listen_address(text) for text in (options.listen or ["127.0.0.1"])]
    for host, _ in addresses:
        if host != "localhost" and not ipaddress.ip_address(host).is_loopback:
            raise SystemExit(f"{host}: the stand-in listens on loopback addresses only")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.set_alpn_protocols(["h2"])
    with tempfile.TemporaryDirectory(prefix="webpush-standin-") as directory:
        ca_path, certificate_path, key_path = make_certificates(directory, [host for host, _ in addresses])
        with open(ca_path, "rb") as source, open(options.ca_out, "wb") as target:
            target.write(source.read())
        context.load_cert_chain(certificate_path, key_path)
    log = open(options.log, "a", buffering=1)
    standin = StandIn(subscriptions, script, log)

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
            protocol = writer.get_extra_info("ssl_object")
            if protocol is None or protocol.selected_alpn_protocol() != "h2":
                writer.transport.abort()
                return
            await Connection(standin, listener, port, reader, writer, number).run()
        return handle

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
    print(json.dumps({"port": listeners[0]["port"], "listeners": listeners, "ca": options.ca_out}), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    # A parent may start it with these signals blocked (Foundation's Process does), which would make it deaf to them.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()
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
    options = parser.parse_args()
    try:
        asyncio.run(serve(options))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
