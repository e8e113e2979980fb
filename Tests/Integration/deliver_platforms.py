"""The platforms of the deliver fault matrix (deliver_fault_matrix.py): for each, its stand-in and how it is
started, the options `pushgate deliver` gets, a device of the directory, the delivered topic and its records, and
what the stand-in's request log says: which (record number, device) pair each request was and whether it was
answered with success.

A record's value carries its number (`"n"`), which the stand-in's log shows (APNs, FCM: the body; web push: the
decrypted body), so that a request is tied to its pair without pushgate's help. Record N has `pushgate-id`
`dfm-N`.
"""
import hashlib
import json
import os
import sys

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

HERE = os.path.dirname(os.path.abspath(__file__))
STANDINS = os.path.join(HERE, "standins")
sys.path.insert(0, STANDINS)
from deliver_e2e import BUNDLE, KEY_ID, TEAM_ID, apns_headers, write_key  # noqa: E402
from deliver_fcm_e2e import PROJECT, fcm_token  # noqa: E402
from webpush_client import Subscription  # noqa: E402
import fcm_standin  # noqa: E402


def read_log(path):
    """The JSON lines of a stand-in's request log (a line still being written is left out)."""
    if not os.path.exists(path):
        return []
    lines = []
    with open(path) as file:
        for line in file:
            try:
                lines.append(json.loads(line))
            except ValueError:
                pass
    return lines


def record_number(text):
    """The `n` of a record's value as the stand-in logged it, or None."""
    try:
        number = json.loads(text).get("n")
    except (ValueError, AttributeError):
        return None
    return number if isinstance(number, int) else None


def base_headers(number, format_name, extra=()):
    return [("pushgate-source", f"push.unified:0:{number}".encode()), ("pushgate-id", f"dfm-{number}".encode()),
            ("pushgate-format", format_name.encode())] + list(extra)


class APNs:
    """The stand-in APNs; `credentials` is its 403 InvalidProviderToken."""

    topic = "push.apns"
    standin_script = os.path.join(STANDINS, "apns_standin.py")

    def __init__(self, directory):
        self.directory = directory
        self.key_path = write_key(directory)
        self.ca = os.path.join(directory, "ca.pem")
        self.request_log = os.path.join(directory, "requests.jsonl")
        self.devices_by_token = {}
        self.ports = None

    def prepare(self, names):
        """Called with every device name before the stand-in starts."""

    def standin_arguments(self):
        return ["--verify-key", self.key_path, "--key-id", KEY_ID, "--team-id", TEAM_ID, "--bundle-id", BUNDLE,
                "--ca-out", self.ca, "--log", self.request_log]

    def started(self, announced):
        self.ports = announced

    def deliver_arguments(self):
        return ["--platforms", "apns", "--apns-key-file", self.key_path, "--apns-key-id", KEY_ID,
                "--apns-team-id", TEAM_ID, "--apns-endpoint", f"https://127.0.0.1:{self.ports['production_port']}",
                "--apns-sandbox-endpoint", f"https://127.0.0.1:{self.ports['sandbox_port']}", "--ca-file", self.ca]

    def device(self, name, audience):
        token = hashlib.sha256(name.encode()).hexdigest()
        self.devices_by_token[token] = name
        return {"id": name, "audience": audience, "platform": "apns", "app": BUNDLE, "apns": {"token": token}}

    @staticmethod
    def value(number):
        return json.dumps({"aps": {"alert": {"title": "fault matrix", "body": str(number)}}, "n": number}).encode()

    @staticmethod
    def headers(number):
        return [(name, value.replace(f"e2e-{number}".encode(), f"dfm-{number}".encode()))
                for name, value in apns_headers(number)]

    def log(self):
        return read_log(self.request_log)

    def requests(self):
        """[((record number, device), answered with success)] of every device push the stand-in logged."""
        found = []
        for line in self.log():
            device = self.devices_by_token.get(line["path"].rsplit("/", 1)[-1])
            found.append(((record_number(line["body"]), device),
                          line["answer"]["status"] == 200 and line["answer"]["action"] == "answer"))
        return found

    @staticmethod
    def credentials_refused(lines):
        return any(line["answer"]["status"] == 403 for line in lines)


