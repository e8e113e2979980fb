#!/usr/bin/env python3
"""A stand-in for Apple's push service (APNs) for pushgate's tests: HTTP/2 over TLS on loopback.

  apns_standin.py --verify-key KEY.pem --key-id KID --team-id TEAM --bundle-id com.example.app \\
      --ca-out CA.pem --log REQUESTS.jsonl [--script SCRIPT.json] [--port 0] [--sandbox-port 0] [--control]

At start it makes a test CA and a server certificate for localhost, 127.0.0.1 and ::1 (cryptography), writes the CA
certificate (PEM) to --ca-out, listens on two loopback ports (the production endpoint and the sandbox endpoint, ALPN
`h2` only) and prints one JSON line, {"production_port": P, "sandbox_port": S, "ca": PATH}, once both listen.

Every request is checked as Apple checks it (docs: Tests/Conformance/Fixtures/DELIVERY.md, part A), in this order, and
the first broken rule is answered with Apple's status and {"reason": ...}:
  method POST (405 MethodNotAllowed); path /3/device/<token> or /4/broadcasts/apps/<bundle id> (404 BadPath);
  repeated headers (400 DuplicateHeaders); the provider token (403 MissingProviderToken, InvalidProviderToken:
  not `bearer`, not three base64url parts, alg not ES256, kid or iss not the expected ones, iat not an integer or in
  the future, signature not a 64-byte r||s that the public key of --verify-key verifies; ExpiredProviderToken: iat
  older than --max-token-age; 429 TooManyProviderTokenUpdates: a new token on a connection sooner than
  --token-update-interval after the last, when that is set);
  a device push: the token (400 MissingDeviceToken, BadDeviceToken: not an even number of lowercase hex digits, or a
  token the script puts in the other environment), apns-push-type present and known (400 InvalidPushType),
  apns-topic (400 MissingTopic; TopicDisallowed: not a --bundle-id; BadTopic: a suffix that does not fit the push
  type, e.g. liveactivity needs `.push-type.liveactivity`), apns-priority 1, 5 or 10 and not 10 for background
  (400 BadPriority), apns-expiration an integer >= 0 (400 BadExpirationDate), apns-id a lowercase canonical UUID
  (400 BadMessageId), apns-collapse-id at most 64 bytes (400 BadCollapseId), a body (400 PayloadEmpty) of at most
  4096 bytes, 5120 for voip (413 PayloadTooLarge);
  a broadcast: the bundle id (400 TopicDisallowed with a push-type suffix, 403 TopicMismatch when not a
  --bundle-id), apns-channel-id (400 MissingChannelId, BadChannelId: not base64), apns-push-type liveactivity
  (400 MissingPushType, InvalidPushType), apns-expiration and apns-priority required and valid, a JSON body
  (400 PayloadEmpty, BadRequestPayload) of at most 5120 bytes (413 PayloadTooLarge).
A valid request then takes the next scripted answer of its device token (or channel id), if any; without one it is
answered 200 with an `apns-id` header (the request's, or a new UUID) and, for a broadcast, `apns-request-id`.

--script is a JSON file: {"answers": {TOKEN_OR_CHANNEL_ID: [ANSWER, ...]}, "environments": {TOKEN: "development"}}.
The answers of a token are used in order, one per valid request, then the token is answered 200 again. An ANSWER is
an object; every member is optional:
  "status": the HTTP status (default 200); "reason": the `reason` of the JSON body; "timestamp": the `timestamp` of
  the JSON body (410); "retry_after": a `retry-after` header, as given; "body": the answer's body as text, instead
  of the JSON one; "delay": seconds to wait before answering (or before "action");
  "action": "answer" (default), "garbage" (the status with a body that is not JSON), "no_answer" (never answer the
  stream), "goaway" (GOAWAY with {"reason": REASON or "Shutdown"} naming this stream as the last, then close the
  connection, no answer), "close" (close the connection without an answer), "reset" (RST_STREAM the stream),
  "stall_body" (the status's headers, then never the body nor the stream's end).
A token of "environments" is valid on that environment's port only (the other answers 400 BadDeviceToken).

--refuse-tokens-for SECONDS: a credential outage. Every request whose provider token passes the checks above is
answered 403 InvalidProviderToken for SECONDS after the first such request (not after the start, so a slow client
still meets the whole outage); later requests are checked and answered as usual.

--control reads fault commands from standard input (h2_standin.Faults: unavailable, silent, refuse-credentials,
goaway-every, clear). Under `refuse-credentials` a request whose provider token passes the checks is answered 403
InvalidProviderToken; under `unavailable` or `silent` a valid request is answered STATUS {"reason":
"ServiceUnavailable"} or not at all, before any scripted answer of its token is taken.

--log gets one JSON line per request, written before the answer goes out: "time" (when the request was whole,
seconds since 1970), "environment" (production | sandbox),
"connection", "stream", "method", "path", "authority", "headers" (every header but `authorization` and the pseudo
headers, name -> value), "jwt" ({"alg", "kid", "iss", "iat", "digest": the first 16 hex digits of the token's
SHA-256}, or null; never the token itself), "body" (the body as UTF-8 text, invalid bytes replaced), "body_size"
and "answer" ({"status", "reason", "action"}).
"""
import argparse
import asyncio
import base64
import binascii
import hashlib
import json
import re
import sys
import time
import uuid

