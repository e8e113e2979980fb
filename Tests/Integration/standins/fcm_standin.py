#!/usr/bin/env python3
"""A stand-in for FCM HTTP v1 and Google's OAuth 2.0 token endpoint for pushgate's tests: HTTP/2 over TLS on loopback.

  fcm_standin.py --service-account SA.json [--service-account SA2.json ...] --ca-out CA.pem --log REQUESTS.jsonl \\
      [--script SCRIPT.json] [--port 0] [--token-lifetime 3599] [--refuse-grants-for SECONDS] [--control]

At start it makes a test CA and a server certificate for localhost, 127.0.0.1 and ::1 (cryptography), writes the CA
certificate (PEM) to --ca-out, listens on one loopback port (ALPN `h2` only) and prints one JSON line,
{"port": P, "ca": PATH, "token_uri": "https://127.0.0.1:P/token"}, once it listens. The same port serves the token
endpoint (POST /token) and FCM's send method (POST /v1/projects/<project>/messages:send). Service-account files are
read for project_id, client_email, private_key_id and private_key (whose public key verifies the grants); their
token_uri is not read: a test writes the token_uri printed at start into the files it gives pushgate.

A grant (docs: Tests/Conformance/Fixtures/DELIVERY.md, part B2) is checked as Google checks it, in this order, and the
first broken rule is answered 400 with an RFC 6749 error body {"error": ..., "error_description": ...}:
  content-type application/x-www-form-urlencoded (invalid_request); grant_type
  urn:ietf:params:oauth:grant-type:jwt-bearer (unsupported_grant_type); an assertion (invalid_request); the assertion
  a JWT of three base64url parts whose header is {"alg":"RS256","typ":"JWT","kid":...} (invalid_grant); `iss` the
  client_email of a --service-account and `kid` its private_key_id (invalid_grant); the RS256 signature (RSASSA-PKCS1
  v1.5, SHA-256) verified with that account's public key (invalid_grant "Invalid JWT Signature."); `scope` holding
  https://www.googleapis.com/auth/firebase.messaging (invalid_scope); `aud` the URL the grant was posted to,
  https://AUTHORITY/token (invalid_grant); `iat` and `exp` integers with iat <= now + 60, exp > now and
  exp - iat <= 3600 (invalid_grant).
A valid grant takes the next scripted grant answer, if any; without one it is answered 200
{"access_token": NEW, "expires_in": --token-lifetime, "token_type": "Bearer"}. --refuse-grants-for SECONDS answers
every valid grant 400 invalid_grant for SECONDS after the first one (a revoked key).

--control reads fault commands from standard input (h2_standin.Faults: unavailable, silent, refuse-credentials,
goaway-every, clear). Under `refuse-credentials` (a revoked key) every valid grant is answered 400 invalid_grant and
every send 401 UNAUTHENTICATED, whatever its access token; under `unavailable` or `silent` a valid send is answered
STATUS with Google's JSON error (503: UNAVAILABLE) or not at all, before any scripted answer of its token is taken.
Grants are not held to those two windows.

A send is checked in this order: the path (404 NOT_FOUND); `authorization: Bearer TOKEN` with a token this stand-in
issued, not expired (--token-lifetime after its grant) and not revoked (401 UNAUTHENTICATED, no FcmError detail);
issued for the path's project (403 PERMISSION_DENIED); content-type application/json (400 INVALID_ARGUMENT); a JSON
object body with a `message` object whose FIRST member is `token` (a non-empty string) and which has no `topic` or
`condition` (400 INVALID_ARGUMENT); `message.data` values all strings (400 INVALID_ARGUMENT, as FCM's
"Invalid value at 'message.data[0].value' (TYPE_STRING)"). A valid send then takes the next scripted answer of its
registration token, if any; without one it is answered 200 {"name": "projects/P/messages/ID"} (ID
`fake_message_id` for a `validate_only` send, as FCM's dry runs answer).

--script is a JSON file: {"answers": {REGISTRATION_TOKEN: [ANSWER, ...]}, "grants": [ANSWER, ...]}. Answers of a token
(or of the grants) are used in order, one per valid request. An ANSWER is an object; every member is optional:
  "status" (default 200); "error_code": the errorCode of an FcmError detail in Google's JSON error (whose `status` is
  the canonical code of the HTTP status: 400 INVALID_ARGUMENT, 401 UNAUTHENTICATED, 403 PERMISSION_DENIED, 404
  NOT_FOUND, 429 RESOURCE_EXHAUSTED, 500 INTERNAL, 503 UNAVAILABLE); "error": a grant answer's RFC 6749 error;
  "retry_after": a `retry-after` header, as given; "body": the answer's body as text, instead of the JSON one;
  "html": true for an HTML error page (content-type text/html); "delay": seconds to wait before answering;
  "revoke": true revokes the access token the send carried (a later send with it gets 401);
  "action": "answer" (default), "no_answer" (never answer the stream), "close" (close the connection without an
  answer), "reset" (RST_STREAM the stream).

--log gets one JSON line per request, written before the answer goes out: "time", "kind" (grant | send | other),
"connection", "stream", "method", "path", "authority", "headers" (every header but `authorization` and the pseudo
headers), "body" (as UTF-8 text, invalid bytes replaced), "body_base64" (the exact bytes), "body_size", and:
for a grant, "assertion" (the JWT posted, so that a test can verify it itself), "jwt_header", "jwt_claims";
for a send, "project", "token" (the registration token of message.token), "access_token_digest" (the first 16 hex
digits of the access token's SHA-256, or null); "answer" ({"status", "error_code", "error", "action"}).
"""
import argparse
import asyncio
import base64
import hashlib
import json
import re
import secrets
import sys
import time
import urllib.parse

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

