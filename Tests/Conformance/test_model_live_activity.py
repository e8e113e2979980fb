"""The Live Activity model (model_live_activity.py): every Live Activity record pushgate writes in the golden
files passes it, and hand-made wrong records fail it, each for its own reason."""
import copy
import glob
import json
import os
import subprocess
import unittest

from check_goldens import raw_value
from model_live_activity import check_live_activity, is_live_activity
from real_parsers import check_record

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
GOLDEN = os.path.join(ROOT, "Tests", "PushTranslationTests", "Golden")
PUSHGATE = os.environ.get("PUSHGATE_BIN", os.path.join(ROOT, ".build", "debug", "pushgate"))

START = {"aps": {
    "timestamp": 1700000000, "event": "start", "content-state": {"home": 0, "away": 0},
    "attributes-type": "MatchAttributes", "attributes": {"homeTeam": "Lions"}, "input-push-token": 1,
    "alert": {"title": "Kick-off", "body": "Lions vs Tigers", "sound": "whistle.caf"}}}
UPDATE = {"aps": {"timestamp": 1700000100, "event": "update", "content-state": {"home": 1, "away": 0},
                  "stale-date": 1700003600, "relevance-score": 0.5}, "match": "42"}
END = {"aps": {"timestamp": 1700005400, "event": "end", "dismissal-date": 1700009000}}
HEADERS = {"apns-push-type": "liveactivity", "apns-priority": "5", "apns-expiration": "0"}


def live_activity_records():
    """(name, record, raw value) of every Live Activity record in the golden files."""
    for path in sorted(glob.glob(os.path.join(GOLDEN, "*.expected.jsonl"))):
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                record = json.loads(line)
                headers = dict(record["headers"])
                if record["format"] == "apns" and headers.get("apns-push-type") == "liveactivity":
                    yield os.path.basename(path), record, raw_value(line.rstrip("\n"), record["value"])


def changed(payload, **aps_changes):
    """A copy of `payload` with `aps` members set (None: removed)."""
    result = copy.deepcopy(payload)
    for key, value in aps_changes.items():
        key = key.replace("_", "-")
        if value is None:
            result["aps"].pop(key, None)
        else:
            result["aps"][key] = value
    return result


class GoldenLiveActivitiesPass(unittest.TestCase):
    def test_there_are_golden_live_activities_of_every_event(self):
        events = {record["value"]["aps"]["event"] for _, record, _ in live_activity_records()}
        self.assertEqual(events, {"start", "update", "end"})

    def test_every_golden_live_activity_passes(self):
        for name, record, raw in live_activity_records():
            with self.subTest(name):
                self.assertEqual(check_live_activity(record["value"], raw, dict(record["headers"])), [])

    def test_schema_examples_agree_with_the_model(self):
        examples = os.path.join(ROOT, "Schemas", "examples")
        valid = sorted(glob.glob(os.path.join(examples, "apns-live-activity.example-*.json")))
        invalid = sorted(glob.glob(os.path.join(examples, "apns-live-activity.invalid-*.json")))
        self.assertTrue(valid and invalid)
        for path in valid + invalid:
            with open(path, encoding="utf-8") as handle:
                problems = check_live_activity(json.load(handle))
            with self.subTest(os.path.basename(path)):
                self.assertEqual(problems == [], path in valid, problems)

    @unittest.skipUnless(os.access(PUSHGATE, os.X_OK), "pushgate is not built (set PUSHGATE_BIN)")
    def test_example_live_activities_pass(self):
        result = subprocess.run([PUSHGATE, "translate", "--lines", os.path.join(ROOT, "examples", "payloads.jsonl")],
                                capture_output=True, text=True, timeout=60, check=False)
        checked = 0
        for line in result.stdout.splitlines():
            record = json.loads(line)
            if record["format"] == "apns" and dict(record["headers"]).get("apns-push-type") == "liveactivity":
                checked += 1
                self.assertEqual(check_live_activity(record["value"], raw_value(line, record["value"]),
                                                     dict(record["headers"])), [])
        self.assertGreater(checked, 0)

    def test_check_record_routes_by_push_type(self):
        self.assertTrue(is_live_activity(UPDATE, HEADERS))
        self.assertFalse(is_live_activity(UPDATE, {"apns-push-type": "alert"}))
        self.assertTrue(is_live_activity(UPDATE))
        problems, _ = check_record("apns", changed(UPDATE, badge=1), headers=HEADERS)
        self.assertTrue(any("badge" in p for p in problems))