import h2.errors
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

import h2_standin
from h2_standin import Refusal

# apns-push-type -> the suffix its apns-topic carries after the bundle id (DELIVERY.md A2). `mdm` is left out: its
# topic is a certificate's UID, which token-based authentication never has.
PUSH_TYPE_SUFFIXES = {
    "alert": "", "background": "", "location": ".location-query", "voip": ".voip", "complication": ".complication",
    "fileprovider": ".pushkit.fileprovider", "liveactivity": ".push-type.liveactivity", "pushtotalk": ".voip-ptt",
    "widgets": ".push-type.widgets",
}
TOPIC_SUFFIXES = sorted({suffix for suffix in PUSH_TYPE_SUFFIXES.values() if suffix}, key=len, reverse=True)
DEVICE_BODY_LIMIT = 4096
VOIP_BODY_LIMIT = 5120
BROADCAST_BODY_LIMIT = 5120
UUID_PATTERN = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
TOKEN_PATTERN = re.compile(r"^(?:[0-9a-f]{2})+$")
ACTIONS = {"answer", "garbage", "no_answer", "goaway", "close", "reset", "stall_body"}


def load_verify_key(path):
    """The P-256 public key that verifies provider tokens: a PEM public key, or the .p8 private key itself."""
    with open(path, "rb") as file:
        data = file.read()
    if b"PRIVATE KEY" in data:
        key = serialization.load_pem_private_key(data, password=None).public_key()
    else:
        key = serialization.load_pem_public_key(data)
    if not isinstance(key, ec.EllipticCurvePublicKey) or not isinstance(key.curve, ec.SECP256R1):
        raise SystemExit(f"{path}: not a P-256 key")
    return key


