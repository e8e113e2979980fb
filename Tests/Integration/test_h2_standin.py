"""Self-test of what the three stand-ins share (standins/h2_standin.py): each one, stopped by SIGTERM while a client
still holds an HTTP/2 connection, exits 0 without a word on stderr, and its certificate names the addresses it
should: `python3 -m unittest discover -s Tests/Integration -p 'test_*.py'`."""
import ipaddress
import json
import os
import select
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import unittest

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

HERE = os.path.dirname(os.path.abspath(__file__))
STANDINS = os.path.join(HERE, "standins")
sys.path.insert(0, STANDINS)
import fcm_standin  # noqa: E402
import h2_standin  # noqa: E402

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"  # and an empty SETTINGS


class SharedStandInTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        directory = cls.directory.name
        key = ec.generate_private_key(ec.SECP256R1())
        with open(os.path.join(directory, "key.pem"), "wb") as file:
            file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                         serialization.NoEncryption()))
        fcm_standin.make_service_account(os.path.join(directory, "sa.json"), "demo", "https://unused.invalid/token")
        with open(os.path.join(directory, "subscriptions.json"), "w") as file:
            json.dump({}, file)
        cls.commands = {
            "apns": ["apns_standin.py", "--verify-key", os.path.join(directory, "key.pem"), "--key-id", "KID",
                     "--team-id", "TEAM", "--bundle-id", "com.example.app"],
            "fcm": ["fcm_standin.py", "--service-account", os.path.join(directory, "sa.json")],
            "webpush": ["webpush_standin.py", "--subscriptions", os.path.join(directory, "subscriptions.json")],
        }

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def start(self, name):
        script, *arguments = self.commands[name]
        ca = os.path.join(self.directory.name, f"{name}-ca.pem")
        command = [sys.executable, os.path.join(STANDINS, script), *arguments, "--ca-out", ca,
                   "--log", os.path.join(self.directory.name, f"{name}.jsonl")]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if not select.select([process.stdout], [], [], 30)[0]:
            process.kill()
            raise RuntimeError(f"the {name} stand-in did not start")
        started = json.loads(process.stdout.readline())
        return process, started.get("port") or started["production_port"], ca

    def test_stopped_with_an_open_connection_it_exits_quietly(self):
        for name in self.commands:
            with self.subTest(name):
                process, port, ca = self.start(name)
                context = ssl.create_default_context(cafile=ca)
                context.set_alpn_protocols(["h2"])
                with context.wrap_socket(socket.create_connection(("127.0.0.1", port)),
                                         server_hostname="localhost") as connection:
                    self.assertEqual(connection.selected_alpn_protocol(), "h2")
                    connection.sendall(PREFACE)
                    connection.settimeout(10)
                    self.assertTrue(connection.recv(65536), "no SETTINGS from the stand-in")
                    time.sleep(0.1)
                    process.send_signal(signal.SIGTERM)
                    _, errors = process.communicate(timeout=10)
                self.assertEqual(process.returncode, 0)
                self.assertEqual(errors, "")

    def test_the_certificate_names_localhost_and_the_addresses_in_order(self):
        with tempfile.TemporaryDirectory() as directory:
            ca_path, certificate_path, _ = h2_standin.make_certificates(directory, "test CA", ["127.0.0.2", "::1"])
            with open(certificate_path, "rb") as file:
                certificate = x509.load_pem_x509_certificate(file.read())
            with open(ca_path, "rb") as file:
                ca = x509.load_pem_x509_certificate(file.read())
        names = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        self.assertEqual(list(names), [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.2")),
                                       x509.IPAddress(ipaddress.ip_address("::1"))])
        self.assertEqual(certificate.issuer, ca.subject)
        self.assertEqual(ca.subject.rfc4514_string(), "CN=test CA")


class FaultsTests(unittest.TestCase):
    """The --control commands (h2_standin.Faults), on a clock the test moves."""

    def setUp(self):
        self.now = 100.0
        self.faults = h2_standin.Faults(clock=lambda: self.now)

    def test_a_window_opens_at_its_command_and_closes_seconds_later(self):
        self.assertIsNone(self.faults.window_answer())
        self.assertEqual(self.faults.apply("unavailable 30\n"), "ok")
        self.assertEqual(self.faults.window_answer()["status"], 503)
        self.now += 29.9
        self.assertEqual(self.faults.window_answer()["status"], 503)
        self.now += 0.1
        self.assertIsNone(self.faults.window_answer())
        self.assertEqual(self.faults.apply("unavailable 5 502"), "ok")
        self.assertEqual(self.faults.window_answer()["status"], 502)
        self.assertEqual(self.faults.apply("unavailable 5"), "ok")
        self.assertEqual(self.faults.window_answer()["status"], 503, "a window without a status is 503 again")

    def test_silent_wins_over_unavailable_and_clear_ends_every_window(self):
        self.faults.apply("unavailable 10")
        self.faults.apply("silent 10")
        self.faults.apply("refuse-credentials 10")
        self.assertEqual(self.faults.window_answer(), {"action": "no_answer"})
        self.assertTrue(self.faults.active("refuse-credentials"))
        self.faults.apply("goaway-every 3")
        self.assertEqual(self.faults.apply("clear"), "ok")
        self.assertIsNone(self.faults.window_answer())
        self.assertFalse(self.faults.active("refuse-credentials"))
        self.assertFalse(any(self.faults.goaway_after(n) for n in range(1, 10)))

    def test_goaway_after_every_nth_request(self):
        self.assertEqual(self.faults.apply("goaway-every 1000"), "ok")
        self.assertEqual([n for n in range(1, 3001) if self.faults.goaway_after(n)], [1000, 2000, 3000])

    def test_a_bad_command_is_an_error_and_changes_nothing(self):
        for line in ("", "unavailable", "unavailable x", "unavailable -1", "silent 1 2", "goaway-every -1",
                     "goaway-every 1.5", "clear now", "refuse 3"):
            with self.subTest(line):
                self.assertTrue(self.faults.apply(line).startswith("error: "))
        self.assertIsNone(self.faults.window_answer())
        self.assertEqual(self.faults.goaway_every, 0)


if __name__ == "__main__":
    unittest.main()
