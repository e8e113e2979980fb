"""Checks what the workers wrote against what `pushgate translate` expects (worker_e2e.py, fault_matrix.py).

An `Expectation` has one slot per expected record (`harness.expected_outputs`), each with the records
that may stand for it: the record itself, and, where the broker refuses records as too large, what the
worker writes in its place (README, "A record the broker refuses as too large"):
- for an output, its emit-stage dead letter: the input's key, value and forwarded headers, stage `emit`,
  `pushgate-format` the refused format and one `payload_too_large` error at path "" naming the broker's
  code and the refused value's size ("replaced");
- for a dead letter (a replacement dead letter included), a copy without its value and with the header
  `pushgate-value-omitted: SIZE` ("value omitted").
Records are (topic, key, value, headers) tuples of bytes; every slot must be filled, every record read
must fill one, and extra copies in a slot are duplicates (byte-identical to one of its records).
"""
import collections
import json

from harness import INPUT_TOPIC, actual_outputs

DEAD_LETTER_TOPIC = "push.dlq"
OWN_PREFIXES = ("pushgate-", "apns-", "webpush-", "__connect.errors.")
WRITTEN, REPLACED, VALUE_OMITTED = "written", "replaced", "value omitted"

Comparison = collections.namedtuple("Comparison", "lost wrong duplicates kinds")


def header(record, name):
    return next((value for key, value in record[3] if key == name), None)


def source_offset(record):
    """(partition, offset) of the input a record was made from."""
    source = header(record, "pushgate-source")
    if source is not None:
        _, partition, offset = source.decode().rsplit(":", 2)
        return int(partition), int(offset)
    return int(header(record, "__connect.errors.partition")), int(header(record, "__connect.errors.offset"))


def forwarded(headers):
    """The input headers an output keeps (SPEC section 1), names compared ASCII case-insensitively."""
    return tuple((name, value) for name, value in headers if not name.lower().startswith(OWN_PREFIXES))


def without_value(record):
    """A dead letter as the worker writes it when the broker refused it: no value, its size in a header."""
    topic, key, value, headers = record
    return topic, key, b"", headers + (("pushgate-value-omitted", str(len(value)).encode()),)


def replacement_dead_letter(output, source, reason):
    """The dead letter that replaces `output` when the broker refused it with `reason` (a librdkafka
    error name); `source` is the input message the output was made from."""
    _, key, value, _ = output
    form = header(output, "pushgate-format").decode()
    message = (f"the broker refused the {form} record of {len(value)} bytes as too large ({reason}); "
               "shorten the text or data, or raise the topic's max.message.bytes")
    errors = [{"code": "payload_too_large", "path": "", "message": message}]
    headers = forwarded(source.headers() or []) + (
        ("__connect.errors.topic", INPUT_TOPIC.encode()),
        ("__connect.errors.partition", str(source.partition()).encode()),
        ("__connect.errors.offset", str(source.offset()).encode()),
        ("__connect.errors.stage", b"emit"),
        ("__connect.errors.exception.class.name", b"payload_too_large"),
        ("__connect.errors.exception.message", f": {message}".encode()),
        ("pushgate-id", header(output, "pushgate-id")),
        ("pushgate-format", form.encode()),
        ("pushgate-errors", json.dumps(errors, separators=(",", ":"), ensure_ascii=False).encode()))
    return DEAD_LETTER_TOPIC, key, source.value(), headers


def alternatives(record, inputs, refused_reason):
    """The records that may stand for `record`: itself, and with `refused_reason` its replacements."""
    if refused_reason is None:
        return [(WRITTEN, record)]
    if record[0] == DEAD_LETTER_TOPIC:
        return [(WRITTEN, record), (VALUE_OMITTED, without_value(record))]
    replacement = replacement_dead_letter(record, inputs[source_offset(record)], refused_reason)
    return [(WRITTEN, record), (REPLACED, replacement), (VALUE_OMITTED, without_value(replacement))]


class Expectation:
    """The expected records, as slots (see the module's description)."""

    def __init__(self, expected, inputs=(), refused_reason=None):
        """`expected` from `harness.expected_outputs`; with `refused_reason`, replacements are accepted
        and `inputs` are the input messages they are made from."""
        by_source = {(message.partition(), message.offset()): message for message in inputs}
        self.slots = [alternatives(record, by_source, refused_reason) for record in expected]
        self.owner = {}
        for index, slot in enumerate(self.slots):
            for kind, record in slot:
                assert record not in self.owner, f"two slots accept one record: {describe(record)}"
                self.owner[record] = (index, kind)

    def kind(self, record):
        """WRITTEN, REPLACED, VALUE_OMITTED, or None for a record no slot accepts."""
        return self.owner.get(record, (None, None))[1]

    def complete(self, messages):
        filled = {self.owner[record][0] for record in actual_outputs(messages) if record in self.owner}
        return len(filled) == len(self.slots)

    def compare(self, messages):
        """Lost (expected records with no record for them), wrong (records no slot accepts), duplicates
        (records beyond the first in a slot) and how many records of each kind were read."""
        filled, wrong, kinds = collections.Counter(), [], collections.Counter()
        for record in actual_outputs(messages):
            if record not in self.owner:
                wrong.append(record)
                continue
            index, kind = self.owner[record]
            filled[index] += 1
            kinds[kind] += 1
        lost = [slot[0][1] for index, slot in enumerate(self.slots) if not filled[index]]
        duplicates = sum(filled.values()) - len(filled)
        return Comparison(lost, wrong, duplicates, kinds)


def order_violations(messages, exempt=lambda record: False):
    """Per output topic and key, the first occurrence of each record must come in input order. Returns
    the (topic, key) slots out of order, with the offsets found, and how many `exempt` records (which
    are not held to it) came after a later input of their key."""
    seen, last, violations, late = set(), {}, [], 0
    ordered = sorted(messages, key=lambda m: (m.topic(), m.partition(), m.offset()))
    for message, record in zip(ordered, actual_outputs(ordered)):
        if record in seen or message.key() is None:
            continue
        seen.add(record)
        slot, offset = (message.topic(), message.key()), source_offset(record)
        if exempt(record):
            late += slot in last and last[slot] > offset
            continue
        if slot in last and last[slot] > offset and slot not in {v[0] for v in violations}:
            violations.append((slot, last[slot], offset))
        last[slot] = max(last.get(slot, offset), offset)
    return violations, late


def describe(record):
    """A record in one line: topic, key, input partition@offset, format or first error, value's first bytes."""
    topic, key, value, headers = record
    names = dict(headers)
    what = names.get("pushgate-format") or names.get("__connect.errors.exception.class.name") or b""
    extra = " value omitted" if "pushgate-value-omitted" in names else ""
    return (f"{topic} key={key!r} input={'%d@%d' % source_offset(record)} {what.decode()}{extra} "
            f"value={value[:60]!r}")