class StandIn:
    """The checks and the scripted answers, shared by both ports and every connection."""

    def __init__(self, options, verify_key, script, log, faults):
        self.options = options
        self.faults = faults
        self.verify_key = verify_key
        self.answers = {key: list(value) for key, value in script.get("answers", {}).items()}
        self.environments = script.get("environments", {})
        self.log = log
        self.connections = 0
        self.refusing_since = None

    def check_provider_token(self, headers, connection, request):
        """The JWT of the `authorization` header, checked; `request.jwt` gets what the log shows of it."""
        value = headers.get("authorization")
        if not value:
            raise Refusal(403, "MissingProviderToken")
        scheme, _, token = value.partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise Refusal(403, "InvalidProviderToken")
        try:
            header, claims, signature, signing_input = h2_standin.split_jws(token)
        except ValueError:
            raise Refusal(403, "InvalidProviderToken")
        summary = {"alg": header.get("alg"), "kid": header.get("kid"), "iss": claims.get("iss"),
                   "iat": claims.get("iat"), "digest": hashlib.sha256(token.encode()).hexdigest()[:16]}
        request.jwt = summary
        iat = claims.get("iat")
        if (header.get("alg") != "ES256" or header.get("kid") != self.options.key_id
                or claims.get("iss") != self.options.team_id or not isinstance(iat, int) or isinstance(iat, bool)
                or len(signature) != 64):
            raise Refusal(403, "InvalidProviderToken")
        if not h2_standin.es256_verifies(self.verify_key, signature, signing_input):
            raise Refusal(403, "InvalidProviderToken")
        now = time.time()
        if iat > now + 1:
            raise Refusal(403, "InvalidProviderToken")
        if now - iat > self.options.max_token_age:
            raise Refusal(403, "ExpiredProviderToken")
        if token != connection.token:
            interval = self.options.token_update_interval
            if connection.token is not None and interval > 0 and now - connection.token_since < interval:
                raise Refusal(429, "TooManyProviderTokenUpdates")
            connection.token, connection.token_since = token, now
        self.check_outage(now)

    def check_outage(self, now):
        """--refuse-tokens-for: a valid token is refused as a revoked key is, for that long after the first one."""
        if self.faults.active("refuse-credentials"):
            raise Refusal(403, "InvalidProviderToken")
        seconds = self.options.refuse_tokens_for
        if seconds <= 0:
            return
        if self.refusing_since is None:
            self.refusing_since = now
        if now - self.refusing_since < seconds:
            raise Refusal(403, "InvalidProviderToken")

    @staticmethod
    def check_priority(headers, push_type, required):
        priority = headers.get("apns-priority")
        if priority is None:
            if required:
                raise Refusal(400, "BadPriority")
            return
        if priority not in ("1", "5", "10") or (push_type == "background" and priority == "10"):
            raise Refusal(400, "BadPriority")

    @staticmethod
    def check_expiration(headers, required):
        expiration = headers.get("apns-expiration")
        if expiration is None:
            if required:
                raise Refusal(400, "BadExpirationDate")
            return
        if not re.fullmatch(r"[0-9]{1,19}", expiration):
            raise Refusal(400, "BadExpirationDate")

    def check_device_push(self, environment, token, headers, body):
        if not token:
            raise Refusal(400, "MissingDeviceToken")
        if not TOKEN_PATTERN.fullmatch(token):
            raise Refusal(400, "BadDeviceToken")
        wanted = self.environments.get(token)
        if wanted is not None and (wanted == "development") != (environment == "sandbox"):
            raise Refusal(400, "BadDeviceToken")
        push_type = headers.get("apns-push-type")
        if push_type not in PUSH_TYPE_SUFFIXES:
            raise Refusal(400, "InvalidPushType")
        topic = headers.get("apns-topic")
        if not topic:
            raise Refusal(400, "MissingTopic")
        suffix = next((suffix for suffix in TOPIC_SUFFIXES if topic.endswith(suffix)), "")
        if topic[:len(topic) - len(suffix)] not in self.options.bundle_id:
            raise Refusal(400, "TopicDisallowed")
        if suffix != PUSH_TYPE_SUFFIXES[push_type]:
            raise Refusal(400, "BadTopic")
        self.check_priority(headers, push_type, required=False)
        self.check_expiration(headers, required=False)
        apns_id = headers.get("apns-id")
        if apns_id is not None and not UUID_PATTERN.fullmatch(apns_id):
            raise Refusal(400, "BadMessageId")
        if len(headers.get("apns-collapse-id", "").encode()) > 64:
            raise Refusal(400, "BadCollapseId")
        if not body:
            raise Refusal(400, "PayloadEmpty")
        if len(body) > (VOIP_BODY_LIMIT if push_type == "voip" else DEVICE_BODY_LIMIT):
            raise Refusal(413, "PayloadTooLarge")

    def check_broadcast(self, bundle_id, headers, body):
        suffix = next((suffix for suffix in TOPIC_SUFFIXES if bundle_id.endswith(suffix)), "")
        if suffix:
            raise Refusal(400, "TopicDisallowed")
        if bundle_id not in self.options.bundle_id:
            raise Refusal(403, "TopicMismatch")
        channel = headers.get("apns-channel-id")
        if not channel:
            raise Refusal(400, "MissingChannelId")
        try:
            base64.b64decode(channel, validate=True)
        except (ValueError, binascii.Error):
            raise Refusal(400, "BadChannelId")
        push_type = headers.get("apns-push-type")
        if push_type is None:
            raise Refusal(400, "MissingPushType")
        if push_type.lower() != "liveactivity":
            raise Refusal(400, "InvalidPushType")
        self.check_expiration(headers, required=True)
        self.check_priority(headers, push_type, required=True)
        if not body:
            raise Refusal(400, "PayloadEmpty")
        if len(body) > BROADCAST_BODY_LIMIT:
            raise Refusal(413, "PayloadTooLarge")
        try:
            json.loads(body)
        except ValueError:
            raise Refusal(400, "BadRequestPayload")

    def decide(self, environment, request, connection):
        """The answer to a whole request, as a dict (see the module's documentation)."""
        pseudo, headers = request.pseudo, request.plain
        try:
            if pseudo.get(":method") != "POST":
                raise Refusal(405, "MethodNotAllowed")
            path = pseudo.get(":path", "")
            device = re.fullmatch(r"/3/device/([^/?]*)", path)
            broadcast = re.fullmatch(r"/4/broadcasts/apps/([^/?]+)", path)
            if not device and not broadcast:
                raise Refusal(404, "BadPath")
            if request.repeated:
                raise Refusal(400, "DuplicateHeaders")
            self.check_provider_token(headers, connection, request)
            if device:
                key = device.group(1)
                self.check_device_push(environment, key, headers, request.body)
            else:
                key = headers.get("apns-channel-id")
                self.check_broadcast(broadcast.group(1), headers, request.body)
        except Refusal as refusal:
            return {"status": refusal.status, "reason": refusal.reason}
        answer = self.faults.window_answer()
        if answer is None:
            scripted = self.answers.get(key)
            answer = dict(scripted.pop(0)) if scripted else {}
        answer.setdefault("status", 200)
        answer.setdefault("action", "answer")
        if answer["action"] not in ACTIONS:
            raise SystemExit(f"unknown action {answer['action']!r} in the script")
        if broadcast:
            answer["request_id"] = headers.get("apns-request-id") or str(uuid.uuid4())
        else:
            answer["apns_id"] = headers.get("apns-id") or str(uuid.uuid4())
        return answer

    def write_log(self, environment, connection, stream_id, request, answer):
        line = {
            "time": time.time(), "environment": environment, "connection": connection.number, "stream": stream_id,
            "method": request.pseudo.get(":method"), "path": request.pseudo.get(":path"),
            "authority": request.pseudo.get(":authority"),
            "headers": {name: value for name, value in request.plain.items() if name != "authorization"},
            "jwt": request.jwt, "body": bytes(request.body).decode("utf-8", "replace"), "body_size": len(request.body),
            "answer": {"status": answer.get("status"), "reason": answer.get("reason"),
                       "action": answer.get("action", "answer")},
        }
        self.log.write(json.dumps(line) + "\n")
        self.log.flush()


