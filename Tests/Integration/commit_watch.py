"""Commits checked while the workers run, not only at the end (commit_probe.py, fault_matrix.py).

Two checks of one property, from two sides.

The delivery guarantee (SPEC section 7, docs/delivery.md) says an input's offset is committed only once
every record it gives is acknowledged. A `CommitSampler` checks it from outside, with confluent-kafka:
every `interval` seconds it asks the group coordinator for the group's committed offsets (OffsetFetch,
without joining the group), then asks the brokers for the end offset of every output partition (ListOffsets
for the latest offset, one request per broker, never a cached value). Both answers come from the broker after the commit they describe, so every record
acknowledged before that commit lies below the end offsets of that sample.

`early_commits` then takes the run's inputs, the records read and the expectation (output_check.py), and
reports each input that lay below a sampled committed offset while one of the records it gives (or a
record that may stand for it, such as the replacement of a refused record) was not yet below the end
offset of its partition in the same sample. It also says where that record is now: an offset at or above
the sampled end means it was written after the commit (the worker committed early); below it, the
sample itself was wrong.
"""
import bisect
import collections
import re
import threading
import time

from confluent_kafka import Consumer, KafkaException, TopicPartition

from harness import INPUT_TOPIC, actual_outputs, client_config, partitions_of
from output_check import source_offset

Sample = collections.namedtuple("Sample", "seconds committed ends")
EarlyCommit = collections.namedtuple("EarlyCommit", "sample source slot found")


class CommitSampler:
    """Samples the committed offsets of `group` and the end offsets of every partition of `topics` (the
    output and dead-letter topics) on a thread of its own, until `stop()`; `samples` in time order,
    `failed` the samples the broker did not answer (a broker down, a coordinator moving)."""

    def __init__(self, address, group, topics, interval=1.0):
        self.address, self.group, self.interval, self.topics = address, group, interval, topics
        self.samples, self.failed, self.started = [], 0, time.monotonic()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        consumer = Consumer(client_config(self.address, {"group.id": self.group, "enable.auto.commit": False}))
        try:
            inputs = [TopicPartition(INPUT_TOPIC, p) for p in partitions_of(consumer, INPUT_TOPIC)]
            outputs = [TopicPartition(topic, p) for topic in self.topics for p in partitions_of(consumer, topic)]
            while not self.stopping.wait(self.interval):
                sample = self._sample(consumer, inputs, outputs)
                if sample is None:
                    self.failed += 1
                else:
                    self.samples.append(sample)
        finally:
            consumer.close()

    def _sample(self, consumer, inputs, outputs):
        seconds = time.monotonic() - self.started
        try:
            committed = {tp.partition: tp.offset for tp in consumer.committed(inputs, timeout=5) if tp.offset >= 0}
            ends = {(tp.topic, tp.partition): consumer.get_watermark_offsets(tp, timeout=5, cached=False)[1]
                    for tp in outputs}
        except KafkaException:
            return None
        if any(end is None or end < 0 for end in ends.values()):
            return None
        return Sample(seconds, committed, ends)

    def stop(self):
        """Stops sampling; returns the samples."""
        self.stopping.set()
        self.thread.join(30)
        return self.samples


def early_commits(samples, expectation, records):
    """The inputs committed before a record they give was readable (see the module's description).

    `records` are every output and dead-letter message read by the end of the run; each slot of the
    expectation is readable in a sample when one of its records has an offset below its partition's end
    offset of that sample. Each input is checked in the first sample that has it committed (later ones
    have higher end offsets)."""
    places = collections.defaultdict(list)
    for message, record in zip(records, actual_outputs(records)):
        owner = expectation.owner.get(record)
        if owner is not None:
            places[owner[0]].append((message.topic(), message.partition(), message.offset()))
    slots_by_input = collections.defaultdict(list)
    for index, slot in enumerate(expectation.slots):
        slots_by_input[source_offset(slot[0][1])].append(index)
    pending = sorted(slots_by_input)
    found = []
    for sample in samples:
        still = []
        for source in pending:
            partition, offset = source
            if offset >= sample.committed.get(partition, 0):
                still.append(source)
                continue
            for index in slots_by_input[source]:
                if not any(at < sample.ends.get((topic, part), 0) for topic, part, at in places[index]):
                    found.append(EarlyCommit(sample, source, expectation.slots[index][0][1], places[index]))
        pending = still
    return found