import h2_standin
from h2_standin import Refusal

GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer"
SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
TOKEN_PATH = "/token"
FCM_ERROR = "type.googleapis.com/google.firebase.fcm.v1.FcmError"
CANONICAL = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
             409: "ABORTED", 413: "INVALID_ARGUMENT", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 502: "UNAVAILABLE",
             503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED"}
SEND_PATH = re.compile(r"^/v1/projects/([^/?]+)/messages:send$")
ACTIONS = {"answer", "no_answer", "close", "reset"}
HTML_PAGE = ("<!DOCTYPE html><html lang=en><meta charset=utf-8><title>Error 502 (Server Error)!!1</title>"
             "<p><b>502.</b> <ins>That's an error.</ins><p>The server encountered a temporary error.</html>")


def make_service_account(path, project_id, token_uri, client_email=None, key=None):
    """Writes a service-account key file as Google gives one, with a new RSA key (or `key`), for tests and demos;
    returns the key. Nothing of it is ever committed: every test makes its own."""
    key = key or rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    email = client_email or f"pushgate@{project_id}.iam.gserviceaccount.com"
    document = {"type": "service_account", "project_id": project_id, "private_key_id": secrets.token_hex(20),
                "private_key": pem, "client_email": email, "client_id": str(secrets.randbelow(10 ** 21)),
                "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": token_uri,
                "universe_domain": "googleapis.com"}
    with open(path, "w") as file:
        json.dump(document, file, indent=2)
    return key


def load_account(path):
    """project_id, client_email, private_key_id and the RSA public key of a service-account file."""
    with open(path) as file:
        document = json.load(file)
    key = serialization.load_pem_private_key(document["private_key"].encode(), password=None)
    if not isinstance(key, rsa.RSAPrivateKey):
        raise SystemExit(f"{path}: private_key is not an RSA key")
    return {"project_id": document["project_id"], "client_email": document["client_email"],
            "private_key_id": document["private_key_id"], "public_key": key.public_key()}


class Pairs(list):
    """A JSON object's members in order, as (name, value) tuples: what the send checks read member order from."""


def is_integer(value):
    return isinstance(value, int) and not isinstance(value, bool)


