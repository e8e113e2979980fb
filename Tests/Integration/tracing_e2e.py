#!/usr/bin/env python3
"""Tracing end to end (SPEC 11): `pushgate run` and `pushgate deliver` on `pushgate broker`, with the stand-in
APNs, exporting OTLP/HTTP to a receiver in this process (otlp_receiver.py, opentelemetry-proto).

  tracing_e2e.py --pushgate .build/debug/pushgate [SCENARIO ...]

Scenarios (all by default):
  trace       inputs with a producer's `traceparent` (valid, dead letter, several formats, one unsampled) and one
              without, through run and deliver: one trace from the producer's span to the POST to APNs; each
              span's parent, kind, name, attributes and status; `traceparent` of every output, dead letter and
              receipt is pushgate's span, at the forwarded headers' place; trace_id/span_id in the JSON logs;
              no device token in any span
  ratio       OTEL_TRACES_SAMPLER=traceidratio at 0.5: exactly the inputs pushgate's rule samples export spans and
              write flags 01, whatever their parent's flag
  silent      a collector that accepts and never answers: every input is still translated, and SIGTERM still
              stops run and deliver within --shutdown-timeout
  down        no collector at all (connection refused): the same, and deliver counts the spans it dropped
  exporter    the exporter's settings and the collector's answers: gzip bodies, OTEL_EXPORTER_OTLP_HEADERS sent
              (never logged), a 503 retried after its Retry-After, OTEL_RESOURCE_ATTRIBUTES on the resource, spans
              a collector says it rejected logged
Exit status 0 when every scenario passes.
"""
import json
import os
import re
import signal
import subprocess
import sys
import time

from confluent_kafka import Consumer, TopicPartition

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import delivery_harness  # noqa: E402
from delivery_harness import DeliverRun, free_port  # noqa: E402
from deliver_platforms import read_log  # noqa: E402
from deliver_e2e import BUNDLE, KEY_ID, TEAM_ID, Run, device, token, write_key  # noqa: E402
from harness import QUICK, client_config  # noqa: E402
from otlp_receiver import OTLPReceiver  # noqa: E402

INPUT = "push.unified"
GROUP = "pushgate-trace"
OUTPUT_TOPICS = ["push.apns", "push.adobe.carousel", "push.fb.card", "push.android.expandable", "push.fcm",
                 "push.webpush", "push.dlq"]
TRACEPARENT = re.compile(r"^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$")
VALID = b'{"id":"trace-a","platform":{"android":false},"message":{"title":"Hi","body":"There"}}'
DEAD = b'{"message": {"body": "duplicate", "body": "keys"}}'
MULTI = b'{"id":"trace-c","targets":["apns","fcm"],"message":{"title":"Hi","body":"There"}}'
PLAIN = b'{"id":"trace-d","platform":{"android":false},"message":{"title":"Plain","body":"No parent"}}'
UNSAMPLED = b'{"id":"trace-e","platform":{"android":false},"message":{"title":"Hi","body":"Unsampled"}}'


def producer_span(number):
    """A producer's trace id and span id, their own for every `number`."""
    return f"{number:02x}" * 16, f"{number + 0x40:02x}" * 8


