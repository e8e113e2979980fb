"""Self-test of the stand-in APNs (standins/apns_standin.py), with an HTTP/2 client of h2's own, no broker:
`python3 -m unittest discover -s Tests/Integration -p 'test_*.py'`."""
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

import h2.exceptions

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

HERE = os.path.dirname(os.path.abspath(__file__))
STANDIN = os.path.join(HERE, "standins", "apns_standin.py")
sys.path.insert(0, HERE)
from standin_client import Client, es256_token  # noqa: E402

KEY_ID = "KEYID12345"
TEAM_ID = "TEAMID6789"
BUNDLE = "com.example.shop"
TOKEN = "a0" * 32


def provider_token(key, kid=KEY_ID, iss=TEAM_ID, iat=None, alg="ES256"):
    """A provider token as Apple wants it: ES256, the signature as r||s."""
    return es256_token(key, {"alg": alg, "kid": kid}, {"iss": iss, "iat": int(time.time()) if iat is None else iat})


def connect(port, ca):
    """A client as pushgate connects to APNs: the certificate checked for localhost, :authority localhost."""
    return Client("127.0.0.1", port, ca, authority="localhost")


class StandInTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        cls.key = ec.generate_private_key(ec.SECP256R1())
        key_path = os.path.join(cls.directory.name, "AuthKey.p8")
        with open(key_path, "wb") as file:
            file.write(cls.key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                             serialization.NoEncryption()))
        cls.ca = os.path.join(cls.directory.name, "ca.pem")
        cls.log = os.path.join(cls.directory.name, "requests.jsonl")
        script = {
            "answers": {
                "b1" * 32: [{"status": 410, "reason": "Unregistered", "timestamp": 1700000000123}],
                "b2" * 32: [{"status": 429, "reason": "TooManyRequests", "retry_after": "7"}],
                "b3" * 32: [{"status": 502, "action": "garbage"}],
                "b4" * 32: [{"action": "goaway", "reason": "Shutdown"}],
                "b5" * 32: [{"action": "no_answer"}],
                "b6" * 32: [{"action": "close"}],
                "b7" * 32: [{"delay": 0.3, "status": 503, "reason": "ServiceUnavailable"}, {}],
                "b8" * 32: [{"action": "reset"}],
                "b9" * 32: [{"status": 400, "reason": "BadDeviceToken"}],
            },
            "environments": {"c1" * 32: "development"},
        }
        script_path = os.path.join(cls.directory.name, "script.json")
        with open(script_path, "w") as file:
            json.dump(script, file)
        cls.process = subprocess.Popen(
            [sys.executable, STANDIN, "--verify-key", key_path, "--key-id", KEY_ID, "--team-id", TEAM_ID,
             "--bundle-id", BUNDLE, "--ca-out", cls.ca, "--log", cls.log, "--script", script_path],
            stdout=subprocess.PIPE, text=True)
        ready, _, _ = select.select([cls.process.stdout], [], [], 20)
        if not ready:
            cls.process.kill()
            raise RuntimeError("the stand-in did not start")
        cls.ports = json.loads(cls.process.stdout.readline())

    @classmethod
    def tearDownClass(cls):
        cls.process.terminate()
        cls.process.wait(10)
        cls.process.stdout.close()
        cls.directory.cleanup()

    def send(self, token=TOKEN, push_type="alert", topic=BUNDLE, body=b'{"aps":{"alert":"Hi"}}', extra=(),
             jwt=None, sandbox=False, path=None, method="POST", timeout=5.0, drop=()):
        headers = [("authorization", "bearer " + (jwt or provider_token(self.key))), ("apns-push-type", push_type),
                   ("apns-topic", topic), ("apns-priority", "10")]
        headers = [(name, value) for name, value in headers if name not in drop] + list(extra)
        client = connect(self.ports["sandbox_port" if sandbox else "production_port"], self.ca)
        try:
            return client.request(path or f"/3/device/{token}", headers, body, method=method, timeout=timeout)
        finally:
            client.close()

    def reason(self, answer):
        return answer.get("status"), json.loads(answer["body"]).get("reason") if answer.get("body") else None

    def logged(self, path):
        with open(self.log) as file:
            return [line for line in map(json.loads, file) if line["path"] == path]

    def test_a_valid_push_is_answered_200_with_its_apns_id_and_logged_without_its_token(self):
        apns_id = "3f1c2b1e-1d2a-8b4c-9d8e-0123456789ab"
        token = "d1" * 32
        jwt = provider_token(self.key)
        answer = self.send(token=token, jwt=jwt, extra=[("apns-id", apns_id), ("apns-collapse-id", "c")])
        self.assertEqual((answer["status"], answer["headers"]["apns-id"], answer["body"]), (200, apns_id, b""))
        line = self.logged(f"/3/device/{token}")[-1]
        self.assertEqual(line["headers"]["apns-collapse-id"], "c")
        self.assertNotIn("authorization", line["headers"])
        self.assertEqual((line["jwt"]["kid"], line["jwt"]["iss"], line["environment"]), (KEY_ID, TEAM_ID,
                                                                                       "production"))
        self.assertEqual(line["body"], '{"aps":{"alert":"Hi"}}')
        with open(self.log) as file:
            self.assertNotIn(jwt.split(".")[2], file.read())

    def test_provider_tokens_are_checked_as_apple_checks_them(self):
        other = ec.generate_private_key(ec.SECP256R1())
        cases = {
            "MissingProviderToken": dict(drop=("authorization",)),
            "InvalidProviderToken": dict(jwt=provider_token(other)),
        }
        for reason, arguments in cases.items():
            self.assertEqual(self.reason(self.send(**arguments)), (403, reason), reason)
        for jwt in (provider_token(self.key, kid="OTHERKEY12"), provider_token(self.key, iss="OTHERTEAM1"),
                    provider_token(self.key, iat=int(time.time()) + 120), provider_token(self.key, alg="ES384"),
                    provider_token(self.key, iat=str(int(time.time()))), provider_token(self.key) + "A"):
            self.assertEqual(self.reason(self.send(jwt=jwt)), (403, "InvalidProviderToken"), jwt.split(".")[1])
        old = provider_token(self.key, iat=int(time.time()) - 3700)
        self.assertEqual(self.reason(self.send(jwt=old)), (403, "ExpiredProviderToken"))

    def test_headers_paths_and_sizes_are_checked(self):
        live = f"{BUNDLE}.push-type.liveactivity"
        cases = [
            ((400, "InvalidPushType"), dict(push_type="banner")),
            ((400, "InvalidPushType"), dict(drop=("apns-push-type",))),
            ((400, "MissingTopic"), dict(drop=("apns-topic",))),
            ((400, "TopicDisallowed"), dict(topic="com.example.other")),
            ((400, "BadTopic"), dict(push_type="liveactivity")),
            ((400, "BadTopic"), dict(topic=live)),
            ((400, "BadPriority"), dict(extra=[("apns-priority", "7")], drop=("apns-priority",))),
            ((400, "BadPriority"), dict(push_type="background")),
            ((400, "BadExpirationDate"), dict(extra=[("apns-expiration", "soon")])),
            ((400, "BadMessageId"), dict(extra=[("apns-id", "3F1C2B1E-1D2A-8B4C-9D8E-0123456789AB")])),
            ((400, "BadCollapseId"), dict(extra=[("apns-collapse-id", "x" * 65)])),
            ((400, "DuplicateHeaders"), dict(extra=[("apns-topic", BUNDLE)])),
            ((400, "PayloadEmpty"), dict(body=b"")),
            ((413, "PayloadTooLarge"), dict(body=b"x" * 4097)),
            ((400, "BadDeviceToken"), dict(token="A0" * 32)),
            ((400, "BadDeviceToken"), dict(token="abc")),
            ((400, "MissingDeviceToken"), dict(token="")),
            ((404, "BadPath"), dict(path="/3/devices/" + TOKEN)),
            ((405, "MethodNotAllowed"), dict(method="GET", body=b"")),
            ((400, "BadDeviceToken"), dict(token="c1" * 32)),
        ]
        for expected, arguments in cases:
            self.assertEqual(self.reason(self.send(**arguments)), expected, arguments)
        self.assertEqual(self.send(push_type="liveactivity", topic=live)["status"], 200)
        self.assertEqual(self.send(push_type="voip", topic=BUNDLE + ".voip", body=b"x" * 5120)["status"], 200)
        self.assertEqual(self.send(token="c1" * 32, sandbox=True)["status"], 200)
        self.assertEqual(self.logged("/3/device/" + "c1" * 32)[-1]["environment"], "sandbox")

    def test_broadcasts_are_checked(self):
        path = f"/4/broadcasts/apps/{BUNDLE}"
        base = [("apns-channel-id", "dHN0LXNyY2gtY2hubA=="), ("apns-expiration", "0")]
        body = b'{"aps":{"event":"update","content-state":{},"timestamp":1}}'
        answer = self.send(path=path, push_type="liveactivity", extra=base, drop=("apns-topic",), body=body)
        self.assertEqual(answer["status"], 200)
        self.assertIn("apns-request-id", answer["headers"])
        cases = [
            ((400, "MissingChannelId"), dict(extra=base[1:])),
            ((400, "BadExpirationDate"), dict(extra=base[:1])),
            ((400, "InvalidPushType"), dict(extra=base, push_type="alert")),
            ((400, "TopicDisallowed"), dict(extra=base, path=path + ".push-type.liveactivity")),
            ((403, "TopicMismatch"), dict(extra=base, path="/4/broadcasts/apps/com.example.other")),
            ((400, "BadRequestPayload"), dict(extra=base, body=b"{")),
        ]
        for expected, arguments in cases:
            arguments = {"path": path, "push_type": "liveactivity", "drop": ("apns-topic",), "body": body,
                         **arguments}
            self.assertEqual(self.reason(self.send(**arguments)), expected, arguments)

    def test_scripted_answers_come_in_order_then_200(self):
        token = "b1" * 32
        answer = self.send(token=token)
        self.assertEqual(answer["status"], 410)
        self.assertEqual(json.loads(answer["body"]), {"reason": "Unregistered", "timestamp": 1700000000123})
        self.assertEqual(self.send(token=token)["status"], 200)
        answer = self.send(token="b2" * 32)
        self.assertEqual((answer["status"], answer["headers"]["retry-after"]), (429, "7"))
        answer = self.send(token="b3" * 32)
        self.assertEqual(answer["status"], 502)
        self.assertRaises(ValueError, json.loads, answer["body"])
        started = time.monotonic()
        self.assertEqual(self.reason(self.send(token="b7" * 32)), (503, "ServiceUnavailable"))
        self.assertGreaterEqual(time.monotonic() - started, 0.3)
        self.assertEqual(self.send(token="b7" * 32)["status"], 200)

    def test_a_refused_request_does_not_use_up_a_scripted_answer(self):
        token = "b9" * 32
        self.assertEqual(self.reason(self.send(token=token, push_type="banner")), (400, "InvalidPushType"))
        self.assertEqual(self.reason(self.send(token=token)), (400, "BadDeviceToken"))
        self.assertEqual(self.send(token=token)["status"], 200)
        log = self.logged(f"/3/device/{token}")
        self.assertEqual([line["answer"]["reason"] for line in log], ["InvalidPushType", "BadDeviceToken", None])

    def test_connection_faults(self):
        answer = self.send(token="b4" * 32)
        self.assertEqual(answer["goaway"], {"reason": "Shutdown"})
        self.assertEqual(answer["last_stream_id"], answer["stream"])
        self.assertEqual(self.send(token="b5" * 32, timeout=0.5), {"timeout": True})
        self.assertEqual(self.send(token="b6" * 32), {"closed": True})
        self.assertEqual(self.send(token="b8" * 32), {"reset": True})
        self.assertEqual([line["answer"]["action"] for line in self.logged("/3/device/" + "b5" * 32)], ["no_answer"])

    def test_a_new_token_sooner_than_the_update_interval_on_one_connection_is_refused(self):
        process = subprocess.Popen(
            [sys.executable, STANDIN, "--verify-key", os.path.join(self.directory.name, "AuthKey.p8"), "--key-id",
             KEY_ID, "--team-id", TEAM_ID, "--bundle-id", BUNDLE, "--ca-out", self.ca + ".2",
             "--log", self.log + ".2", "--token-update-interval", "1200"], stdout=subprocess.PIPE, text=True)
        try:
            port = json.loads(process.stdout.readline())["production_port"]
            client = connect(port, self.ca + ".2")
            headers = [("apns-push-type", "alert"), ("apns-topic", BUNDLE)]
            first, second = provider_token(self.key, iat=int(time.time()) - 10), provider_token(self.key)
            path = f"/3/device/{TOKEN}"
            answers = [client.request(path, [("authorization", "bearer " + jwt)] + headers, b"{}")
                       for jwt in (first, first, second)]
            client.close()
            self.assertEqual([self.reason(answer) for answer in answers],
                             [(200, None), (200, None), (429, "TooManyProviderTokenUpdates")])
        finally:
            process.terminate()
            process.wait(10)
            process.stdout.close()

    def test_an_outage_refuses_valid_tokens_for_its_seconds_from_the_first_request_then_answers_them(self):
        process = subprocess.Popen(
            [sys.executable, STANDIN, "--verify-key", os.path.join(self.directory.name, "AuthKey.p8"), "--key-id",
             KEY_ID, "--team-id", TEAM_ID, "--bundle-id", BUNDLE, "--ca-out", self.ca + ".3",
             "--log", self.log + ".3", "--refuse-tokens-for", "1.5"], stdout=subprocess.PIPE, text=True)
        try:
            time.sleep(1.0)  # the outage starts at the first request, not at the start
            port = json.loads(process.stdout.readline())["production_port"]
            client = connect(port, self.ca + ".3")
            headers = [("authorization", "bearer " + provider_token(self.key)), ("apns-push-type", "alert"),
                       ("apns-topic", BUNDLE)]
            path = f"/3/device/{TOKEN}"
            answers = [client.request(path, headers, b"{}")]
            answers.append(client.request(path, [("authorization", "bearer x.y.z")] + headers[1:], b"{}"))
            answers.append(client.request(path, headers, b"{}"))
            time.sleep(1.6)
            answers.append(client.request(path, headers, b"{}"))
            client.close()
            self.assertEqual([self.reason(answer) for answer in answers],
                             [(403, "InvalidProviderToken"), (403, "InvalidProviderToken"),
                              (403, "InvalidProviderToken"), (200, None)])
        finally:
            process.terminate()
            process.wait(10)
            process.stdout.close()

    def test_control_commands_open_fault_windows_and_goaway_every_n_requests(self):
        process = subprocess.Popen(
            [sys.executable, STANDIN, "--verify-key", os.path.join(self.directory.name, "AuthKey.p8"), "--key-id",
             KEY_ID, "--team-id", TEAM_ID, "--bundle-id", BUNDLE, "--ca-out", self.ca + ".4",
             "--log", self.log + ".4", "--control"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

        def command(line):
            process.stdin.write(line + "\n")
            process.stdin.flush()
            return process.stdout.readline().strip()

        try:
            port = json.loads(process.stdout.readline())["production_port"]
            headers = [("authorization", "bearer " + provider_token(self.key)), ("apns-push-type", "alert"),
                       ("apns-topic", BUNDLE)]
            path = f"/3/device/{TOKEN}"

            def send(timeout=5.0):
                client = connect(port, self.ca + ".4")
                try:
                    return client.request(path, headers, b"{}", timeout=timeout)
                finally:
                    client.close()

            self.assertTrue(command("nonsense 3").startswith("error: "))
            self.assertTrue(command("unavailable -1").startswith("error: "))
            self.assertEqual(command("unavailable 30"), "ok")
            self.assertEqual(self.reason(send()), (503, "ServiceUnavailable"))
            self.assertEqual(self.reason(self.send_to(port, jwt="x.y.z")), (403, "InvalidProviderToken"))
            self.assertEqual(command("unavailable 30 500"), "ok")
            self.assertEqual(self.reason(send()), (500, "ServiceUnavailable"))
            self.assertEqual(command("clear"), "ok")
            self.assertEqual(self.reason(send()), (200, None))
            self.assertEqual(command("refuse-credentials 30"), "ok")
            self.assertEqual(self.reason(send()), (403, "InvalidProviderToken"))
            self.assertEqual(command("refuse-credentials 0"), "ok")
            self.assertEqual(command("silent 0.5"), "ok")
            self.assertEqual(send(timeout=0.3), {"timeout": True})
            time.sleep(0.5)
            self.assertEqual(self.reason(send()), (200, None))

            self.assertEqual(command("goaway-every 2"), "ok")
            client = connect(port, self.ca + ".4")
            first, second = client.request(path, headers, b"{}"), client.request(path, headers, b"{}")
            try:
                third = client.request(path, headers, b"{}")
            except h2.exceptions.ProtocolError:
                third = {"refused by the client's h2": True}
            client.close()
            self.assertEqual((self.reason(first), self.reason(second)), ((200, None), (200, None)))
            self.assertNotIn("status", third, "the request after the GOAWAY is not answered")
            self.assertEqual(self.reason(send()), (200, None), "a new connection is answered")
            with open(self.log + ".4") as file:
                answers = [(line["connection"], line["answer"]["status"]) for line in map(json.loads, file)]
            goaway_connection = answers[-2][0]
            self.assertEqual([status for number, status in answers if number == goaway_connection], [200, 200],
                             "the connection that sent GOAWAY logged its two requests only")
        finally:
            process.stdin.close()
            process.terminate()
            process.wait(10)
            process.stdout.close()

    def send_to(self, port, jwt):
        client = connect(port, self.ca + ".4")
        try:
            return client.request(f"/3/device/{TOKEN}", [("authorization", "bearer " + jwt),
                                                         ("apns-push-type", "alert"), ("apns-topic", BUNDLE)], b"{}")
        finally:
            client.close()

    def test_a_client_without_h2_is_refused(self):
        context = ssl.create_default_context(cafile=self.ca)
        context.set_alpn_protocols(["http/1.1"])
        with socket.create_connection(("127.0.0.1", self.ports["production_port"]), timeout=5) as raw:
            with self.assertRaises((ssl.SSLError, ConnectionError)):
                with context.wrap_socket(raw, server_hostname="localhost") as tls:
                    tls.sendall(b"POST /3/device/00 HTTP/1.1\r\nhost: localhost\r\n\r\n")
                    if not tls.recv(100):
                        raise ConnectionResetError("closed")


if __name__ == "__main__":
    unittest.main()