class Request(h2_standin.Request):
    def __init__(self, headers):
        super().__init__(headers)
        self.jwt = None


class Connection(h2_standin.Connection):
    """One client connection to one of the two endpoints; it remembers its provider token (for
    --token-update-interval)."""

    request_class = Request

    def __init__(self, standin, environment, reader, writer):
        standin.connections += 1
        super().__init__(reader, writer, standin.connections, standin.faults)
        self.standin = standin
        self.environment = environment
        self.token = None
        self.token_since = 0.0

    def decide(self, stream_id, request):
        answer = self.standin.decide(self.environment, request, self)
        self.standin.write_log(self.environment, self, stream_id, request, answer)
        return answer

    async def act(self, stream_id, answer, action):
        if action != "goaway":
            await super().act(stream_id, answer, action)
            return
        reason = json.dumps({"reason": answer.get("reason") or "Shutdown"}).encode()
        self.h2.close_connection(h2.errors.ErrorCodes.NO_ERROR, additional_data=reason, last_stream_id=stream_id)
        self.flush()
        await asyncio.sleep(0.05)
        self.close()

    def response(self, answer):
        status = int(answer["status"])
        headers = [(":status", str(status))]
        if "apns_id" in answer:
            headers.append(("apns-id", answer["apns_id"]))
        if "request_id" in answer:
            headers.append(("apns-request-id", answer["request_id"]))
        if answer.get("retry_after") is not None:
            headers.append(("retry-after", str(answer["retry_after"])))
        if answer.get("action", "answer") == "garbage":
            body = answer.get("body", "<html><body>502 Bad Gateway</body></html>\x00\xff").encode("latin-1")
            headers.append(("content-type", "text/html"))
        elif "body" in answer:
            body = answer["body"].encode()
        elif status == 200:
            body = b""
        else:
            document = {"reason": answer.get("reason", "")}
            if answer.get("timestamp") is not None:
                document["timestamp"] = answer["timestamp"]
            body = json.dumps(document).encode()
            headers.append(("content-type", "application/json"))
        headers.append(("content-length", str(len(body))))
        return headers, body