class HandMadeRecords(unittest.TestCase):
    def assert_fails(self, payload, fragment, headers=None):
        problems = check_live_activity(payload, headers=headers)
        self.assertTrue(any(fragment in p for p in problems), f"{fragment!r} not in {problems}")

    def test_good_records_pass(self):
        for payload in (START, UPDATE, END):
            self.assertEqual(check_live_activity(payload, headers=HEADERS), [])

    def test_notification_keys_fail(self):
        for key, value in (("badge", 1), ("category", "C"), ("sound", "s.caf"), ("thread-id", "t"),
                           ("content-available", 1), ("mutable-content", 1)):
            with self.subTest(key):
                self.assert_fails(changed(UPDATE, **{key: value}), f"aps.{key} is not a Live Activity key")

    def test_each_event_needs_its_keys(self):
        self.assert_fails(changed(UPDATE, content_state=None), "needs `content-state`")
        self.assert_fails(changed(START, content_state=None), "needs `content-state`")
        self.assert_fails(changed(START, attributes_type=None), "attributes-type")
        self.assert_fails(changed(START, attributes=None), "needs `attributes`")
        self.assert_fails(changed(START, alert=None), "without `alert`")
        self.assert_fails(changed(START, alert={"title": "T"}), "needs `body`")
        self.assert_fails(changed(UPDATE, event=None), "is not start, update or end")
        self.assert_fails(changed(UPDATE, event="stop"), "is not start, update or end")
        self.assert_fails(changed(UPDATE, timestamp=None), "aps.timestamp is missing")

    def test_keys_of_another_event_fail(self):
        self.assert_fails(changed(UPDATE, dismissal_date=1700009000), "`end` push only")
        self.assert_fails(changed(END, attributes={"a": 1}), "`start` push only")
        self.assert_fails(changed(UPDATE, input_push_token=1), "`start` push only")

    def test_types_fail(self):
        self.assert_fails(changed(UPDATE, timestamp=1700000000.5), "timestamp")
        self.assert_fails(changed(UPDATE, timestamp="1700000000"), "timestamp")
        self.assert_fails(changed(UPDATE, stale_date=-1), "stale-date")
        self.assert_fails(changed(UPDATE, relevance_score="high"), "relevance-score")
        self.assert_fails(changed(UPDATE, relevance_score=True), "relevance-score")
        self.assert_fails(changed(UPDATE, content_state=[1]), "not an object")
        self.assert_fails(changed(START, input_push_token=True), "input-push-token")
        self.assert_fails(changed(START, alert="Kick-off"), "alert is str")
        self.assert_fails(changed(START, alert={"title": "T", "body": "B", "badge": 1}), "alert.badge")

    def test_null_fails_at_its_path(self):
        self.assert_fails(changed(UPDATE, content_state={"a": {"b/c": None}}), "/aps/content-state/a/b~1c")
        self.assert_fails(changed(START, attributes={"l": [None]}), "/aps/attributes/l/0")

    def test_size_over_4096_bytes_fails(self):
        self.assert_fails(changed(UPDATE, content_state={"t": "x" * 4096}), "more than 4096")

    def test_headers_fail(self):
        self.assert_fails(UPDATE, "not liveactivity", {"apns-push-type": "alert", "apns-priority": "5"})
        self.assert_fails(UPDATE, "not 5 or 10", {"apns-push-type": "liveactivity", "apns-priority": "1"})
        self.assert_fails(START, "cannot start", dict(HEADERS, **{"apns-channel-id": "Y2g="}))


if __name__ == "__main__":
    unittest.main()
