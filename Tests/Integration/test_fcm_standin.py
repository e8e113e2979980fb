"""Self-test of the stand-in FCM and token endpoint (standins/fcm_standin.py), with an HTTP/2 client of h2's own, no
broker: `python3 -m unittest discover -s Tests/Integration -p 'test_*.py'`."""
import base64
import json
import os
import select
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

HERE = os.path.dirname(os.path.abspath(__file__))
STANDIN = os.path.join(HERE, "standins", "fcm_standin.py")
sys.path.insert(0, os.path.join(HERE, "standins"))
sys.path.insert(0, HERE)
import fcm_standin  # noqa: E402
from standin_client import Client, b64url  # noqa: E402

PROJECT = "shop-12345"
OTHER = "other-project"
SCOPE = "https://www.googleapis.com/auth/firebase.messaging"
GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer"


def assertion(account, key, aud, iat=None, exp=None, scope=SCOPE, alg="RS256", kid=None, iss=None):
    """A grant's assertion as google-auth makes one: RS256 (PKCS#1 v1.5, SHA-256)."""
    iat = int(time.time()) if iat is None else iat
    header = b64url(json.dumps({"alg": alg, "typ": "JWT", "kid": kid or account["private_key_id"]}).encode())
    claims = b64url(json.dumps({"iss": iss or account["client_email"], "scope": scope, "aud": aud, "iat": iat,
                                "exp": iat + 3600 if exp is None else exp}).encode())
    signature = key.sign(f"{header}.{claims}".encode(), padding.PKCS1v15(), hashes.SHA256())
    return f"{header}.{claims}.{b64url(signature)}"


def connect(port, ca):
    """A client that checks the certificate for 127.0.0.1 and sends :authority 127.0.0.1:PORT."""
    return Client("127.0.0.1", port, ca, server_hostname="127.0.0.1")


def start(directory, accounts, script=None, extra=(), name="a", stdin=False):
    """Starts a stand-in; returns the process and what it printed."""
    command = [sys.executable, STANDIN, "--ca-out", os.path.join(directory, f"ca-{name}.pem"),
               "--log", os.path.join(directory, f"requests-{name}.jsonl")]
    for path in accounts:
        command += ["--service-account", path]
    if script is not None:
        script_path = os.path.join(directory, f"script-{name}.json")
        with open(script_path, "w") as file:
            json.dump(script, file)
        command += ["--script", script_path]
    process = subprocess.Popen(command + list(extra), stdin=subprocess.PIPE if stdin else None, stdout=subprocess.PIPE,
                               text=True)
    ready, _, _ = select.select([process.stdout], [], [], 20)
    if not ready:
        process.kill()
        raise RuntimeError("the stand-in did not start")
    return process, json.loads(process.stdout.readline())


def stop(process):
    process.terminate()
    process.wait(10)
    process.stdout.close()


class StandInTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        cls.paths = [os.path.join(cls.directory.name, name) for name in ("sa.json", "other.json")]
        # Every key is made now: no key is ever committed.
        cls.key = fcm_standin.make_service_account(cls.paths[0], PROJECT, "https://unused.invalid/token")
        cls.other_key = fcm_standin.make_service_account(cls.paths[1], OTHER, "https://unused.invalid/token")
        with open(cls.paths[0]) as file:
            cls.account = json.load(file)
        script = {
            "answers": {
                "gone-1": [{"status": 404, "error_code": "UNREGISTERED"}],
                "quota-1": [{"status": 429, "error_code": "QUOTA_EXCEEDED", "retry_after": "7"}, {}],
                "html-1": [{"status": 502, "html": True}],
                "slow-1": [{"delay": 0.3, "status": 503, "error_code": "UNAVAILABLE"}],
                "revoke-1": [{"status": 401, "revoke": True}],
                "mute-1": [{"action": "no_answer"}],
                "close-1": [{"action": "close"}],
                "reset-1": [{"action": "reset"}],
            },
        }
        cls.process, cls.ready = start(cls.directory.name, cls.paths, script)
        cls.ca = cls.ready["ca"]
        cls.log = os.path.join(cls.directory.name, "requests-a.jsonl")

    @classmethod
    def tearDownClass(cls):
        stop(cls.process)
        cls.directory.cleanup()

    def post(self, path, headers, body, timeout=5.0, port=None, ca=None):
        client = connect(port or self.ready["port"], ca or self.ca)
        try:
            return client.request(path, headers, body, timeout=timeout)
        finally:
            client.close()

    def grant(self, jwt=None, grant_type=GRANT_TYPE, content_type="application/x-www-form-urlencoded", port=None,
              ca=None):
        jwt = jwt or assertion(self.account, self.key, self.ready["token_uri"])
        body = urllib.parse.urlencode({"grant_type": grant_type, "assertion": jwt}).encode()
        answer = self.post("/token", [("content-type", content_type)], body, port=port, ca=ca)
        return answer["status"], json.loads(answer["body"])

    def access_token(self):
        status, body = self.grant()
        self.assertEqual(status, 200, body)
        return body["access_token"]

    def send(self, token="tok-1", body=None, access_token=None, project=PROJECT, content_type="application/json",
             timeout=5.0):
        body = body if body is not None else json.dumps({"message": {"token": token, "data": {"a": "b"}}}).encode()
        headers = [("authorization", "Bearer " + (access_token or self.access_token())),
                   ("content-type", content_type)]
        return self.post(f"/v1/projects/{project}/messages:send", headers, body, timeout=timeout)

    def logged(self, kind):
        with open(self.log) as file:
            return [line for line in map(json.loads, file) if line["kind"] == kind]

    def test_a_valid_grant_gets_an_access_token_and_the_assertion_is_logged(self):
        jwt = assertion(self.account, self.key, self.ready["token_uri"])
        status, body = self.grant(jwt)
        self.assertEqual(status, 200)
        self.assertEqual((body["expires_in"], body["token_type"]), (3599, "Bearer"))
        self.assertTrue(body["access_token"].startswith("ya29."))
        line = [line for line in self.logged("grant") if line["assertion"] == jwt][-1]
        self.assertEqual(line["jwt_claims"]["aud"], self.ready["token_uri"])
        self.assertEqual(line["jwt_header"], {"alg": "RS256", "typ": "JWT", "kid": self.account["private_key_id"]})
        self.assertEqual(line["headers"]["content-type"], "application/x-www-form-urlencoded")

    def test_grants_are_checked_as_google_checks_them(self):
        uri = self.ready["token_uri"]
        stranger = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        now = int(time.time())
        cases = [
            ("invalid_grant", dict(jwt=assertion(self.account, stranger, uri))),
            ("invalid_grant", dict(jwt=assertion(self.account, self.key, "https://oauth2.googleapis.com/token"))),
            ("invalid_scope", dict(jwt=assertion(self.account, self.key, uri, scope="https://example.com/x"))),
            ("invalid_grant", dict(jwt=assertion(self.account, self.key, uri, iat=now - 7200))),
            ("invalid_grant", dict(jwt=assertion(self.account, self.key, uri, exp=now + 7200))),
            ("invalid_grant", dict(jwt=assertion(self.account, self.key, uri, iat=now + 600))),
            ("invalid_grant", dict(jwt=assertion(self.account, self.key, uri, alg="RS384"))),
            ("invalid_grant", dict(jwt=assertion(self.account, self.key, uri, kid="other"))),
            ("invalid_grant", dict(jwt=assertion(self.account, self.key, uri, iss="x@example.com"))),
            ("invalid_grant", dict(jwt=assertion(self.account, self.key, uri) + "A")),
            ("invalid_grant", dict(jwt="not.a.jwt")),
            ("unsupported_grant_type", dict(grant_type="client_credentials")),
            ("invalid_request", dict(content_type="application/json")),
        ]
        for error, arguments in cases:
            status, body = self.grant(**arguments)
            self.assertEqual((status, body["error"]), (400, error), arguments)

    def test_a_send_with_a_valid_token_is_answered_with_a_message_name(self):
        answer = self.send(token="ok-1")
        self.assertEqual(answer["status"], 200)
        self.assertRegex(json.loads(answer["body"])["name"], rf"^projects/{PROJECT}/messages/0:\d+%[0-9a-f]+$")
        dry = self.send(body=b'{"validate_only":true,"message":{"token":"ok-1"}}')
        self.assertEqual(json.loads(dry["body"]), {"name": f"projects/{PROJECT}/messages/fake_message_id"})
        line = self.logged("send")[-1]
        self.assertEqual((line["token"], line["project"]), ("ok-1", PROJECT))
        self.assertEqual(base64.b64decode(line["body_base64"]), b'{"validate_only":true,"message":{"token":"ok-1"}}')
        self.assertNotIn("authorization", line["headers"])

    def error(self, answer):
        error = json.loads(answer["body"])["error"]
        codes = [detail.get("errorCode") for detail in error.get("details", [])]
        return answer["status"], error["status"], codes

    def test_sends_are_checked(self):
        access_token = self.access_token()
        cases = [
            ((401, "UNAUTHENTICATED", []), dict(access_token="ya29.unknown")),
            ((403, "PERMISSION_DENIED", []), dict(project=OTHER)),
            ((400, "INVALID_ARGUMENT", []), dict(content_type="text/plain")),
            ((400, "INVALID_ARGUMENT", []), dict(body=b'{"message":{"data":{},"token":"t"}}')),
            ((400, "INVALID_ARGUMENT", []), dict(body=b'{"message":{"token":"t","topic":"news"}}')),
            ((400, "INVALID_ARGUMENT", []), dict(body=b'{"message":{"token":"t","data":{"n":1}}}')),
            ((400, "INVALID_ARGUMENT", []), dict(body=b'{"message":{"token":"t"')),
            ((400, "INVALID_ARGUMENT", []), dict(body=b'{"data":{}}')),
        ]
        for expected, arguments in cases:
            arguments.setdefault("access_token", access_token)
            self.assertEqual(self.error(self.send(**arguments)), expected, arguments)
        other_token = None
        with open(self.paths[1]) as file:
            other = json.load(file)
        status, body = self.grant(assertion(other, self.other_key, self.ready["token_uri"]))
        self.assertEqual(status, 200)
        other_token = body["access_token"]
        self.assertEqual(self.send(project=OTHER, access_token=other_token)["status"], 200)

    def test_scripted_answers_come_in_order_then_200(self):
        self.assertEqual(self.error(self.send(token="gone-1")), (404, "NOT_FOUND", ["UNREGISTERED"]))
        answer = self.send(token="quota-1")
        self.assertEqual(self.error(answer), (429, "RESOURCE_EXHAUSTED", ["QUOTA_EXCEEDED"]))
        self.assertEqual(answer["headers"]["retry-after"], "7")
        self.assertEqual(self.send(token="quota-1")["status"], 200)
        self.assertEqual(self.send(token="quota-1")["status"], 200)
        html = self.send(token="html-1")
        self.assertEqual((html["status"], html["headers"]["content-type"]), (502, "text/html; charset=UTF-8"))
        self.assertRaises(ValueError, json.loads, html["body"])
        started = time.monotonic()
        self.assertEqual(self.error(self.send(token="slow-1")), (503, "UNAVAILABLE", ["UNAVAILABLE"]))
        self.assertGreaterEqual(time.monotonic() - started, 0.3)

    def test_a_revoked_access_token_is_refused_until_a_new_grant(self):
        access_token = self.access_token()
        self.assertEqual(self.send(token="revoke-1", access_token=access_token)["status"], 401)
        self.assertEqual(self.error(self.send(token="ok-2", access_token=access_token)), (401, "UNAUTHENTICATED", []))
        self.assertEqual(self.send(token="ok-2")["status"], 200)

    def test_connection_faults(self):
        self.assertEqual(self.send(token="mute-1", timeout=0.5), {"timeout": True})
        self.assertEqual(self.send(token="close-1"), {"closed": True})
        self.assertEqual(self.send(token="reset-1"), {"reset": True})

    def test_access_tokens_expire_after_their_lifetime_and_grants_can_be_refused_or_scripted(self):
        process, ready = start(self.directory.name, self.paths[:1],
                               {"grants": [{"status": 503, "retry_after": "2"}]},
                               extra=["--token-lifetime", "1", "--refuse-grants-for", "1.0"], name="b")
        try:
            port, ca = ready["port"], ready["ca"]
            jwt = lambda: assertion(self.account, self.key, ready["token_uri"])  # noqa: E731
            status, body = self.grant(jwt(), port=port, ca=ca)
            self.assertEqual((status, body["error"]), (400, "invalid_grant"))
            time.sleep(1.1)
            client = connect(port, ca)
            form = urllib.parse.urlencode({"grant_type": GRANT_TYPE, "assertion": jwt()}).encode()
            scripted = client.request("/token", [("content-type", "application/x-www-form-urlencoded")], form)
            self.assertEqual((scripted["status"], scripted["headers"]["retry-after"]), (503, "2"))
            status, body = self.grant(jwt(), port=port, ca=ca)
            self.assertEqual((status, body["expires_in"]), (200, 1))
            headers = [("authorization", "Bearer " + body["access_token"]), ("content-type", "application/json")]
            path = f"/v1/projects/{PROJECT}/messages:send"
            message = b'{"message":{"token":"t"}}'
            self.assertEqual(client.request(path, headers, message)["status"], 200)
            time.sleep(1.1)
            self.assertEqual(client.request(path, headers, message)["status"], 401)
            client.close()
        finally:
            stop(process)

    def test_control_commands_refuse_credentials_and_open_fault_windows(self):
        process, ready = start(self.directory.name, self.paths[:1], extra=["--control"], name="c", stdin=True)

        def command(line):
            process.stdin.write(line + "\n")
            process.stdin.flush()
            return process.stdout.readline().strip()

        try:
            port, ca = ready["port"], ready["ca"]
            status, body = self.grant(assertion(self.account, self.key, ready["token_uri"]), port=port, ca=ca)
            self.assertEqual(status, 200, body)
            path, message = f"/v1/projects/{PROJECT}/messages:send", b'{"message":{"token":"t"}}'
            headers = [("authorization", "Bearer " + body["access_token"]), ("content-type", "application/json")]
            send = lambda timeout=5.0: self.post(path, headers, message, timeout=timeout, port=port, ca=ca)  # noqa
            self.assertEqual(command("unavailable 30"), "ok")
            self.assertEqual(self.error(send()), (503, "UNAVAILABLE", []))
            self.assertEqual(command("silent 30"), "ok")
            self.assertEqual(send(timeout=0.3), {"timeout": True})
            self.assertEqual(command("clear"), "ok")
            self.assertEqual(send()["status"], 200)
            self.assertEqual(command("refuse-credentials 30"), "ok")
            self.assertEqual(self.error(send()), (401, "UNAUTHENTICATED", []), "a revoked key's tokens are refused")
            status, body = self.grant(assertion(self.account, self.key, ready["token_uri"]), port=port, ca=ca)
            self.assertEqual((status, body["error"]), (400, "invalid_grant"))
            self.assertEqual(command("clear"), "ok")
            self.assertEqual(send()["status"], 200, "the token issued before the outage is good again")
        finally:
            process.stdin.close()
            stop(process)

    def test_a_client_without_h2_is_refused(self):
        context = ssl.create_default_context(cafile=self.ca)
        context.set_alpn_protocols(["http/1.1"])
        with socket.create_connection(("127.0.0.1", self.ready["port"]), timeout=5) as raw:
            with self.assertRaises((ssl.SSLError, ConnectionError)):
                with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                    tls.sendall(b"POST /token HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n")
                    if not tls.recv(100):
                        raise ConnectionResetError("closed")


if __name__ == "__main__":
    unittest.main()
