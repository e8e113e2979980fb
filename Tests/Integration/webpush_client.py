"""What the web push tests share: subscriptions made at test time, a VAPID token and an `aes128gcm` body made and
read with libraries nobody here wrote (cryptography for ES256, PyPI http_ece for RFC 8188/8291), for the stand-in
push service (standins/webpush_standin.py); its HTTP/2 client is standin_client.Client."""
import base64
import json
import os
import time

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from standin_client import b64url, es256_token

HERE = os.path.dirname(os.path.abspath(__file__))
STANDIN = os.path.join(HERE, "standins", "webpush_standin.py")


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def point(public_key):
    """The uncompressed point of a P-256 public key (65 bytes)."""
    return public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


class Subscription:
    """A browser's push subscription: a P-256 key pair and an auth secret, made now."""

    def __init__(self, endpoint, vapid_key=None):
        self.endpoint = endpoint
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.vapid_key = vapid_key

    def json(self):
        """As `PushSubscription.toJSON()` gives it."""
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64url(point(self.private_key.public_key())), "auth": b64url(self.auth)}}

    def standin_entry(self):
        """What the stand-in's --subscriptions file holds for it."""
        entry = {"private_key": b64url(self.private_key.private_numbers().private_value.to_bytes(32, "big")),
                 "auth": b64url(self.auth)}
        if self.vapid_key is not None:
            entry["vapid_key"] = self.vapid_key
        return entry

    def encrypt(self, plaintext):
        """An `aes128gcm` body for this subscription, made by http_ece."""
        return http_ece.encrypt(plaintext, salt=os.urandom(16), private_key=ec.generate_private_key(ec.SECP256R1()),
                                dh=point(self.private_key.public_key()), auth_secret=self.auth,
                                version="aes128gcm", rs=4096)

    def decrypt(self, body):
        """The plaintext of a body sent to this subscription, read by http_ece."""
        return http_ece.decrypt(body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm")


def vapid_token(key, audience, subject="mailto:ops@example.com", expires_in=12 * 3600, alg="ES256"):
    """An RFC 8292 token signed by `key` (cryptography), the signature as r||s."""
    return es256_token(key, {"typ": "JWT", "alg": alg},
                       {"aud": audience, "exp": int(time.time()) + expires_in, "sub": subject})


def vapid_header(key, audience, **options):
    return f"vapid t={vapid_token(key, audience, **options)}, k={b64url(point(key.public_key()))}"


def verify_vapid(authorization):
    """The claims of an `Authorization: vapid t=..., k=...` header whose ES256 signature cryptography verifies
    against `k`; raises ValueError otherwise."""
    scheme, _, rest = authorization.partition(" ")
    if scheme != "vapid":
        raise ValueError("not a vapid authorization")
    fields = dict(part.strip().split("=", 1) for part in rest.split(","))
    token, key = fields["t"], ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(fields["k"]))
    header, claims, signature = token.split(".")
    raw = unb64url(signature)
    if len(raw) != 64:
        raise ValueError("not a 64-byte r||s signature")
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ValueError("the signature does not verify")
    return json.loads(unb64url(header)), json.loads(unb64url(claims)), fields["k"]