class StandIn:
    """The checks, the issued access tokens and the scripted answers, shared by every connection."""

    def __init__(self, options, accounts, script, log, faults):
        self.options = options
        self.faults = faults
        self.accounts = {account["client_email"]: account for account in accounts}
        self.answers = {key: list(value) for key, value in script.get("answers", {}).items()}
        self.grant_answers = list(script.get("grants", []))
        self.log = log
        self.connections = 0
        self.tokens = {}  # access token -> {"project": ..., "expires": ..., "revoked": bool}
        self.refusing_since = None

    # The token endpoint.

    def check_grant(self, request):
        headers = request.plain
        content_type = headers.get("content-type", "").split(";")[0].strip().lower()
        if content_type != "application/x-www-form-urlencoded":
            raise Refusal(400, error="invalid_request", description="Bad Request")
        try:
            form = urllib.parse.parse_qs(bytes(request.body).decode("ascii"), keep_blank_values=True,
                                         strict_parsing=True)
        except (ValueError, UnicodeDecodeError):
            raise Refusal(400, error="invalid_request", description="Bad Request")
        if form.get("grant_type") != [GRANT_TYPE]:
            raise Refusal(400, error="unsupported_grant_type", description="Invalid grant_type")
        assertions = form.get("assertion", [])
        if len(assertions) != 1 or not assertions[0]:
            raise Refusal(400, error="invalid_request", description="Missing required parameter: assertion")
        assertion = assertions[0]
        request.assertion = assertion
        try:
            header, claims, signature, signing_input = h2_standin.split_jws(assertion)
        except ValueError:
            raise Refusal(400, error="invalid_grant", description="Invalid JWT")
        request.jwt_header, request.jwt_claims = header, claims
        if header.get("alg") != "RS256" or header.get("typ") != "JWT":
            raise Refusal(400, error="invalid_grant", description="Invalid JWT: alg or typ")
        account = self.accounts.get(claims.get("iss"))
        if account is None or header.get("kid") != account["private_key_id"]:
            raise Refusal(400, error="invalid_grant", description="Invalid JWT: iss or kid")
        try:
            account["public_key"].verify(signature, signing_input, padding.PKCS1v15(), hashes.SHA256())
        except InvalidSignature:
            raise Refusal(400, error="invalid_grant", description="Invalid JWT Signature.")
        if SCOPE not in str(claims.get("scope", "")).split(" "):
            raise Refusal(400, error="invalid_scope", description="Invalid OAuth scope or ID token audience provided.")
        audience = f"https://{request.pseudo.get(':authority', '')}{TOKEN_PATH}"
        if claims.get("aud") != audience:
            raise Refusal(400, error="invalid_grant", description="Invalid JWT: Token must be a short-lived token "
                                                                  "and in a reasonable timeframe. Check your iat and "
                                                                  "exp values in the JWT claim.")
        iat, exp, now = claims.get("iat"), claims.get("exp"), time.time()
        if not is_integer(iat) or not is_integer(exp) or iat > now + 60 or exp <= now or exp - iat > 3600:
            raise Refusal(400, error="invalid_grant", description="Invalid JWT: Token must be a short-lived token "
                                                                  "and in a reasonable timeframe.")
        if self.faults.active("refuse-credentials"):
            raise Refusal(400, error="invalid_grant", description="Invalid grant: account not found")
        seconds = self.options.refuse_grants_for
        if seconds > 0:
            if self.refusing_since is None:
                self.refusing_since = now
            if now - self.refusing_since < seconds:
                raise Refusal(400, error="invalid_grant", description="Invalid grant: account not found")
        return account

    def grant_answer(self, request):
        try:
            account = self.check_grant(request)
        except Refusal as refusal:
            return {"status": refusal.status, "error": refusal.answer["error"],
                    "json": {"error": refusal.answer["error"], "error_description": refusal.answer["description"]}}
        answer = dict(self.grant_answers.pop(0)) if self.grant_answers else {}
        answer.setdefault("status", 200)
        answer.setdefault("action", "answer")
        if answer["status"] == 200 and "body" not in answer:
            token = "ya29.standin-" + secrets.token_urlsafe(24)
            lifetime = self.options.token_lifetime
            self.tokens[token] = {"project": account["project_id"], "expires": time.time() + lifetime,
                                  "revoked": False}
            answer["json"] = {"access_token": token, "expires_in": lifetime, "token_type": "Bearer"}
        elif answer["status"] != 200 and "body" not in answer and not answer.get("html"):
            answer["json"] = {"error": answer.get("error", "invalid_grant"),
                              "error_description": answer.get("description", "refused by the script")}
        return answer

    # The send method.

    def check_send(self, request, project):
        headers = request.plain
        scheme, _, token = headers.get("authorization", "").partition(" ")
        request.access_token_digest = hashlib.sha256(token.encode()).hexdigest()[:16] if token else None
        issued = self.tokens.get(token) if scheme == "Bearer" else None
        if (issued is None or issued["revoked"] or issued["expires"] <= time.time()
                or self.faults.active("refuse-credentials")):
            raise Refusal(401, message="Request had invalid authentication credentials. Expected OAuth 2 access "
                                       "token, login cookie or other valid authentication credential.")
        if issued["project"] != project:
            raise Refusal(403, message="Permission 'cloudmessaging.messages.create' denied on resource.")
        content_type = headers.get("content-type", "").split(";")[0].strip().lower()
        if content_type != "application/json":
            raise Refusal(400, message="Invalid JSON payload received.")
        try:
            document = json.loads(bytes(request.body), object_pairs_hook=Pairs)
        except (ValueError, UnicodeDecodeError):
            raise Refusal(400, message="Invalid JSON payload received.")
        if not isinstance(document, Pairs):
            raise Refusal(400, message="Invalid JSON payload received.")
        messages = [value for name, value in document if name == "message"]
        message = messages[-1] if messages else None
        if not isinstance(message, Pairs) or not message or message[0][0] != "token":
            raise Refusal(400, message="Recipient of the message is not set.")
        names = [name for name, _ in message]
        if not isinstance(message[0][1], str) or not message[0][1] or names.count("token") != 1 \
                or "topic" in names or "condition" in names:
            raise Refusal(400, message="Recipient of the message is not set.")
        request.token = message[0][1]
        for name, value in message:
            if name == "data":
                entries = value if isinstance(value, Pairs) else []
                for index, (_, data_value) in enumerate(entries):
                    if not isinstance(data_value, str):
                        raise Refusal(400, message=f"Invalid value at 'message.data[{index}].value' (TYPE_STRING)")
        validate_only = [value for name, value in document if name == "validate_only"]
        request.validate_only = bool(validate_only) and validate_only[-1] is True
        return token

    def send_answer(self, request, project):
        try:
            access_token = self.check_send(request, project)
        except Refusal as refusal:
            return {"status": refusal.status, **refusal.answer}
        window = self.faults.window_answer()
        if window is not None:
            return {"status": window.get("status"), "action": window["action"],
                    "message": "The service is currently unavailable."}
        scripted = self.answers.get(request.token)
        answer = dict(scripted.pop(0)) if scripted else {}
        answer.setdefault("status", 200)
        answer.setdefault("action", "answer")
        if answer.get("revoke"):
            self.tokens[access_token]["revoked"] = True
        if answer["status"] == 200 and "body" not in answer:
            message_id = "fake_message_id" if request.validate_only else f"0:{time.time_ns()}%{secrets.token_hex(8)}"
            answer["json"] = {"name": f"projects/{project}/messages/{message_id}"}
        return answer

    def decide(self, request):
        """The answer to a whole request, as a dict (see the module's documentation)."""
        pseudo = request.pseudo
        path = pseudo.get(":path", "")
        if pseudo.get(":method") != "POST":
            request.kind = "other"
            return {"status": 404, "message": "Not Found"}
        if path == TOKEN_PATH:
            request.kind = "grant"
            answer = self.grant_answer(request)
        elif SEND_PATH.fullmatch(path):
            request.kind = "send"
            request.project = SEND_PATH.fullmatch(path).group(1)
            answer = self.send_answer(request, request.project)
        else:
            request.kind = "other"
            return {"status": 404, "message": "Not Found"}
        if answer.get("action", "answer") not in ACTIONS:
            raise SystemExit(f"unknown action {answer['action']!r} in the script")
        return answer

    def write_log(self, connection, stream_id, request, answer):
        line = {
            "time": time.time(), "kind": request.kind, "connection": connection.number, "stream": stream_id,
            "method": request.pseudo.get(":method"), "path": request.pseudo.get(":path"),
            "authority": request.pseudo.get(":authority"),
            "headers": {name: value for name, value in request.plain.items() if name != "authorization"},
            "body": bytes(request.body).decode("utf-8", "replace"),
            "body_base64": base64.b64encode(bytes(request.body)).decode(), "body_size": len(request.body),
            "answer": {"status": answer.get("status"), "error_code": answer.get("error_code"),
                       "error": answer.get("error"), "action": answer.get("action", "answer")},
        }
        if request.kind == "grant":
            line.update({"assertion": request.assertion, "jwt_header": request.jwt_header,
                         "jwt_claims": request.jwt_claims})
        elif request.kind == "send":
            line.update({"project": request.project, "token": request.token,
                         "access_token_digest": request.access_token_digest})
        self.log.write(json.dumps(line) + "\n")
        self.log.flush()


