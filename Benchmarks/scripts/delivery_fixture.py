#!/usr/bin/env python3
"""The key material of the delivery benchmark (delivery-benchmark runs it), made new for each run.

  delivery_fixture.py --out DIR --port PORT

Writes into DIR: a CA (ca.pem) and nginx's certificate for 127.0.0.1 and localhost signed by it (server.pem,
server.key); the APNs signing key (apns.p8); a Firebase service account whose token_uri is nginx's token endpoint
on PORT (service-account.json); a VAPID key (vapid.pem); and fixture.json with what the benchmark's other clients
need: the APNs key id and team id, a browser subscription's keys (p256dh, auth), and the headers and bodies h2load
sends (an APNs provider token, a VAPID Authorization header for https://127.0.0.1:PORT, and webpush-body.bin: the
plaintext of DIR/webpush-value.json encrypted as RFC 8291 says, when that file exists).
"""
import argparse
import base64
import datetime
import ipaddress
import json
import os
import time

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.x509.oid import NameOID
from pywebpush import WebPusher
from py_vapid import Vapid02

KEY_ID, TEAM_ID, FCM_PROJECT = "BENCHKEY01", "BENCHTEAM1", "bench-project"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def pkcs8(key):
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def point(key):
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def es256_jwt(key, header, claims):
    """A compact ES256 JWT: the signature as the 64-byte r||s."""
    signing_input = b64url(json.dumps(header, separators=(",", ":")).encode()) + "." + \
        b64url(json.dumps(claims, separators=(",", ":")).encode())
    r, s = decode_dss_signature(key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
    return signing_input + "." + b64url(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


def certificates(out):
    """A CA made now and a server certificate for 127.0.0.1 and localhost signed by it."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "delivery-benchmark CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
          .not_valid_after(now + datetime.timedelta(days=2))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                       crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    server = (x509.CertificateBuilder()
              .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
              .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
              .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=2))
              .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                                          x509.DNSName("localhost")]), critical=False)
              .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
              .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
              .sign(ca_key, hashes.SHA256()))
    with open(os.path.join(out, "ca.pem"), "wb") as file:
        file.write(ca.public_bytes(serialization.Encoding.PEM))
    with open(os.path.join(out, "server.pem"), "wb") as file:
        file.write(server.public_bytes(serialization.Encoding.PEM))
    with open(os.path.join(out, "server.key"), "wb") as file:
        file.write(pkcs8(key))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--port", type=int, required=True, help="nginx's port (the token endpoint, VAPID's audience)")
    options = parser.parse_args()
    out, origin = options.out, f"https://127.0.0.1:{options.port}"
    certificates(out)
    apns_key, vapid_key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    with open(os.path.join(out, "apns.p8"), "wb") as file:
        file.write(pkcs8(apns_key))
    with open(os.path.join(out, "vapid.pem"), "wb") as file:
        file.write(pkcs8(vapid_key))
    fcm_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    with open(os.path.join(out, "service-account.json"), "w") as file:
        json.dump({"type": "service_account", "project_id": FCM_PROJECT, "private_key_id": "bench0123456789abcdef",
                   "private_key": pkcs8(fcm_key).decode(),
                   "client_email": f"pushgate@{FCM_PROJECT}.iam.gserviceaccount.com",
                   "token_uri": f"{origin}/token"}, file)
    browser_key, auth = ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
    subscription = {"endpoint": f"{origin}/push/h2load", "keys": {"p256dh": b64url(point(browser_key)),
                                                                    "auth": b64url(auth)}}
    vapid = Vapid02.from_pem(pkcs8(vapid_key))
    vapid_header = vapid.sign({"aud": origin, "exp": int(time.time()) + 12 * 3600, "sub": "mailto:bench@example.com"})
    fixture = {
        "apns_key_id": KEY_ID, "apns_team_id": TEAM_ID, "fcm_project": FCM_PROJECT,
        "p256dh": subscription["keys"]["p256dh"], "auth": subscription["keys"]["auth"],
        "apns_authorization": "bearer " + es256_jwt(apns_key, {"alg": "ES256", "kid": KEY_ID},
                                                    {"iss": TEAM_ID, "iat": int(time.time())}),
        "vapid_authorization": vapid_header["Authorization"],
    }
    plaintext = os.path.join(out, "webpush-value.json")
    if os.path.exists(plaintext):
        with open(plaintext, "rb") as file:
            body = WebPusher(subscription).encode(file.read(), content_encoding="aes128gcm")["body"]
        with open(os.path.join(out, "webpush-body.bin"), "wb") as file:
            file.write(body)
    with open(os.path.join(out, "fixture.json"), "w") as file:
        json.dump(fixture, file)


if __name__ == "__main__":
    main()