class FCM:
    """The stand-in FCM and token endpoint; `credentials` revokes the access tokens and refuses grants."""

    topic = "push.fcm"
    standin_script = os.path.join(STANDINS, "fcm_standin.py")

    def __init__(self, directory):
        self.account_path = os.path.join(directory, "service-account.json")
        fcm_standin.make_service_account(self.account_path, PROJECT, "https://127.0.0.1:9/token")
        self.ca = os.path.join(directory, "ca.pem")
        self.request_log = os.path.join(directory, "requests.jsonl")
        self.devices_by_token = {}
        self.port = None

    def prepare(self, names):
        pass

    def standin_arguments(self):
        return ["--service-account", self.account_path, "--ca-out", self.ca, "--log", self.request_log]

    def started(self, announced):
        """Writes the token_uri the stand-in printed into the service-account file deliver reads."""
        self.port = announced["port"]
        with open(self.account_path) as file:
            account = json.load(file)
        account["token_uri"] = announced["token_uri"]
        with open(self.account_path, "w") as file:
            json.dump(account, file)

    def deliver_arguments(self):
        return ["--platforms", "fcm", "--fcm-credentials", self.account_path,
                "--fcm-endpoint", f"https://127.0.0.1:{self.port}", "--ca-file", self.ca]

    def device(self, name, audience):
        token = fcm_token(name)
        self.devices_by_token[token] = name
        return {"id": name, "audience": audience, "platform": "fcm", "app": PROJECT, "fcm": {"token": token}}

    @staticmethod
    def value(number):
        return json.dumps({"message": {"data": {"n": str(number)}, "android": {"priority": "HIGH"}}}).encode()

    @staticmethod
    def headers(number):
        return base_headers(number, "fcm")

    def log(self):
        return [line for line in read_log(self.request_log) if line["kind"] == "send"]

    def requests(self):
        found = []
        for line in self.log():
            try:
                number = int(json.loads(line["body"])["message"]["data"]["n"])
            except (ValueError, KeyError, TypeError):
                number = None
            found.append(((number, self.devices_by_token.get(line["token"])),
                          line["answer"]["status"] == 200 and line["answer"]["action"] == "answer"))
        return found

    def credentials_refused(self, lines):
        return any(line["answer"]["status"] == 401 for line in lines)


class WebPush:
    """The stand-in push service, one subscription per device (made before it starts); `credentials` is its 403."""

    topic = "push.webpush"
    standin_script = os.path.join(STANDINS, "webpush_standin.py")
    SUBJECT = "mailto:ops@example.com"

    def __init__(self, directory):
        self.directory = directory
        self.key_path = os.path.join(directory, "vapid-site.pem")
        with open(self.key_path, "wb") as file:
            file.write(ec.generate_private_key(ec.SECP256R1()).private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
        self.ca = os.path.join(directory, "ca.pem")
        self.request_log = os.path.join(directory, "requests.jsonl")
        self.subscriptions = {}
        self.port = None

    def prepare(self, names):
        self.subscriptions = {name: Subscription("") for name in names}

    def standin_arguments(self):
        path = os.path.join(self.directory, "subscriptions.json")
        with open(path, "w") as file:
            json.dump({f"/wpush/{name}": subscription.standin_entry()
                       for name, subscription in self.subscriptions.items()}, file)
        return ["--subscriptions", path, "--ca-out", self.ca, "--log", self.request_log]

    def started(self, announced):
        self.port = announced["port"]
        for name, subscription in self.subscriptions.items():
            subscription.endpoint = f"https://127.0.0.1:{self.port}/wpush/{name}"

    def deliver_arguments(self):
        return ["--platforms", "webpush", "--vapid-key", f"site={self.key_path}", "--vapid-subject", self.SUBJECT,
                "--webpush-allow-host", "127.0.0.1", "--ca-file", self.ca]

    def device(self, name, audience):
        return {"id": name, "audience": audience, "platform": "webpush", "app": "site",
                "webpush": {"subscription": self.subscriptions[name].json()}}

    @staticmethod
    def value(number):
        return json.dumps({"web_push": 8030, "notification": {"title": "fault matrix", "navigate":
                                                              "https://example.com/"}, "n": number}).encode()

    @staticmethod
    def headers(number):
        return base_headers(number, "webpush", [("webpush-ttl", b"3600"), ("webpush-urgency", b"high")])

    def log(self):
        return [line for line in read_log(self.request_log) if line.get("event") == "request"]

    def requests(self):
        return [((record_number(line["plaintext"] or ""), line["path"].rsplit("/", 1)[-1]),
                 201 == line["answer"]["status"] and line["answer"]["action"] == "answer") for line in self.log()]

    @staticmethod
    def credentials_refused(lines):
        return any(line["answer"]["status"] == 403 for line in lines)


PLATFORMS = {"apns": APNs, "fcm": FCM, "webpush": WebPush}