def checked_inputs(samples, expectation):
    """How many inputs lay below a sampled committed offset (and so were checked by `early_commits`)."""
    committed = collections.defaultdict(int)
    for sample in samples:
        for partition, offset in sample.committed.items():
            committed[partition] = max(committed[partition], offset)
    sources = {source_offset(slot[0][1]) for slot in expectation.slots}
    return sum(1 for partition, offset in sources if offset < committed[partition])


def describe_early(early):
    """One line: the input, when it was seen committed, the record, and where that record is now."""
    partition, offset = early.source
    topic = early.slot[0]
    now = ", ".join(f"{t}[{p}]@{o} (end then {early.sample.ends.get((t, p))})" for t, p, o in early.found)
    return (f"input {partition}@{offset} committed ({early.sample.committed.get(partition)}) at "
            f"+{early.sample.seconds:.1f}s, its {topic} record not readable then; now at: {now or 'nowhere'}")


APPEND = re.compile(r"Log append (\S+) \[(\d+)\] (\d+) messages, \d+ bytes at offset (\d+)")
COMMIT = re.compile(r"Topic (\S+) \[(\d+)\] committing offset (-?\d+) for group (\S+)")
CommitBeforeAppend = collections.namedtuple("CommitBeforeAppend", "source committed committed_at slot appended_at")


class BrokerEvents:
    """The appends and commits of a `pushgate broker --trace-events` log, numbered in the order served."""

    def __init__(self, log_path, group):
        self.appends = collections.defaultdict(list)  # (topic, partition) -> [(first offset, count, event)]
        self.commits = []  # (event, topic, partition, offset)
        with open(log_path, errors="replace") as log:
            for event, line in enumerate(log):
                if (append := APPEND.search(line)):
                    topic, partition, count, first = append.groups()
                    self.appends[(topic, int(partition))].append((int(first), int(count), event))
                elif (commit := COMMIT.search(line)) and commit.group(4) == group:
                    self.commits.append((event, commit.group(1), int(commit.group(2)), int(commit.group(3))))
        self.firsts = {place: [first for first, _, _ in entries] for place, entries in self.appends.items()}

    def appended(self, topic, partition, offset):
        """The event that appended the record at `offset` of `topic`/`partition`; None if none did."""
        entries = self.appends.get((topic, partition), [])
        index = bisect.bisect_right(self.firsts.get((topic, partition), []), offset) - 1
        if index >= 0 and offset < entries[index][0] + entries[index][1]:
            return entries[index][2]
        return None


def commits_before_appends(events, expectation, records, topic):
    """The inputs of `topic` whose offset was committed before a record they give (or one standing for it)
    was appended: for each slot, its earliest append among the records read counts."""
    appended = {}
    for message, record in zip(records, actual_outputs(records)):
        owner = expectation.owner.get(record)
        event = events.appended(message.topic(), message.partition(), message.offset())
        if owner is not None and event is not None:
            appended[owner[0]] = min(appended.get(owner[0], event), event)
    by_partition = collections.defaultdict(list)
    for index, slot in enumerate(expectation.slots):
        by_partition[source_offset(slot[0][1])[0]].append((source_offset(slot[0][1])[1], index))
    for slots in by_partition.values():
        slots.sort()
    checked, found = collections.defaultdict(int), []
    for event, committed_topic, partition, offset in events.commits:
        if committed_topic != topic:
            continue
        slots = by_partition[partition]
        while checked[partition] < len(slots) and slots[checked[partition]][0] < offset:
            input_offset, index = slots[checked[partition]]
            when = appended.get(index)
            if when is None or when > event:
                found.append(CommitBeforeAppend((partition, input_offset), offset, event,
                                                expectation.slots[index][0][1], when))
            checked[partition] += 1
    return found


def describe_commit_before_append(early):
    """One line: the input, the commit that covered it and when its record was appended (broker log lines)."""
    partition, offset = early.source
    appended = "never appended" if early.appended_at is None else f"appended at line {early.appended_at + 1}"
    return (f"input {partition}@{offset}: offset {early.committed} committed at line {early.committed_at + 1} of the "
            f"broker log, its {early.slot[0]} record {appended}")