class Request(h2_standin.Request):
    def __init__(self, headers):
        super().__init__(headers)
        self.kind = "other"
        self.assertion = None
        self.jwt_header = None
        self.jwt_claims = None
        self.project = None
        self.token = None
        self.access_token_digest = None
        self.validate_only = False


def answer_body(answer):
    """The body and content type of an answer."""
    status = int(answer["status"])
    if answer.get("html"):
        return answer.get("body", HTML_PAGE).encode(), "text/html; charset=UTF-8"
    if "body" in answer:
        return answer["body"].encode(), "application/json; charset=UTF-8"
    if "json" in answer:
        return json.dumps(answer["json"]).encode(), "application/json; charset=UTF-8"
    error = {"code": status, "message": answer.get("message", "scripted"),
             "status": answer.get("canonical", CANONICAL.get(status, "UNKNOWN"))}
    if answer.get("error_code"):
        error["details"] = [{"@type": FCM_ERROR, "errorCode": answer["error_code"]}]
    return json.dumps({"error": error}).encode(), "application/json; charset=UTF-8"


class Connection(h2_standin.Connection):
    request_class = Request

    def __init__(self, standin, reader, writer):
        standin.connections += 1
        super().__init__(reader, writer, standin.connections, standin.faults)
        self.standin = standin

    def decide(self, stream_id, request):
        answer = self.standin.decide(request)
        self.standin.write_log(self, stream_id, request, answer)
        return answer

    def response(self, answer):
        body, content_type = answer_body(answer)
        headers = [(":status", str(int(answer["status"]))), ("content-type", content_type),
                   ("content-length", str(len(body)))]
        if answer.get("retry_after") is not None:
            headers.append(("retry-after", str(answer["retry_after"])))
        return headers, body


