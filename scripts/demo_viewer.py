#!/usr/bin/env python3
"""Prints every record that lands in pushgate's output and dead-letter topics, one line each:
topic, key, format, first bytes of the value (dead letters: their error codes). Runs until Ctrl-C.
An independent client (confluent-kafka), so what it shows is what any consumer would read.
Usage: demo_viewer.py BOOTSTRAP [PUSHGATE] (the binary lists the formats' topics: `pushgate formats`)."""
import json
import sys

from confluent_kafka import Consumer, TopicPartition

from pushgate_formats import output_topics


def describe(message):
    headers = {name: (value or b"").decode("utf-8", "replace") for name, value in (message.headers() or [])}
    key = message.key().decode("utf-8", "replace") if message.key() is not None else "null"
    value = message.value().decode("utf-8", "replace")
    if message.topic() == "push.dlq":
        errors = json.loads(headers.get("pushgate-errors", "[]"))
        codes = ",".join(f'{e["code"]}@{e["path"] or "/"}' for e in errors)
        stage = headers.get("__connect.errors.stage", "?")
        return f'{message.topic():<24} key={key:<12} dead letter ({stage}): {codes}  value={value[:50]}'
    return f'{message.topic():<24} key={key:<12} format={headers.get("pushgate-format", "?"):<18} {value[:80]}'


def main():
    bootstrap = sys.argv[1]
    topics = output_topics(sys.argv[2] if len(sys.argv) > 2 else None)
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "pushgate-demo-viewer",
                         "enable.auto.commit": False, "log_level": 3})
    metadata = consumer.list_topics(timeout=10)
    partitions = [TopicPartition(topic, p, 0) for topic in topics
                  for p in metadata.topics[topic].partitions]
    consumer.assign(partitions)
    try:
        while True:
            message = consumer.poll(0.5)
            if message is None or message.error():
                continue
            print(describe(message), flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        consumer.close()


if __name__ == "__main__":
    main()
