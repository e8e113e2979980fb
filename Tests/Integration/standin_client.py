"""What the stand-ins' tests share: an HTTP/2 client of h2's own that trusts a stand-in's CA, base64url, and ES256
tokens signed by cryptography with the signature as r||s (JWS), as Apple and RFC 8292 want them."""
import base64
import json
import socket
import ssl
import time

import h2.config
import h2.connection
import h2.events
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def es256_token(key, header, claims):
    """A compact JWS of the JSON `header` and `claims`, signed by the P-256 `key`, the signature as r||s."""
    signing_input = f"{b64url(json.dumps(header).encode())}.{b64url(json.dumps(claims).encode())}"
    r, s = decode_dss_signature(key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
    return f"{signing_input}.{b64url(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"


class Client:
    """One HTTP/2 connection over TLS to a stand-in, trusting its CA; one request at a time. `authority` is the
    :authority of every request (default HOST:PORT), `server_hostname` the name the certificate is checked for."""

    def __init__(self, host, port, ca, authority=None, server_hostname="localhost"):
        context = ssl.create_default_context(cafile=ca)
        context.set_alpn_protocols(["h2"])
        self.authority = authority or (f"[{host}]" if ":" in host else host) + f":{port}"
        self.socket = context.wrap_socket(socket.create_connection((host, port), timeout=5),
                                          server_hostname=server_hostname)
        self.h2 = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
        self.h2.initiate_connection()
        self.socket.sendall(self.h2.data_to_send())

    def close(self):
        self.socket.close()

    def request(self, path, headers, body=b"", method="POST", timeout=5.0):
        """The answer: {"status", "headers", "body"}, or {"timeout": True}, {"closed": True}, {"reset": True}, or
        {"goaway": the GOAWAY's debug data as JSON, "last_stream_id", "stream": this request's stream}."""
        stream = self.h2.get_next_available_stream_id()
        self.h2.send_headers(stream, [(":method", method), (":scheme", "https"), (":authority", self.authority),
                                      (":path", path)] + list(headers), end_stream=not body)
        if body:
            self.h2.send_data(stream, body, end_stream=True)
        self.socket.sendall(self.h2.data_to_send())
        answer = {"headers": {}, "body": b""}
        deadline = time.monotonic() + timeout
        while True:
            self.socket.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                data = self.socket.recv(65536)
            except socket.timeout:
                return {"timeout": True}
            except (ConnectionError, ssl.SSLError):
                data = b""
            if not data:
                return {"closed": True}
            for event in self.h2.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived) and event.stream_id == stream:
                    answer["headers"] = dict(event.headers)
                    answer["status"] = int(answer["headers"][":status"])
                elif isinstance(event, h2.events.DataReceived) and event.stream_id == stream:
                    answer["body"] += event.data
                    self.h2.acknowledge_received_data(event.flow_controlled_length, stream)
                elif isinstance(event, h2.events.StreamEnded) and event.stream_id == stream:
                    return answer
                elif isinstance(event, h2.events.StreamReset) and event.stream_id == stream:
                    return {"reset": True}
                elif isinstance(event, h2.events.ConnectionTerminated):
                    return {"goaway": json.loads(event.additional_data or b"{}"),
                            "last_stream_id": event.last_stream_id, "stream": stream}
            self.socket.sendall(self.h2.data_to_send())