async def serve(options):
    accounts = [load_account(path) for path in options.service_account]
    script = h2_standin.load_script(options.script)
    context = h2_standin.server_context(options.ca_out, "pushgate stand-in FCM test CA", prefix="fcm-standin-")
    log = open(options.log, "a", buffering=1)
    standin = StandIn(options, accounts, script, log, h2_standin.Faults())
    control = h2_standin.control_task(options, standin.faults)

    async def handle(reader, writer):
        if h2_standin.speaks_h2(writer):
            await Connection(standin, reader, writer).run()

    server = await asyncio.start_server(h2_standin.quiet_at_shutdown(handle), options.host, options.port, ssl=context)
    port = server.sockets[0].getsockname()[1]
    h2_standin.announce({"port": port, "ca": options.ca_out, "token_uri": f"https://{options.host}:{port}{TOKEN_PATH}"})
    async with server:
        await h2_standin.wait_for_stop()
    if control is not None:
        control.cancel()
    log.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--service-account", action="append", required=True,
                        help="a service-account key file whose grants are accepted (repeatable)")
    parser.add_argument("--ca-out", required=True, help="where to write the test CA certificate (PEM)")
    parser.add_argument("--log", required=True, help="JSON Lines log of every request")
    parser.add_argument("--script", help="JSON file of scripted answers (sends by registration token, grants)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="the port (0: any free one)")
    parser.add_argument("--token-lifetime", type=int, default=3599, help="expires_in of the access tokens, seconds")
    parser.add_argument("--refuse-grants-for", type=float, default=0,
                        help="seconds of 400 invalid_grant to valid grants, from the first one")
    h2_standin.add_control_option(parser)
    return h2_standin.run(serve(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