class TracedRun(Run):
    """deliver_e2e's world (broker, stand-in APNs, directory) with `pushgate run` beside `pushgate deliver`, both
    with `env`'s OTEL_* variables and JSON logs."""

    def start_traced_deliver(self, env, shutdown_timeout="10s"):
        return DeliverRun.start_deliver(
            self, ["--apns-key-file", self.key_path, "--apns-key-id", KEY_ID, "--apns-team-id", TEAM_ID,
                   "--apns-endpoint", f"https://127.0.0.1:{self.ports['production_port']}",
                   "--apns-sandbox-endpoint", f"https://127.0.0.1:{self.ports['sandbox_port']}",
                   "--ca-file", self.ca, "--request-timeout", "5s", "--apns-bundle-id", BUNDLE],
            "info", ["--log-format", "json", "--shutdown-timeout", shutdown_timeout], env=env)

    def start_run(self, env, shutdown_timeout="10s"):
        log_path = self.path("run.log")
        self.logs.append(log_path)
        with open(log_path, "w") as log:
            process = subprocess.Popen(
                [self.pushgate, "run", "--bootstrap-servers", self.address, "--group-id", GROUP, "--log-format",
                 "json", "--shutdown-timeout", shutdown_timeout] + QUICK,
                stdout=subprocess.DEVNULL, stderr=log, env=dict(os.environ, **env))
        self.delivers.append(process)  # stopped with the others
        return process

    def outputs(self, expect, timeout=60):
        """Every record of the output topics and the dead-letter topic, as dicts, waiting for `expect` of them."""
        consumer = Consumer(client_config(self.address, {"group.id": f"trace-read-{time.time()}",
                                                         "enable.auto.commit": False}))
        assignment = []
        for topic in OUTPUT_TOPICS:
            metadata = consumer.list_topics(topic, timeout=10)
            assignment += [TopicPartition(topic, p, 0) for p in metadata.topics[topic].partitions]
        consumer.assign(assignment)
        found, deadline = [], time.monotonic() + timeout
        while time.monotonic() < deadline and len(found) < expect:
            message = consumer.poll(0.2)
            if message is None or message.error():
                continue
            found.append({"topic": message.topic(), "key": message.key(), "headers": [
                (name, value.decode() if value is not None else None) for name, value in message.headers() or []]})
        consumer.close()
        return found


def header(record, name):
    return next((value for key, value in record["headers"] if key == name), None)


def stop_within(failures, process, bound, label):
    """SIGTERM to `process` (whose --shutdown-timeout is `bound`): it exits 0 by its own stop sequence, half a second
    or more before the timeout's last resort (checked), or is killed. The tracing exporter's last export, to a
    collector down or silent, must not hold it until then."""
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    try:
        status = process.wait(bound + 5)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        failures.check(False, f"{label}: still running {bound + 5} s after SIGTERM")
        return
    took = time.monotonic() - started
    failures.check(status == 0 and took < bound - 0.5, f"{label}: exits 0 within {bound} s of SIGTERM, before its "
                                                       f"last resort (status {status}, {took:.1f} s)")


