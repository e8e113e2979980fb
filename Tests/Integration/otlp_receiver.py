"""A small OTLP/HTTP trace receiver for the tests: `POST /v1/traces` with an `ExportTraceServiceRequest` (protobuf,
or JSON), decoded with opentelemetry-proto, every span kept as a dict:

  {"trace_id", "span_id", "parent_span_id" (hex, "" for none), "name", "kind" ("CONSUMER", "CLIENT", ...),
   "status" ("UNSET", "OK", "ERROR"), "attributes" ({key: value}, arrays as lists), "service" (service.name)}

`OTLPReceiver(mode="answer")` answers 200 with an empty ExportTraceServiceResponse (`refuse_first=N`: 503 with
`Retry-After: 1` to the first N requests; `reject=N`: a partial success rejecting N spans in every answer; a gzip
body is inflated; each request's headers are kept in `headers`); `mode="silent"` accepts the
connection and the request but never answers (a collector that hangs); `mode="discard"` answers 200 without
decoding, counting spans only by request (the collector stand-in of `make bench-tracing`). Run it standalone to
watch a process's spans, or with --discard as a fast collector:

  python3 otlp_receiver.py [--port 4318] [--discard]
"""
import argparse
import gzip
import http.server
import json
import socketserver
import threading
import time

from google.protobuf.json_format import Parse
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2
from opentelemetry.proto.trace.v1 import trace_pb2

KINDS = {value: name.replace("SPAN_KIND_", "") for name, value in trace_pb2.Span.SpanKind.items()}
STATUS = {value: name.replace("STATUS_CODE_", "") for name, value in trace_pb2.Status.StatusCode.items()}


def attribute_value(value):
    """An OTLP AnyValue as a Python value."""
    which = value.WhichOneof("value")
    if which == "array_value":
        return [attribute_value(item) for item in value.array_value.values]
    if which is None:
        return None
    return getattr(value, which)


def spans_of(request):
    """The spans of an ExportTraceServiceRequest, as dicts."""
    spans = []
    for resource_spans in request.resource_spans:
        resource = {item.key: attribute_value(item.value) for item in resource_spans.resource.attributes}
        for scope_spans in resource_spans.scope_spans:
            for span in scope_spans.spans:
                spans.append({
                    "trace_id": span.trace_id.hex(), "span_id": span.span_id.hex(),
                    "parent_span_id": span.parent_span_id.hex(), "name": span.name, "kind": KINDS[span.kind],
                    "status": STATUS[span.status.code], "status_message": span.status.message,
                    "attributes": {item.key: attribute_value(item.value) for item in span.attributes},
                    "service": resource.get("service.name"), "resource": resource, "flags": span.flags,
                })
    return spans


class OTLPReceiver:
    """An OTLP/HTTP receiver on 127.0.0.1:`port` (0: a free one) in a thread of its own: `spans` grows as requests
    arrive; `requests` counts them; `endpoint` is its base URL (for OTEL_EXPORTER_OTLP_ENDPOINT)."""

    def __init__(self, port=0, mode="answer", refuse_first=0, reject=0):
        self.spans, self.requests, self.content_types, self.mode = [], 0, set(), mode
        self.headers, self.refuse_first, self.reject = [], refuse_first, reject
        self.lock = threading.Lock()
        self.release = threading.Event()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    receiver.requests += 1
                    receiver.content_types.add(self.headers.get("Content-Type"))
                    receiver.headers.append({name.lower(): value for name, value in self.headers.items()})
                    refuse = receiver.requests <= receiver.refuse_first
                if refuse:
                    self.send_response(503)
                    self.send_header("Retry-After", "1")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if self.headers.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                if receiver.mode == "silent":
                    receiver.release.wait()  # never answers while the test runs
                    return
                if receiver.mode == "discard":
                    self.send_response(200)
                    self.send_header("Content-Type", "application/x-protobuf")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if self.path != "/v1/traces":
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                request = trace_service_pb2.ExportTraceServiceRequest()
                if "json" in (self.headers.get("Content-Type") or ""):
                    Parse(body.decode(), request)
                else:
                    request.ParseFromString(body)
                with receiver.lock:
                    receiver.spans.extend(spans_of(request))
                response = trace_service_pb2.ExportTraceServiceResponse()
                if receiver.reject:
                    response.partial_success.rejected_spans = receiver.reject
                    response.partial_success.error_message = "over quota"
                answer = response.SerializeToString()
                self.send_response(200)
                self.send_header("Content-Type", "application/x-protobuf")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *arguments):
                pass

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True

        self.server = Server(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def snapshot(self):
        """The spans received so far."""
        with self.lock:
            return list(self.spans)

    def wait_for(self, done, timeout=30):
        """Waits up to `timeout` s for `done(spans)`; returns the spans then."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            spans = self.snapshot()
            if done(spans):
                return spans
            time.sleep(0.2)
        return self.snapshot()

    def stop(self):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="print the spans an OTLP/HTTP exporter sends")
    parser.add_argument("--port", type=int, default=4318)
    parser.add_argument("--discard", action="store_true", help="answer 200 at once, decode and print nothing")
    arguments = parser.parse_args()
    receiver = OTLPReceiver(arguments.port, mode="discard" if arguments.discard else "answer")
    print(f"listening on {receiver.endpoint}/v1/traces", flush=True)
    seen = 0
    while True:
        time.sleep(0.5)
        if arguments.discard:
            continue
        spans = receiver.snapshot()
        for span in spans[seen:]:
            print(json.dumps(span), flush=True)
        seen = len(spans)