async def serve(options):
    verify_key = load_verify_key(options.verify_key)
    script = h2_standin.load_script(options.script)
    context = h2_standin.server_context(options.ca_out, "pushgate stand-in APNs test CA", prefix="apns-standin-")
    log = open(options.log, "a", buffering=1)
    standin = StandIn(options, verify_key, script, log, h2_standin.Faults())
    control = h2_standin.control_task(options, standin.faults)

    def handler(environment):
        async def handle(reader, writer):
            if h2_standin.speaks_h2(writer):
                await Connection(standin, environment, reader, writer).run()
        return h2_standin.quiet_at_shutdown(handle)

    production = await asyncio.start_server(handler("production"), options.host, options.port, ssl=context)
    sandbox = await asyncio.start_server(handler("sandbox"), options.host, options.sandbox_port, ssl=context)
    h2_standin.announce({"production_port": production.sockets[0].getsockname()[1],
                         "sandbox_port": sandbox.sockets[0].getsockname()[1], "ca": options.ca_out})
    async with production, sandbox:
        await h2_standin.wait_for_stop()
    if control is not None:
        control.cancel()
    log.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--verify-key", required=True, help="PEM P-256 public key, or the .p8 private key")
    parser.add_argument("--key-id", required=True, help="the JWT's expected kid")
    parser.add_argument("--team-id", required=True, help="the JWT's expected iss")
    parser.add_argument("--bundle-id", action="append", required=True, help="an allowed bundle id (repeatable)")
    parser.add_argument("--ca-out", required=True, help="where to write the test CA certificate (PEM)")
    parser.add_argument("--log", required=True, help="JSON Lines log of every request")
    parser.add_argument("--script", help="JSON file of scripted answers and token environments")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="the production endpoint's port (0: any free one)")
    parser.add_argument("--sandbox-port", type=int, default=0, help="the sandbox endpoint's port (0: any free one)")
    parser.add_argument("--max-token-age", type=float, default=3600, help="seconds; older: ExpiredProviderToken")
    parser.add_argument("--token-update-interval", type=float, default=0,
                        help="seconds between new tokens on a connection (0: not checked; Apple: 1200)")
    parser.add_argument("--refuse-tokens-for", type=float, default=0,
                        help="seconds of 403 InvalidProviderToken to valid tokens, from the first request")
    h2_standin.add_control_option(parser)
    return h2_standin.run(serve(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
