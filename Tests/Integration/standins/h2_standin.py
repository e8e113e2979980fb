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
import sys
import tempfile
import time

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


class Faults:
    """Faults a test turns on at a moment of its choosing, through a stand-in's standard input when it runs with
    --control: one command a line, each answered with one line on standard output, `ok` or `error: WHY`.

      unavailable SECONDS [STATUS]  every valid request is answered STATUS (default 503) for SECONDS
      silent SECONDS                every valid request is left unanswered for SECONDS (a client's timeout)
      refuse-credentials SECONDS    the stand-in refuses the client's credentials for SECONDS, as its service does
                                    when a key is revoked (each stand-in says how)
      goaway-every N                after every N-th request of a connection: its answer, then GOAWAY naming the
                                    highest request answered as the last, then the connection closes (0: never)
      clear                         ends every window and goaway-every

    A window starts when its command is read and ends SECONDS later; a command for a window already open replaces
    it. The stand-in logs a request answered under a window with that window's answer, as any other."""

    WINDOWS = ("unavailable", "silent", "refuse-credentials")

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.until = {}
        self.unavailable_status = 503
        self.goaway_every = 0

    def apply(self, line):
        """Carries out one command; its answer line."""
        words = line.split()
        try:
            if not words:
                raise ValueError("an empty command")
            name, arguments = words[0], words[1:]
            if name in self.WINDOWS and len(arguments) in ((1, 2) if name == "unavailable" else (1,)):
                seconds = float(arguments[0])
                if seconds < 0:
                    raise ValueError("a negative number of seconds")
                if len(arguments) == 2:
                    self.unavailable_status = int(arguments[1])
                elif name == "unavailable":
                    self.unavailable_status = 503
                self.until[name] = self.clock() + seconds
            elif name == "goaway-every" and len(arguments) == 1:
                count = int(arguments[0])
                if count < 0:
                    raise ValueError("a negative count")
                self.goaway_every = count
            elif name == "clear" and not arguments:
                self.until.clear()
                self.goaway_every = 0
            else:
                raise ValueError(f"unknown command {line.strip()!r}")
        except ValueError as error:
            return f"error: {error}"
        return "ok"

    def active(self, name):
        """Whether the window `name` is open now."""
        return self.clock() < self.until.get(name, float("-inf"))

    def window_answer(self):
        """The answer the open `unavailable` or `silent` window gives every valid request, or None."""
        if self.active("silent"):
            return {"action": "no_answer"}
        if self.active("unavailable"):
            return {"status": self.unavailable_status, "reason": "ServiceUnavailable", "action": "answer"}
        return None

    def goaway_after(self, requests):
        """Whether the `requests`-th request of a connection is the last before a GOAWAY."""
        return self.goaway_every > 0 and requests % self.goaway_every == 0


async def read_control(faults):
    """Reads --control commands from standard input until it ends, answering each on standard output."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        print(faults.apply(line.decode(errors="replace")), flush=True)


def control_task(options, faults):
    """With --control, a task that reads the commands of `faults`; None without."""
    return asyncio.get_running_loop().create_task(read_control(faults)) if options.control else None


def add_control_option(parser):
    """The --control option every stand-in has."""
    parser.add_argument("--control", action="store_true",
                        help="read fault commands from standard input (h2_standin.Faults), answer each on stdout")


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
    (`response`); answers are dicts whose "delay" and "action" ("answer", "no_answer", "close", "reset",
    "stall_body": the response's headers without the stream's end) this class carries out."""

    request_class = Request
    # How long a connection that sent GOAWAY (Faults.goaway_every) stays open for the answers before it.
    GOAWAY_GRACE = 1.0

    def __init__(self, reader, writer, number, faults=None):
        self.number = number
        self.reader = reader
        self.writer = writer
        self.faults = faults
        self.h2 = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding=None))
        self.requests = {}
        self.closed = False
        self.answered = 0
        self.highest_answered = 0
        self.going_away = False

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
        if request is None or self.going_away:
            # After a GOAWAY a request is neither read nor answered (RFC 9113 6.8): the client sends it again.
            return
        answer = self.decide(stream_id, request)
        self.answered += 1
        self.highest_answered = max(self.highest_answered, stream_id)
        last = self.faults is not None and self.faults.goaway_after(self.answered)
        self.going_away = last
        asyncio.get_running_loop().create_task(self.answer(stream_id, answer, goaway=last))

    async def answer(self, stream_id, answer, goaway=False):
        if answer.get("delay"):
            await asyncio.sleep(float(answer["delay"]))
        if self.closed:
            return
        await self.carry_out(stream_id, answer)
        if goaway and not self.closed:
            try:
                self.h2.close_connection(h2.errors.ErrorCodes.NO_ERROR, last_stream_id=self.highest_answered)
                self.flush()
            except h2.exceptions.ProtocolError:
                pass
            await asyncio.sleep(self.GOAWAY_GRACE)
            self.close()

    async def carry_out(self, stream_id, answer):
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
            if action == "stall_body":
                headers, _ = self.response(answer)
                self.h2.send_headers(stream_id, headers, end_stream=False)
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
