#!/usr/bin/env python3
"""An independent Kafka client (confluent-kafka, its own librdkafka) for pushgate's integration tests.

  kafka_client.py produce BOOTSTRAP TOPIC       < records.jsonl
  kafka_client.py dump BOOTSTRAP TOPIC... [--expect N] [--timeout S] [--idle S] [--allow-short]  > records.jsonl
  kafka_client.py committed BOOTSTRAP GROUP TOPIC                               > {"PARTITION": OFFSET}
  kafka_client.py watermarks BOOTSTRAP TOPIC                                     > {"PARTITION": HIGH}

A record line is {"key": B64|null, "value": B64|null (absent: null), "headers": [[NAME, B64|null], ...], "timestamp": MS|null}
(dump adds "topic", "partition", "offset"). Bytes are base64 so nothing is lost.
"""
import argparse
import base64
import json
import sys
import time

from confluent_kafka import Consumer, Producer, TopicPartition, OFFSET_BEGINNING


def b64(data):
    return None if data is None else base64.b64encode(data).decode()


def unb64(text):
    return None if text is None else base64.b64decode(text)


def produce(args):
    producer = Producer({"bootstrap.servers": args.bootstrap, "enable.idempotence": True, "acks": "all",
                         "linger.ms": 5})
    failures = []

    def report(error, _message):
        if error is not None:
            failures.append(str(error))

    count = 0
    for line in sys.stdin:
        if not line.strip():
            continue
        record = json.loads(line)
        headers = [(name, unb64(value)) for name, value in record.get("headers") or []]
        kwargs = {"value": unb64(record.get("value")), "key": unb64(record.get("key")), "headers": headers,
                  "on_delivery": report}
        if record.get("timestamp") is not None:
            kwargs["timestamp"] = record["timestamp"]
        if record.get("partition") is not None:
            kwargs["partition"] = record["partition"]
        while True:
            try:
                producer.produce(args.topic, **kwargs)
                break
            except BufferError:
                producer.poll(0.1)
        producer.poll(0)
        count += 1
    remaining = producer.flush(60)
    if remaining or failures:
        sys.exit(f"produce failed: {remaining} unflushed, errors {failures[:3]}")
    print(json.dumps({"produced": count}), file=sys.stderr)


def partitions_of(consumer, topic):
    metadata = consumer.list_topics(topic, timeout=10)
    return sorted(metadata.topics[topic].partitions.keys())


def dump(args):
    consumer = Consumer({"bootstrap.servers": args.bootstrap, "group.id": "pushgate-test-dump",
                         "enable.auto.commit": False, "enable.partition.eof": False})
    assignment = [TopicPartition(topic, p, OFFSET_BEGINNING) for topic in args.topics
                  for p in partitions_of(consumer, topic)]
    consumer.assign(assignment)
    records = []
    deadline = time.monotonic() + args.timeout
    last_record = time.monotonic()
    while time.monotonic() < deadline:
        message = consumer.poll(0.2)
        now = time.monotonic()
        if message is None:
            if args.expect is not None and len(records) >= args.expect and now - last_record >= args.idle:
                break
            if args.expect is None and now - last_record >= args.idle:
                break
            continue
        if message.error():
            continue
        last_record = now
        _, timestamp = message.timestamp()
        records.append({"topic": message.topic(), "partition": message.partition(), "offset": message.offset(),
                        "key": b64(message.key()), "value": b64(message.value()),
                        "headers": [[name, b64(value)] for name, value in (message.headers() or [])],
                        "timestamp": timestamp})
    consumer.close()
    for record in records:
        print(json.dumps(record))
    if args.expect is not None and len(records) < args.expect:
        message = f"dump: {len(records)} records, expected {args.expect}"
        if not args.allow_short:
            sys.exit(message)
        print(message, file=sys.stderr)


def committed(args):
    consumer = Consumer({"bootstrap.servers": args.bootstrap, "group.id": args.group, "enable.auto.commit": False})
    partitions = [TopicPartition(args.topic, p) for p in partitions_of(consumer, args.topic)]
    result = {str(tp.partition): tp.offset for tp in consumer.committed(partitions, timeout=10)}
    consumer.close()
    print(json.dumps(result))


def watermarks(args):
    consumer = Consumer({"bootstrap.servers": args.bootstrap, "group.id": "pushgate-test-watermarks"})
    result = {str(p): consumer.get_watermark_offsets(TopicPartition(args.topic, p), timeout=10)[1]
              for p in partitions_of(consumer, args.topic)}
    consumer.close()
    print(json.dumps(result))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("produce")
    p.add_argument("bootstrap")
    p.add_argument("topic")
    p.set_defaults(run=produce)
    d = commands.add_parser("dump")
    d.add_argument("bootstrap")
    d.add_argument("topics", nargs="+")
    d.add_argument("--expect", type=int)
    d.add_argument("--timeout", type=float, default=60)
    d.add_argument("--idle", type=float, default=1.0)
    d.add_argument("--allow-short", action="store_true",
                   help="exit 0 with what was read when fewer than --expect records came (the caller says what is missing)")
    d.set_defaults(run=dump)
    c = commands.add_parser("committed")
    c.add_argument("bootstrap")
    c.add_argument("group")
    c.add_argument("topic")
    c.set_defaults(run=committed)
    w = commands.add_parser("watermarks")
    w.add_argument("bootstrap")
    w.add_argument("topic")
    w.set_defaults(run=watermarks)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
