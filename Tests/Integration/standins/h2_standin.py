"""What the HTTP/2 stand-ins of the tests (apns_standin.py, fcm_standin.py, webpush_standin.py) share: the test CA
and server certificate, the TLS context, strict base64url and JWS parts, the refusal of a broken request, the request as h2 gives
it, the connection that feeds h2 and answers whole requests, and the start-up and shutdown of a stand-in.

It sits next to the stand-ins, which import it as `h2_standin`: a stand-in run as a script finds it in its own
directory; a test that imports a stand-in puts that directory on sys.path first.
"""
import asyncio
import base64
import datetime
import ipaddress
import json
import os
import re
import signal
import ssl
import tempfile

import h2.config
import h2.connection
import h2.errors
import h2.events
import h2.exceptions
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

LOOPBACK = ("127.0.0.1", "::1")


class Refusal(Exception):
    """A request broken as the real service would refuse it: the status, and why: a `reason` (APNs, Web Push) or
    the members of the answer (FCM: `error`, `description`, `message`)."""

    def __init__(self, status, reason=None, **answer):
        super().__init__(f"{status} {reason if reason is not None else answer}")
        self.status = status
        self.reason = reason
        self.answer = answer


def make_certificates(directory, ca_common_name, addresses=LOOPBACK):
    """A test CA named `ca_common_name` and a server certificate it signs for localhost and the IP `addresses`
    (in that order); returns the paths of the CA certificate, the server certificate and the server key (PEM)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, ca_common_name)])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=2))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                       crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    names = [x509.DNSName("localhost")] + [x509.IPAddress(ipaddress.ip_address(address)) for address in addresses]
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


def server_context(ca_out, ca_common_name, addresses=LOOPBACK, prefix="standin-"):
    """A TLS server context (TLS 1.2 or later, ALPN `h2` only) with a certificate of `make_certificates`, whose CA
    certificate is written to `ca_out`; the server key lives only in a temporary directory, removed at once."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.set_alpn_protocols(["h2"])
    with tempfile.TemporaryDirectory(prefix=prefix) as directory:
        ca_path, certificate_path, key_path = make_certificates(directory, ca_common_name, addresses)
        with open(ca_path, "rb") as source, open(ca_out, "wb") as target:
            target.write(source.read())
        context.load_cert_chain(certificate_path, key_path)
    return context


def unbase64url(text, padding_allowed=False):
    """Strict base64url (RFC 7515: no padding, unless allowed), as a JWS uses it."""
    if padding_allowed:
        text = text.rstrip("=")
    if not re.fullmatch(r"[A-Za-z0-9_-]*", text) or len(text) % 4 == 1:
        raise ValueError("not base64url without padding")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def split_jws(token):
    """The header, the claims, the signature and the signing input of a compact JWS: three base64url parts, the
    first two JSON objects; ValueError when it is not one."""
    parts = token.split(".")
    if len(parts) != 3:
        raise ValueError("not three parts")
    header = json.loads(unbase64url(parts[0]))
    claims = json.loads(unbase64url(parts[1]))
    signature = unbase64url(parts[2])
    if not isinstance(header, dict) or not isinstance(claims, dict):
        raise ValueError("the header or the claims are not a JSON object")
    return header, claims, signature, f"{parts[0]}.{parts[1]}".encode()


def es256_verifies(public_key, signature, signing_input):
    """Whether an ES256 JWS signature (r||s, 32 bytes each) of `signing_input` verifies with a P-256 public key."""
    if len(signature) != 64:
        return False
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        public_key.verify(der, signing_input, ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        return False
    return True


def load_script(path):
    """The JSON object of a --script file, or {} without one."""
    if not path:
        return {}
    with open(path) as file:
        return json.load(file)


class Request:
    """A request as h2 gives it: the header block (`headers`, bytes pairs), split into `pseudo` and `plain` headers
    (name -> value, lowercase names, the first of repeated ones; `repeated` tells whether a plain header came more
    than once), and the body so far."""

    def __init__(self, headers):
        self.headers = headers
        self.body = bytearray()
        self.pseudo = {}
        self.plain = {}
        self.repeated = False
        for name, value in headers:
            name, value = name.decode("latin-1").lower(), value.decode("latin-1")
            if name.startswith(":"):
                self.pseudo[name] = value
            elif name in self.plain:
                self.repeated = True
            else:
                self.plain[name] = value


class Connection:
    """One client connection: h2's state machine between an asyncio stream and a stand-in. A subclass names its
    `request_class`, decides the answer to every whole request (`decide`) and makes the response of an answer
    (`response`); answers are dicts whose "delay" and "action" ("answer", "no_answer", "close", "reset") this class
    carries out."""

    request_class = Request

    def __init__(self, reader, writer, number):
        self.number = number
        self.reader = reader
        self.writer = writer
        self.h2 = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding=None))
        self.requests = {}
        self.closed = False

    def decide(self, stream_id, request):
        """The answer to a whole request (logged before it goes out)."""
        raise NotImplementedError

    def response(self, answer):
        """The headers (":status" first) and the body of an answer whose action is "answer"."""
        raise NotImplementedError

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
            self.requests[event.stream_id] = self.request_class(event.headers)
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
        answer = self.decide(stream_id, request)
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
            await self.act(stream_id, answer, action)
        except (h2.exceptions.StreamClosedError, h2.exceptions.ProtocolError, ConnectionError, OSError):
            pass

    async def act(self, stream_id, answer, action):
        """Carries out an action other than the common ones: by default, sends the `response` of the answer."""
        headers, body = self.response(answer)
        self.h2.send_headers(stream_id, headers, end_stream=not body)
        if body:
            self.h2.send_data(stream_id, body, end_stream=True)
        self.flush()


def speaks_h2(writer):
    """Whether the TLS handshake chose ALPN `h2`; aborts the connection when not."""
    protocol = writer.get_extra_info("ssl_object")
    if protocol is None or protocol.selected_alpn_protocol() != "h2":
        writer.transport.abort()
        return False
    return True


def quiet_at_shutdown(handle):
    """A connection handler for asyncio.start_server that ends quietly when its task is cancelled (asyncio.run
    cancels every task left at shutdown): a cancelled handler task makes asyncio's stream protocol log
    "Exception in callback StreamReaderProtocol.connection_made" with a CancelledError traceback."""

    async def handler(reader, writer):
        try:
            await handle(reader, writer)
        except asyncio.CancelledError:
            writer.transport.abort()

    return handler


def announce(document):
    """The one JSON line a stand-in prints once it listens."""
    print(json.dumps(document), flush=True)


async def wait_for_stop():
    """Returns at SIGTERM or SIGINT."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    # A parent may start it with these signals blocked (Foundation's Process does), which would make it deaf to them.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()


def run(serve):
    """Runs a stand-in's `serve` coroutine until a signal stops it; the exit status."""
    try:
        asyncio.run(serve)
    except KeyboardInterrupt:
        pass
    return 0
