"""Unit tests of commit_watch.py, the verdicts on commit order, without Kafka:
`python3 -m unittest discover -s Tests/Integration -p 'test_*.py'`."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from commit_watch import BrokerEvents, Sample, commits_before_appends, early_commits  # noqa: E402
from output_check import Expectation  # noqa: E402
from test_output_check import Message, dead_letter, output  # noqa: E402

GROUP = "pushgate-test"
PREFIX = "2026-01-01T00:00:00+0000 debug pushgate.broker: facility=MOCK [Kafka] [thrd:mock]: "


def append(topic, partition, first, count):
    return (f"{PREFIX}Broker 1: Log append {topic} [{partition}] {count} messages, 120 bytes at offset {first} "
            f"(log now 0..{first + count}, original start 0)")


def commit(offset, partition=0, topic="push.unified", group=GROUP):
    return f"{PREFIX}Topic {topic} [{partition}] committing offset {offset} for group {group}"


def events(*lines):
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as log:
        log.write("\n".join(lines) + "\n")
    try:
        return BrokerEvents(log.name, GROUP)
    finally:
        os.unlink(log.name)


# Input 0 gives an apns output, input 1 a dead letter; each lands at offset 0 of partition 0 of its topic.
EXPECTATION = Expectation([output(0), dead_letter(1)])
RECORDS = [Message(*output(0)), Message(*dead_letter(1))]


class BrokerEventOrderTests(unittest.TestCase):
    def test_commits_after_the_appends_of_their_inputs_pass(self):
        log = events(append("push.apns", 0, 0, 1), commit(1), append("push.dlq", 0, 0, 1), commit(2))
        self.assertEqual(commits_before_appends(log, EXPECTATION, RECORDS, "push.unified"), [])

    def test_a_commit_before_a_dead_letter_is_appended_is_reported(self):
        log = events(append("push.apns", 0, 0, 1), commit(2), append("push.dlq", 0, 0, 1))
        found = commits_before_appends(log, EXPECTATION, RECORDS, "push.unified")
        self.assertEqual([(early.source, early.committed, early.slot[0]) for early in found],
                         [((0, 1), 2, "push.dlq")])

    def test_a_record_never_appended_under_a_commit_is_reported(self):
        log = events(append("push.apns", 0, 0, 1), commit(2))
        found = commits_before_appends(log, EXPECTATION, RECORDS, "push.unified")
        self.assertEqual([(early.source, early.appended_at) for early in found], [((0, 1), None)])

    def test_a_record_inside_a_batch_is_found_by_its_batch(self):
        records = [Message(*output(0), offset=7), Message(*dead_letter(1))]
        log = events(append("push.apns", 0, 5, 3), append("push.dlq", 0, 0, 1), commit(2))
        self.assertEqual(commits_before_appends(log, EXPECTATION, records, "push.unified"), [])
        early = events(append("push.apns", 0, 5, 2), append("push.dlq", 0, 0, 1), commit(2),
                       append("push.apns", 0, 7, 1))
        self.assertEqual(len(commits_before_appends(early, EXPECTATION, records, "push.unified")), 1)

    def test_commits_of_other_groups_and_topics_are_not_the_workers(self):
        log = events(commit(2, group="someone-else"), commit(2, topic="push.apns"), append("push.apns", 0, 0, 1),
                     append("push.dlq", 0, 0, 1), commit(2))
        self.assertEqual(len(log.commits), 2)
        self.assertEqual(commits_before_appends(log, EXPECTATION, RECORDS, "push.unified"), [])

    def test_the_earliest_copy_of_a_duplicated_record_counts(self):
        records = RECORDS + [Message(*dead_letter(1), offset=1)]
        log = events(append("push.apns", 0, 0, 1), append("push.dlq", 0, 0, 1), commit(2),
                     append("push.dlq", 0, 1, 1))
        self.assertEqual(commits_before_appends(log, EXPECTATION, records, "push.unified"), [])


class SampleTests(unittest.TestCase):
    ENDS = {("push.apns", 0): 1, ("push.dlq", 0): 1}

    def test_inputs_under_a_commit_with_their_records_under_the_ends_pass(self):
        self.assertEqual(early_commits([Sample(1.0, {0: 2}, self.ENDS)], EXPECTATION, RECORDS), [])

    def test_a_record_at_or_past_the_sampled_end_is_reported(self):
        ends = {("push.apns", 0): 1, ("push.dlq", 0): 0}
        found = early_commits([Sample(1.0, {0: 2}, ends)], EXPECTATION, RECORDS)
        self.assertEqual([(early.source, early.slot[0]) for early in found], [((0, 1), "push.dlq")])

    def test_an_input_is_judged_by_the_first_sample_that_has_it_committed(self):
        first = Sample(1.0, {0: 1}, {("push.apns", 0): 1, ("push.dlq", 0): 0})
        second = Sample(2.0, {0: 2}, self.ENDS)
        self.assertEqual(early_commits([first, second], EXPECTATION, RECORDS), [])
        late = Sample(2.0, {0: 2}, {("push.apns", 0): 0, ("push.dlq", 0): 1})
        self.assertEqual([early.source for early in early_commits([Sample(1.0, {0: 1}, self.ENDS), late],
                                                                  EXPECTATION, RECORDS)], [])


if __name__ == "__main__":
    unittest.main()
