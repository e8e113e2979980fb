"""Self-test of the stand-in push service (standins/webpush_standin.py), with bodies made by PyPI http_ece and tokens
signed by cryptography, over an HTTP/2 client of h2's own, no broker:
`python3 -m unittest discover -s Tests/Integration -p 'test_*.py'`."""
import json
import os
import select
import subprocess
import sys
import tempfile
import unittest

from cryptography.hazmat.primitives.asymmetric import ec

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from standin_client import Client  # noqa: E402
from webpush_client import STANDIN, Subscription, b64url, point, vapid_header  # noqa: E402


class WebPushStandInTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        cls.vapid = ec.generate_private_key(ec.SECP256R1())
        cls.subscriptions = {path: Subscription("https://127.0.0.1/" + path)
                             for path in ["/s/ok", "/s/gone", "/s/busy", "/s/html", "/s/reset", "/s/silent"]}
        cls.subscriptions["/s/restricted"] = Subscription("", vapid_key=b64url(point(cls.vapid.public_key())))
        subscriptions_path = os.path.join(cls.directory.name, "subscriptions.json")
        with open(subscriptions_path, "w") as file:
            json.dump({path: sub.standin_entry() for path, sub in cls.subscriptions.items()}, file)
        script = {"answers": {
            "/s/gone": [{"status": 410}],
            "/s/busy": [{"status": 429, "retry_after": "7"}, {"status": 503, "retry_after": "2"}],
            "/s/html": [{"status": 502, "html": True}],
            "/s/reset": [{"action": "reset"}],
            "/s/silent": [{"action": "no_answer"}],
        }}
        script_path = os.path.join(cls.directory.name, "script.json")
        with open(script_path, "w") as file:
            json.dump(script, file)
        cls.ca = os.path.join(cls.directory.name, "ca.pem")
        cls.log = os.path.join(cls.directory.name, "requests.jsonl")
        cls.process = subprocess.Popen(
            [sys.executable, STANDIN, "--subscriptions", subscriptions_path, "--script", script_path,
             "--ca-out", cls.ca, "--log", cls.log, "--listen", "127.0.0.1", "--listen", "[::1]:0",
             "--listen", "127.0.0.2"], stdout=subprocess.PIPE, text=True)
        if not select.select([cls.process.stdout], [], [], 30)[0]:
            cls.process.kill()
            raise RuntimeError("the stand-in did not start")
        cls.started = json.loads(cls.process.stdout.readline())
        cls.port = cls.started["port"]
        cls.client = Client("127.0.0.1", cls.port, cls.ca)

    @classmethod
    def tearDownClass(cls):
        cls.client.close()
        cls.process.terminate()
        cls.process.wait(10)
        cls.directory.cleanup()

    def origin(self):
        return f"https://127.0.0.1:{self.port}"

    def push(self, path, plaintext=b'{"web_push":8030}', headers=None, authorization=None, body=None, **options):
        subscription = self.subscriptions.get(path) or self.subscriptions["/s/ok"]
        fields = [("ttl", "60"), ("urgency", "high"), ("content-encoding", "aes128gcm"),
                  ("content-type", "application/octet-stream")] if headers is None else headers
        auth = authorization if authorization is not None else vapid_header(self.vapid, self.origin())
        if auth:
            fields = fields + [("authorization", auth)]
        return self.client.request(path, fields, subscription.encrypt(plaintext) if body is None else body, **options)

    def logged(self, predicate):
        with open(self.log) as file:
            return [line for line in map(json.loads, file) if predicate(line)]

    def test_listens_where_asked_and_names_every_listener(self):
        self.assertEqual([listener["host"] for listener in self.started["listeners"]],
                         ["127.0.0.1", "::1", "127.0.0.2"])
        for listener in self.started["listeners"][1:]:
            client = Client(listener["host"], listener["port"], self.ca)
            try:
                origin = "https://" + client.authority
                answer = client.request("/s/ok", [("ttl", "0"), ("content-encoding", "aes128gcm"),
                                                  ("authorization", vapid_header(self.vapid, origin))],
                                        self.subscriptions["/s/ok"].encrypt(b"x"))
                self.assertEqual(answer.get("status"), 201)
            finally:
                client.close()
        connections = {line["listener"] for line in self.logged(lambda line: line["event"] == "connection")}
        self.assertIn(f"[::1]:{self.started['listeners'][1]['port']}", connections)
        self.assertIn(f"127.0.0.2:{self.started['listeners'][2]['port']}", connections)

    def test_a_valid_push_is_created_decrypted_and_logged(self):
        answer = self.push("/s/ok", plaintext=b'{"notification":{"title":"Hi \xc3\xa9"}}')
        self.assertEqual(answer.get("status"), 201)
        self.assertTrue(answer["headers"]["location"].startswith(self.origin() + "/m/"))
        line = self.logged(lambda line: line.get("plaintext") == '{"notification":{"title":"Hi é"}}')[-1]
        self.assertEqual(line["vapid"]["aud"], self.origin())
        self.assertEqual(line["headers"]["ttl"], "60")
        self.assertEqual(line["answer"]["status"], 201)

    def test_a_restricted_subscription_takes_only_its_key(self):
        self.assertEqual(self.push("/s/restricted").get("status"), 201)
        other = ec.generate_private_key(ec.SECP256R1())
        answer = self.push("/s/restricted", authorization=vapid_header(other, self.origin()))
        self.assertEqual((answer.get("status"), json.loads(answer["body"])["reason"]), (403, "BadJwtToken"))

    def test_vapid_is_checked(self):
        other = ec.generate_private_key(ec.SECP256R1())
        good = vapid_header(self.vapid, self.origin())
        forged = good.split(", k=")[0] + ", k=" + b64url(point(other.public_key()))
        cases = [
            ("", 401), ("Bearer abc", 401), ("vapid t=abc", 401), (forged, 403),
            (vapid_header(self.vapid, "https://127.0.0.1"), 403),
            (vapid_header(self.vapid, self.origin(), expires_in=25 * 3600), 403),
            (vapid_header(self.vapid, self.origin(), expires_in=-10), 403),
            (vapid_header(self.vapid, self.origin(), subject="ops@example.com"), 403),
            (vapid_header(self.vapid, self.origin(), alg="ES384"), 403),
            (good.replace(", k=", ",k="), 201),
        ]
        for authorization, status in cases:
            with self.subTest(authorization=authorization[:40]):
                answer = self.push("/s/ok", authorization=authorization or "")
                self.assertEqual(answer.get("status"), status)

    def test_headers_and_body_are_checked(self):
        base = [("content-encoding", "aes128gcm")]
        cases = [
            ([("urgency", "high")] + base, None, 400, "MissingTTL"),
            ([("ttl", "-1")] + base, None, 400, "BadTTL"),
            ([("ttl", "1"), ("urgency", "urgent")] + base, None, 400, "BadUrgency"),
            ([("ttl", "1"), ("topic", "a" * 33)] + base, None, 400, "BadTopic"),
            ([("ttl", "1"), ("topic", "a.b")] + base, None, 400, "BadTopic"),
            ([("ttl", "1"), ("content-encoding", "aesgcm")], None, 400, "BadContentEncoding"),
            ([("ttl", "1")] + base, b"\x00" * 4097, 413, "PayloadTooLarge"),
            ([("ttl", "1")] + base, b"\x00" * 120, 400, "DecryptionFailed"),
        ]
        for headers, body, status, reason in cases:
            with self.subTest(reason=reason, headers=headers):
                answer = self.push("/s/ok", headers=headers, body=body)
                self.assertEqual((answer.get("status"), json.loads(answer["body"])["reason"]), (status, reason))
        tampered = bytearray(self.subscriptions["/s/ok"].encrypt(b"hello"))
        tampered[-1] ^= 1
        self.assertEqual(self.push("/s/ok", body=bytes(tampered)).get("status"), 400)
        wrong_subscriber = Subscription("x").encrypt(b"hello")
        self.assertEqual(self.push("/s/ok", body=wrong_subscriber).get("status"), 400)

    def test_an_unknown_path_is_not_found_and_only_post_is_taken(self):
        self.assertEqual(self.push("/s/unknown").get("status"), 404)
        self.assertEqual(self.push("/s/ok", method="PUT").get("status"), 405)

    def test_scripted_answers_come_in_order(self):
        self.assertEqual(self.push("/s/gone").get("status"), 410)
        first = self.push("/s/busy")
        self.assertEqual((first.get("status"), first["headers"].get("retry-after")), (429, "7"))
        second = self.push("/s/busy")
        self.assertEqual((second.get("status"), second["headers"].get("retry-after")), (503, "2"))
        self.assertEqual(self.push("/s/busy").get("status"), 201)
        html = self.push("/s/html")
        self.assertEqual(html.get("status"), 502)
        self.assertTrue(html["headers"]["content-type"].startswith("text/html"))
        self.assertIn(b"<html>", html["body"])
        self.assertEqual(self.push("/s/reset"), {"reset": True})
        self.assertEqual(self.push("/s/silent", timeout=0.5), {"timeout": True})
        self.__class__.client.close()
        self.__class__.client = Client("127.0.0.1", self.port, self.ca)

    def test_control_commands_refuse_the_key_and_open_fault_windows(self):
        process = subprocess.Popen(
            [sys.executable, STANDIN, "--subscriptions", os.path.join(self.directory.name, "subscriptions.json"),
             "--ca-out", self.ca + ".2", "--log", self.log + ".2", "--control"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

        def command(line):
            process.stdin.write(line + "\n")
            process.stdin.flush()
            return process.stdout.readline().strip()

        try:
            port = json.loads(process.stdout.readline())["port"]
            subscription = self.subscriptions["/s/ok"]
            origin = f"https://127.0.0.1:{port}"

            def push(timeout=5.0):
                client = Client("127.0.0.1", port, self.ca + ".2")
                fields = [("ttl", "60"), ("content-encoding", "aes128gcm"),
                          ("authorization", vapid_header(self.vapid, origin))]
                try:
                    return client.request("/s/ok", fields, subscription.encrypt(b"{}"), timeout=timeout)
                finally:
                    client.close()

            self.assertEqual(command("refuse-credentials 30"), "ok")
            refused = push()
            self.assertEqual((refused.get("status"), json.loads(refused["body"])["reason"]), (403, "Forbidden"))
            self.assertEqual(command("clear"), "ok")
            self.assertEqual(command("unavailable 30"), "ok")
            self.assertEqual(push().get("status"), 503)
            self.assertEqual(command("silent 30"), "ok")
            self.assertEqual(push(timeout=0.3), {"timeout": True})
            self.assertEqual(command("clear"), "ok")
            self.assertEqual(push().get("status"), 201)
        finally:
            process.stdin.close()
            process.terminate()
            process.wait(10)
            process.stdout.close()

    def test_the_log_never_lacks_a_request(self):
        before = len(self.logged(lambda line: line["event"] == "request"))
        self.push("/s/ok")
        self.push("/s/unknown")
        self.assertEqual(len(self.logged(lambda line: line["event"] == "request")), before + 2)


if __name__ == "__main__":
    unittest.main()