def scenario_trace(pushgate, directory, key_path, failures):
    receiver = OTLPReceiver()
    run = TracedRun(pushgate, directory, key_path, "trace")
    try:
        run.put_devices([device("dev-a", "user-a"), device("dev-c", "user-c"), device("dev-e", "user-e")])
        env = {"OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint, "OTEL_BSP_SCHEDULE_DELAY": "200"}
        run_log = run.path("run.log")
        worker = run.start_run(env)
        run.start_traced_deliver(env)
        deliver_log = run.logs[-1]
        (trace_a, parent_a), (trace_b, parent_b), (trace_c, parent_c), (trace_e, parent_e) = (
            producer_span(n) for n in (1, 2, 3, 5))
        inputs = {
            "a": ("user-a", VALID, [("x-before", b"1"), ("traceparent", f"00-{trace_a}-{parent_a}-01".encode()),
                                     ("x-middle", b"2"), ("tracestate", b"vendor=a"), ("x-after", b"3")]),
            "b": ("user-b", DEAD, [("traceparent", f"00-{trace_b}-{parent_b}-01".encode())]),
            "c": ("user-c", MULTI, [("traceparent", f"00-{trace_c}-{parent_c}-01".encode())]),
            "d": ("user-d", PLAIN, [("x-only", b"1")]),
            "e": ("user-e", UNSAMPLED, [("traceparent", f"00-{trace_e}-{parent_e}-00".encode())]),
        }
        where = {label: run.produce(INPUT, key.encode(), value, headers)
                 for label, (key, value, headers) in inputs.items()}
        outputs = run.outputs(expect=6)
        failures.check(len(outputs) == 6, f"6 records written for the 5 inputs (got {len(outputs)})")
        # 4 sampled inputs (a, b, c, d) give 4 run spans; a, c, d give apns records to deliver (3 spans); a and c
        # devices give 2 POST spans; e is unsampled and exports nothing.
        receiver.wait_for(lambda spans: len([s for s in spans if s["name"] == "POST"]) >= 2
                                  and len([s for s in spans if s["service"] == "pushgate-deliver"]) >= 5
                                  and len([s for s in spans if s["service"] == "pushgate-run"]) >= 4, timeout=60)
        receipts = run.receipts(expect=4, timeout=30)
        time.sleep(1)
        spans = receiver.snapshot()
        run_spans = [s for s in spans if s["service"] == "pushgate-run"]
        record_spans = [s for s in spans if s["service"] == "pushgate-deliver" and s["kind"] == "CONSUMER"]
        post_spans = [s for s in spans if s["name"] == "POST"]
        failures.check(len(run_spans) == 4, f"run: 4 spans, one per sampled input (got {len(run_spans)})")
        failures.check(len(record_spans) == 3, f"deliver: 3 record spans (got {len(record_spans)})")
        failures.check(len(post_spans) == 2, f"deliver: 2 POST spans (got {len(post_spans)})")
        failures.check(not [s for s in spans if s["trace_id"] == trace_e], "the unsampled input exports no span")

        def run_span(label):
            partition, offset = where[label]
            found = [s for s in run_spans if s["attributes"].get("messaging.kafka.offset") == offset
                     and s["attributes"].get("messaging.destination.partition.id") == str(partition)]
            return found[0] if len(found) == 1 else None

        expected_formats = {"a": ["apns"], "b": [], "c": ["apns", "fcm"], "d": ["apns"]}
        for label in "abcd":
            span = run_span(label)
            if not failures.check(span is not None, f"run: the span of input {label}"):
                continue
            partition, offset = where[label]
            attributes = span["attributes"]
            failures.check(span["name"] == "process push.unified" and span["kind"] == "CONSUMER",
                           f"run {label}: kind consumer, named 'process push.unified' ({span['name']}, {span['kind']})")
            expected = {"messaging.system": "kafka", "messaging.operation.type": "process",
                        "messaging.destination.name": INPUT, "messaging.destination.partition.id": str(partition),
                        "messaging.kafka.offset": offset, "messaging.consumer.group.name": GROUP,
                        "messaging.kafka.message.key": inputs[label][0], "pushgate.formats": expected_formats[label]}
            if label == "b":
                expected["error.type"] = "invalid_json"
            failures.check(attributes == expected, f"run {label}: attributes {attributes} == {expected}")
            failures.check(span["status"] == ("ERROR" if label == "b" else "UNSET"),
                           f"run {label}: status {span['status']}")
            producer = {"a": (trace_a, parent_a), "b": (trace_b, parent_b), "c": (trace_c, parent_c)}.get(label)
            if producer:
                failures.check((span["trace_id"], span["parent_span_id"]) == producer,
                               f"run {label}: a child of the producer's span {producer} "
                               f"({span['trace_id']}, {span['parent_span_id']})")
            else:
                failures.check(span["parent_span_id"] == "", f"run {label}: without traceparent, a root span")
            own = f"00-{span['trace_id']}-{span['span_id']}-01"
            records = [r for r in outputs if r["key"] == inputs[label][0].encode()]
            failures.check(len(records) == max(1, len(expected_formats[label])),
                           f"run {label}: its records read back ({len(records)})")
            written = [header(r, "pushgate-format") for r in records if r["topic"] != "push.dlq"]
            failures.check(sorted(written) == sorted(expected_formats[label]),
                           f"run {label}: pushgate.formats are the formats written ({written})")
            for record in records:
                names = [name for name, _ in record["headers"]]
                failures.check(header(record, "traceparent") == own and names.count("traceparent") == 1,
                               f"run {label}: {record['topic']} carries the span's traceparent only "
                               f"({header(record, 'traceparent')} == {own})")
                forwarded = names[:names.index("pushgate-id")] if record["topic"] != "push.dlq" else \
                    names[:names.index("__connect.errors.topic")]
                want = {"a": ["x-before", "traceparent", "tracestate", "x-middle", "x-after"],
                        "b": ["traceparent"], "c": ["traceparent"], "d": ["x-only", "traceparent"]}[label]
                failures.check(forwarded == want, f"run {label}: {record['topic']} headers {forwarded} == {want}")
                if label == "a":
                    failures.check(header(record, "tracestate") == "vendor=a", "run a: tracestate forwarded")
        # The unsampled input: its own span id, flags 00, still propagated.
        e_records = [r for r in outputs if r["key"] == b"user-e"]
        e_parent = TRACEPARENT.match(header(e_records[0], "traceparent") or "") if e_records else None
        failures.check(e_parent is not None and e_parent.group(1) == trace_e and e_parent.group(2) != parent_e
                       and e_parent.group(3) == "00",
                       f"run e (unsampled): traceparent of its own span, flags 00 "
                       f"({header(e_records[0], 'traceparent') if e_records else None})")

        # deliver: a record span per apns record, a child of run's span; a POST span per request, its child.
        for label in "acd":
            parent = run_span(label)
            if parent is None:
                continue
            found = [s for s in record_spans if s["parent_span_id"] == parent["span_id"]]
            if not failures.check(len(found) == 1, f"deliver {label}: one record span, a child of run's span"):
                continue
            span = found[0]
            failures.check(span["trace_id"] == parent["trace_id"] and span["name"] == "process push.apns"
                           and span["kind"] == "CONSUMER", f"deliver {label}: 'process push.apns', consumer, same trace")
            attributes = span["attributes"]
            failures.check(attributes.get("messaging.system") == "kafka"
                           and attributes.get("messaging.destination.name") == "push.apns"
                           and attributes.get("messaging.consumer.group.name") == "pushgate-deliver"
                           and attributes.get("messaging.operation.type") == "process"
                           and isinstance(attributes.get("messaging.kafka.offset"), int),
                           f"deliver {label}: messaging attributes {attributes}")
            posts = [s for s in post_spans if s["parent_span_id"] == span["span_id"]]
            if label == "d":
                failures.check(not posts, "deliver d: no device, no POST span")
            elif failures.check(len(posts) == 1, f"deliver {label}: one POST span, a child of the record's span"):
                post = posts[0]
                expected = {"http.request.method": "POST", "server.address": "127.0.0.1",
                            "server.port": run.ports["production_port"], "http.response.status_code": 200,
                            "pushgate.outcome": "delivered", "pushgate.platform": "apns"}
                failures.check(post["kind"] == "CLIENT" and post["trace_id"] == parent["trace_id"],
                               f"deliver {label}: POST is a client span of the same trace")
                failures.check(post["attributes"] == expected, f"deliver {label}: POST {post['attributes']} == {expected}")
            receipt = [r for r in receipts if r["json"].get("source") == f"{INPUT}:{where[label][0]}:{where[label][1]}"]
            own = f"00-{span['trace_id']}-{span['span_id']}-01"
            failures.check(len(receipt) == 1 and dict(receipt[0]["headers"]).get("traceparent") == own,
                           f"deliver {label}: the receipt carries the record span's traceparent "
                           f"({[dict(r['headers']).get('traceparent') for r in receipt]} == {own})")
        # The logs: the dead letter's line names its span; no line names a span that is not one.
        b_span = run_span("b")
        lines = read_log(run_log)
        dead = [line for line in lines if "dead letter" in line.get("message", "")]
        failures.check(b_span is not None and any(
            line.get("metadata", {}).get("trace_id") == b_span["trace_id"]
            and line.get("metadata", {}).get("span_id") == b_span["span_id"] for line in dead),
            f"run: the dead letter's log line carries its span's trace_id and span_id ({dead[:1]})")
        known = {(s["trace_id"], s["span_id"]) for s in spans}
        traced_lines = [line for line in lines + read_log(deliver_log) if "trace_id" in line.get("metadata", {})]
        failures.check(all((line["metadata"]["trace_id"], line["metadata"]["span_id"]) in known
                           or line["metadata"]["trace_id"] == trace_e for line in traced_lines),
                       "every trace_id/span_id in the logs is one of the spans'")
        # No device token, anywhere in any span.
        text = json.dumps(spans)
        failures.check(not any(token(name) in text for name in ("dev-a", "dev-c", "dev-e")),
                       "no device token in any span")
        failures.check(all(span["service"] in ("pushgate-run", "pushgate-deliver") for span in spans),
                       "service.name: pushgate-run, pushgate-deliver")
        failures.check(receiver.content_types == {"application/x-protobuf"},
                       f"exported as OTLP/HTTP protobuf ({receiver.content_types})")
        dropped = run.metric("pushgate_trace_spans_dropped_total")
        failures.check(dropped == 0, f"deliver's /metrics counts dropped spans, none here ({dropped})")
        stop_within(failures, worker, 10, "run")
    finally:
        run.stop()
        receiver.stop()
    return None


def wait_for_metric(run, name, timeout):
    """deliver's `name` once it is above 0, else its last value (None: not in /metrics) after `timeout` s."""
    deadline = time.monotonic() + timeout
    value = run.metric(name)
    while (value is None or value == 0) and time.monotonic() < deadline:
        time.sleep(0.5)
        value = run.metric(name)
    return value


def scenario_collector(pushgate, directory, key_path, failures, mode):
    """A collector that never answers (`silent`) or is not there (`down`): no stall, shutdown within its bound."""
    receiver = OTLPReceiver(mode="silent") if mode == "silent" else None
    endpoint = receiver.endpoint if receiver else f"http://127.0.0.1:{free_port()}"
    run = TracedRun(pushgate, directory, key_path, mode)
    try:
        run.put_devices([device("dev-s", "user-s")])
        timeout = "60000" if receiver else "2000"
        env = {"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_BSP_SCHEDULE_DELAY": "100",
               "OTEL_EXPORTER_OTLP_TIMEOUT": timeout, "OTEL_BSP_EXPORT_TIMEOUT": timeout}
        worker = run.start_run(env, shutdown_timeout="5s")
        deliver = run.start_traced_deliver(env, shutdown_timeout="5s")
        count = 300
        for number in range(count):
            run.produce(INPUT, b"user-s", VALID, [("traceparent", f"00-{'ab' * 16}-{number + 1:016x}-01".encode())])
        outputs = run.outputs(expect=count, timeout=90)
        failures.check(len(outputs) == count, f"{mode}: every input translated while spans cannot be exported "
                                              f"({len(outputs)} of {count})")
        receipts = run.receipts(expect=count, timeout=90, idle=0.5)
        failures.check(len(receipts) == count, f"{mode}: every record delivered ({len(receipts)} of {count})")
        if receiver:
            failures.check(receiver.requests >= 1, f"{mode}: the exporter did reach the collector")
        else:
            dropped = wait_for_metric(run, "pushgate_trace_spans_dropped_total", timeout=30)
            failures.check(dropped is not None and dropped > 0,
                           f"{mode}: deliver counts the spans it could not export ({dropped})")
        stop_within(failures, worker, 5, f"{mode}: run")
        stop_within(failures, deliver, 5, f"{mode}: deliver")
    finally:
        run.stop()
        if receiver:
            receiver.stop()


def scenario_ratio(pushgate, directory, key_path, failures):
    """`traceidratio` at 0.5 decided by pushgate: exactly the inputs whose trace ids it samples export spans and
    write flags 01, whatever their parent's flag (the sampler is not parent-based). The trace ids are chosen so that
    a second ratio sampler reading the id's bytes the other way round (swift-otel's, were it still applied) would
    sample none of them."""
    receiver = OTLPReceiver()
    run = TracedRun(pushgate, directory, key_path, "ratio")
    try:
        env = {"OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint, "OTEL_BSP_SCHEDULE_DELAY": "200",
               "OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.5"}
        worker = run.start_run(env)
        # The last 8 bytes, big-endian and halved, below 2^62: sampled ("3..." ends "ff"); above: not ("c..." ends
        # "00"). Read little-endian (the last byte first) against the same share, each is the other way round.
        sampled = {f"{n:016x}" + "3" + "a" * 13 + "ff" for n in range(1, 11)}
        dropped = {f"{n:016x}" + "c" + "a" * 13 + "00" for n in range(11, 21)}
        for index, trace_id in enumerate(sorted(sampled) + sorted(dropped)):
            flags = "00" if trace_id in sampled else "01"
            run.produce(INPUT, f"user-{index}".encode(), VALID,
                        [("traceparent", f"00-{trace_id}-{index + 1:016x}-{flags}".encode())])
        outputs = run.outputs(expect=20)
        failures.check(len(outputs) == 20, f"ratio: 20 outputs (got {len(outputs)})")
        written = {}
        for record in outputs:
            match = TRACEPARENT.match(header(record, "traceparent") or "")
            if match:
                written[match.group(1)] = match.group(3)
        failures.check(written == {**{t: "01" for t in sampled}, **{t: "00" for t in dropped}},
                       f"ratio: outputs keep their trace, flags 01 exactly for the sampled ids ({written})")
        receiver.wait_for(lambda spans: len(spans) >= len(sampled), timeout=30)
        time.sleep(1)
        exported = {span["trace_id"] for span in receiver.snapshot()}
        failures.check(exported == sampled, f"ratio: spans exported for exactly the sampled ids ({len(exported)}: "
                                            f"{sorted(exported - sampled)[:3]} more, {sorted(sampled - exported)[:3]} "
                                            "missing)")
        stop_within(failures, worker, 10, "ratio: run")
    finally:
        run.stop()
        receiver.stop()


def scenario_exporter(pushgate, directory, key_path, failures):
    """The exporter against a collector that refuses its first request (503, Retry-After: 1) and then answers with a
    partial success: spans arrive gzip-compressed with the configured headers and resource, after the retry."""
    secret = "k3y-" + "9" * 20
    receiver = OTLPReceiver(refuse_first=1, reject=1)
    run = TracedRun(pushgate, directory, key_path, "exporter")
    try:
        env = {"OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint, "OTEL_BSP_SCHEDULE_DELAY": "200",
               "OTEL_EXPORTER_OTLP_COMPRESSION": "gzip", "OTEL_SERVICE_NAME": "push-eu",
               "OTEL_EXPORTER_OTLP_TRACES_HEADERS": f"api-key={secret},x-tenant=eu",
               "OTEL_RESOURCE_ATTRIBUTES": "deployment.environment=prod"}
        worker = run.start_run(env)
        for number in range(5):
            run.produce(INPUT, b"user-x", VALID, [("traceparent", f"00-{'cd' * 16}-{number + 1:016x}-01".encode())])
        failures.check(len(run.outputs(expect=5)) == 5, "exporter: 5 outputs")
        spans = receiver.wait_for(lambda spans: len(spans) >= 5, timeout=30)
        failures.check(len(spans) == 5 and receiver.requests >= 2,
                       f"exporter: the 5 spans arrive after the refused request is retried ({len(spans)} spans, "
                       f"{receiver.requests} requests)")
        headers = receiver.headers
        failures.check(all(h.get("content-encoding") == "gzip" for h in headers),
                       "exporter: every request gzip-compressed")
        failures.check(all(h.get("api-key") == secret and h.get("x-tenant") == "eu" for h in headers),
                       "exporter: OTEL_EXPORTER_OTLP_TRACES_HEADERS on every request")
        failures.check(all(span["service"] == "push-eu" and span["resource"].get("deployment.environment") == "prod"
                           for span in spans), "exporter: service.name and OTEL_RESOURCE_ATTRIBUTES on the resource")
        stop_within(failures, worker, 10, "exporter: run")
        log = open(run.logs[-1]).read()
        failures.check("rejected 1 of" in log and "over quota" in log,
                       "exporter: the spans the collector rejected are logged")
        failures.check(secret not in log, "exporter: the header's secret is in no log line")
    finally:
        run.stop()
        receiver.stop()


SCENARIOS = {
    "trace": scenario_trace,
    "ratio": scenario_ratio,
    "silent": lambda *arguments: scenario_collector(*arguments, mode="silent"),
    "down": lambda *arguments: scenario_collector(*arguments, mode="down"),
    "exporter": scenario_exporter,
}

if __name__ == "__main__":
    sys.exit(delivery_harness.main(__doc__, "tracing_e2e", SCENARIOS, {}, prefix="tracing-e2e-",
                                   context=lambda directory: (write_key(directory),)))
