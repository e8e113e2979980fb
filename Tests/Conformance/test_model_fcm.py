"""Each FCM rule of model_fcm has a test that fails when the rule is removed."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from model_fcm import check_fcm  # noqa: E402

GOOD = {"validate_only": True, "message": {
    "data": {"k": "v"},
    "android": {"collapse_key": "c", "priority": "HIGH", "ttl": "60s", "notification": {
        "title": "T", "body": "B", "channel_id": "ch", "title_loc_key": "K", "title_loc_args": ["a"],
        "light_settings": {"color": {"red": 1, "green": 0.502, "blue": 0, "alpha": 1},
                           "light_on_duration": "0.5s", "light_off_duration": "2s"}}}}}


def with_change(path, value):
    payload = json.loads(json.dumps(GOOD))
    node = payload
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return payload


class FCMModelTests(unittest.TestCase):
    def test_a_complete_body_is_accepted(self):
        self.assertEqual(check_fcm(GOOD, json.dumps(GOOD)), [])

    def test_data_values_must_be_strings(self):
        self.assertTrue(check_fcm(with_change(["message", "data", "k"], 1)))

    def test_reserved_data_keys_are_refused_case_insensitively(self):
        for name in ("from", "Notification", "MESSAGE_TYPE", "google.x", "GCMy"):
            self.assertTrue(check_fcm(with_change(["message", "data", name], "v")), name)
        self.assertEqual(check_fcm(with_change(["message", "data", "from_"], "v")), [])

    def test_priority_is_an_enum(self):
        self.assertTrue(check_fcm(with_change(["message", "android", "priority"], "high")))

    def test_ttl_is_a_duration(self):
        for ttl in ("60", "60 s", 60, "1.0000000001s"):
            self.assertTrue(check_fcm(with_change(["message", "android", "ttl"], ttl)), ttl)
        self.assertEqual(check_fcm(with_change(["message", "android", "ttl"], "0s")), [])

    def test_light_settings_must_be_complete(self):
        for key in ("color", "light_on_duration", "light_off_duration"):
            self.assertTrue(check_fcm(with_change(
                ["message", "android", "notification", "light_settings", key], KeyError)), key)

    def test_color_components_are_in_zero_one(self):
        self.assertTrue(check_fcm(with_change(
            ["message", "android", "notification", "light_settings", "color", "red"], 255)))
        self.assertTrue(check_fcm(with_change(
            ["message", "android", "notification", "light_settings", "color", "green"], "1")))

    def test_unknown_keys_are_refused_at_every_level(self):
        self.assertTrue(check_fcm(with_change(["extra"], 1)))
        self.assertTrue(check_fcm(with_change(["message", "extra"], 1)))
        self.assertTrue(check_fcm(with_change(["message", "android", "extra"], 1)))
        self.assertTrue(check_fcm(with_change(["message", "android", "notification", "extra"], 1)))

    def test_the_target_is_left_to_the_sender(self):
        self.assertTrue(check_fcm(with_change(["message", "token"], "t")))

    def test_loc_args_are_arrays_of_strings(self):
        self.assertTrue(check_fcm(with_change(["message", "android", "notification", "title_loc_args"], "a")))

    def test_body_over_4096_bytes_is_refused(self):
        self.assertTrue(check_fcm(GOOD, " " * 4097))


if __name__ == "__main__":
    unittest.main()
