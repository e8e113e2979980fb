"""Unit tests of output_check.py, the integration harnesses' verdicts, without Kafka:
`python3 -m unittest discover -s Tests/Integration -p 'test_*.py'`."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from output_check import (REPLACED, VALUE_OMITTED, WRITTEN, Expectation, order_violations,  # noqa: E402
                          replacement_dead_letter, without_value)

INPUT_HEADERS = [("trace-id", b"t"), ("APNS-Priority", b"10")]


class Message:
    """A consumed record as confluent-kafka gives it: topic(), key(), value(), headers(), partition(), offset()."""

    def __init__(self, topic, key, value, headers, partition=0, offset=0):
        fields = {"topic": topic, "key": key, "value": value, "headers": list(headers), "partition": partition,
                  "offset": offset}
        for name, field in fields.items():
            setattr(self, name, lambda field=field: field)


def output(offset, key=b"k", form="apns"):
    headers = (("trace-id", b"t"), ("pushgate-id", b"id-%d" % offset), ("pushgate-format", form.encode()),
               ("pushgate-source", b"push.unified:0:%d" % offset))
    return f"push.{form}", key, b'{"aps":{"alert":"%d"}}' % offset, headers


def dead_letter(offset, key=b"k"):
    headers = (("trace-id", b"t"), ("__connect.errors.partition", b"0"), ("__connect.errors.offset", b"%d" % offset))
    return "push.dlq", key, b"not json %d" % offset, headers


def read(*records):
    """Records as consumed messages, in this order in their topics."""
    return [Message(topic, key, value, headers, offset=index) for index, (topic, key, value, headers) in enumerate(records)]


def an_input(offset, key=b"k"):
    return Message("push.unified", key, b'{"message":{"body":"%d"}}' % offset, INPUT_HEADERS, offset=offset)


class StrictExpectationTests(unittest.TestCase):
    def test_every_record_once_is_complete_with_nothing_lost_wrong_or_duplicated(self):
        expectation = Expectation([output(0), dead_letter(1)])
        records = read(output(0), dead_letter(1))
        self.assertTrue(expectation.complete(records))
        self.assertEqual(expectation.compare(records)[:3], ([], [], 0))

    def test_a_missing_record_is_lost(self):
        expectation = Expectation([output(0), dead_letter(1)])
        records = read(output(0))
        self.assertFalse(expectation.complete(records))
        self.assertEqual(expectation.compare(records).lost, [dead_letter(1)])

    def test_a_record_with_one_byte_changed_is_wrong_and_its_slot_lost(self):
        topic, key, value, headers = output(0)
        changed = (topic, key, value.replace(b"0", b"1"), headers)
        comparison = Expectation([output(0)]).compare(read(changed))
        self.assertEqual((comparison.lost, comparison.wrong), ([output(0)], [changed]))

    def test_identical_copies_are_counted_as_duplicates(self):
        comparison = Expectation([output(0)]).compare(read(output(0), output(0), output(0)))
        self.assertEqual((comparison.duplicates, comparison.kinds[WRITTEN]), (2, 3))

    def test_a_replacement_is_wrong_unless_the_broker_refuses_records(self):
        replacement = replacement_dead_letter(output(0), an_input(0), "MSG_SIZE_TOO_LARGE")
        self.assertEqual(Expectation([output(0)]).compare(read(replacement)).wrong, [replacement])


class RefusedRecordTests(unittest.TestCase):
    def setUp(self):
        self.expectation = Expectation([output(0), dead_letter(1)], [an_input(0), an_input(1)], "MSG_SIZE_TOO_LARGE")

    def test_an_output_may_be_its_replacement_dead_letter(self):
        replacement = replacement_dead_letter(output(0), an_input(0), "MSG_SIZE_TOO_LARGE")
        comparison = self.expectation.compare(read(replacement, dead_letter(1)))
        self.assertEqual((comparison.lost, comparison.wrong, comparison.kinds[REPLACED]), ([], [], 1))

    def test_the_replacement_keeps_the_input_and_names_the_refusal(self):
        _, key, value, headers = replacement_dead_letter(output(0), an_input(0), "INVALID_MSG_SIZE")
        names = dict(headers)
        self.assertEqual((key, value), (b"k", an_input(0).value()))
        self.assertEqual([name for name, _ in headers][:2], ["trace-id", "__connect.errors.topic"])
        self.assertEqual((names["__connect.errors.stage"], names["pushgate-format"], names["pushgate-id"]),
                         (b"emit", b"apns", b"id-0"))
        errors = json.loads(names["pushgate-errors"])
        self.assertEqual([(e["code"], e["path"]) for e in errors], [("payload_too_large", "")])
        self.assertIn("apns record of 21 bytes as too large (INVALID_MSG_SIZE)", errors[0]["message"])

    def test_a_dead_letter_may_be_written_without_its_value(self):
        omitted = without_value(dead_letter(1))
        self.assertEqual((omitted[2], omitted[3][-1]), (b"", ("pushgate-value-omitted", b"10")))
        comparison = self.expectation.compare(read(output(0), omitted))
        self.assertEqual((comparison.lost, comparison.wrong, comparison.kinds[VALUE_OMITTED]), ([], [], 1))

    def test_a_replacement_naming_another_code_is_wrong(self):
        other = replacement_dead_letter(output(0), an_input(0), "RECORD_LIST_TOO_LARGE")
        comparison = self.expectation.compare(read(other, dead_letter(1)))
        self.assertEqual((comparison.lost, comparison.wrong), ([output(0)], [other]))

    def test_an_output_without_its_value_is_wrong(self):
        stripped = without_value(output(0))
        self.assertEqual(self.expectation.compare(read(stripped, dead_letter(1))).wrong, [stripped])


class OrderTests(unittest.TestCase):
    def test_records_of_a_key_in_input_order_pass(self):
        self.assertEqual(order_violations(read(output(0), output(1), output(2))), ([], 0))

    def test_a_later_input_first_is_a_violation(self):
        violations, _ = order_violations(read(output(1), output(0)))
        self.assertEqual(violations, [(("push.apns", b"k"), (0, 1), (0, 0))])

    def test_a_duplicate_after_later_records_is_not_a_violation(self):
        self.assertEqual(order_violations(read(output(0), output(1), output(0))), ([], 0))

    def test_other_keys_and_records_without_key_do_not_count(self):
        self.assertEqual(order_violations(read(output(1, b"a"), output(0, b"b"), output(2, None), output(0, None))), ([], 0))

    def test_exempt_records_are_counted_as_late_not_violations(self):
        records = read(dead_letter(2), dead_letter(1))
        self.assertEqual(order_violations(records, exempt=lambda record: record == dead_letter(1)), ([], 1))


if __name__ == "__main__":
    unittest.main()
