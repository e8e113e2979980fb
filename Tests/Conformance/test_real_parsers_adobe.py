"""Self-tests of the Adobe carousel model (RULES.md (c)), the APNs light checks and check_goldens.

Run: python3 -m unittest discover -s Tests/Conformance
"""
import contextlib
import io
import json
import os
import tempfile
import unittest

import check_goldens
from real_parsers import (
    android_hex_color, carousel_payload_ios, check_apns, check_carousel, ios_hex_color, is_refusal,
    parse_carousel_android, parse_carousel_ios, to_fcm_data)

FIXTURES = os.environ.get(
    "PUSHGATE_FIXTURES", os.path.join(os.path.dirname(os.path.abspath(__file__)), "Fixtures"))
ADOBE = os.path.join(FIXTURES, "adobe_push_templates")


def load(*parts):
    with open(os.path.join(*parts), encoding="utf-8") as handle:
        return json.load(handle)


def good_carousel(**changes):
    """A payload in the shape SPEC 5.2 describes, which every check accepts."""
    payload = {
        "aps": {"alert": {"title": "T", "body": "B"}, "category": "AEPNotification", "mutable-content": 1},
        "adb_version": "1.0", "adb_template_type": "car", "adb_car_mode": "auto",
        "adb_car_layout": "default",
        "adb_items": [{"img": f"https://a.example/{n}.png", "txt": str(n)} for n in range(3)],
        "adb_clr_title": "FF5733",
    }
    for key, value in changes.items():
        if value is None:
            payload.pop(key, None)
        else:
            payload[key] = value
    return payload


class AdobeIOS(unittest.TestCase):
    def test_real_ios_samples_render_as_carousels(self):
        for path in ("docs_ios_carousel_example.apns.json", "ios_notificationcontent/CarouselAutoTemplate.apns.json",
                     "ios_notificationcontent/CarouselManualTemplate.apns.json"):
            with self.subTest(path=path):
                self.assertFalse(is_refusal(parse_carousel_ios(load(ADOBE, path))))
        manual = parse_carousel_ios(load(ADOBE, "ios_notificationcontent/CarouselManualTemplate.apns.json"))
        self.assertEqual((manual["mode"], len(manual["items"])), ("manual", 15))  # C4: no 2..5 bound
        auto = parse_carousel_ios(load(ADOBE, "ios_notificationcontent/CarouselAutoTemplate.apns.json"))
        self.assertEqual(auto["mode"], "auto")  # C3: missing => auto

    def test_c1_template_choice(self):
        self.assertEqual(parse_carousel_ios(load(ADOBE, "ios_notificationcontent/BasicTemplate.apns.json")).rule, "C1")
        for kind in (None, "Car", 1):
            self.assertEqual(parse_carousel_ios(good_carousel(adb_template_type=kind)).rule, "C1")

    def test_ios_unit_test_expectations(self):
        directory = os.path.join(ADOBE, "ios_unit_tests")
        for name in sorted(os.listdir(directory)):
            case = load(directory, name)
            result = carousel_payload_ios_safe(case)
            expected = case["expected"]
            with self.subTest(case=name):
                self.assertEqual(not is_refusal(result), expected["payload_not_nil"])
                if is_refusal(result):
                    continue
                self.assertEqual(len(result["items"]), expected.get("items", len(result["items"])))
                self.assertEqual(result["mode"], expected.get("carouselMode", result["mode"]))
                for key in ("items[0].title", "items[0].body", "items[1].body"):
                    if key in expected:
                        index, field = int(key[6]), key.split(".")[1]
                        self.assertEqual(result["items"][index][field], expected[key])

    def test_c3_mode(self):
        self.assertEqual(parse_carousel_ios(good_carousel(adb_car_mode="Manual"))["mode"], "auto")
        self.assertEqual(parse_carousel_ios(good_carousel(adb_car_mode="manual"))["mode"], "manual")

    def test_c4_items(self):
        self.assertEqual(parse_carousel_ios(good_carousel(adb_items=None)).rule, "C4")
        self.assertEqual(parse_carousel_ios(good_carousel(adb_items=[{"img": ""}])).rule, "C4")
        self.assertEqual(parse_carousel_ios(good_carousel(adb_items=[{"img": "x"}, "y"])).rule, "C4")
        dropped = good_carousel()
        dropped["adb_items"][1] = {"txt": "no image"}
        self.assertEqual(len(parse_carousel_ios(dropped)["items"]), 2)
        self.assertTrue(any("adb_items[1]" in p for p in check_carousel(dropped)[0]))

    def test_c6_ios_colors(self):
        self.assertEqual(ios_hex_color("FF5733"), (0xFF, 0x57, 0x33, 0xFF))
        self.assertEqual(ios_hex_color(" #FF5733 "), (0xFF, 0x57, 0x33, 0xFF))
        self.assertEqual(ios_hex_color("11223380"), (0x11, 0x22, 0x33, 0x80))
        for bad in ("#123", "#123456789", "#ZZZZZZ", 123456):
            self.assertIsNone(ios_hex_color(bad), bad)

    def test_c7_aps_requirements(self):
        payload = good_carousel()
        payload["aps"]["category"] = "OTHER"
        self.assertTrue(any(p.startswith("C7") for p in check_carousel(payload)[0]))
        for mutable in (None, True, 0):
            payload = good_carousel()
            payload["aps"]["mutable-content"] = mutable
            self.assertTrue(any(p.startswith("C7") for p in check_carousel(payload)[0]), mutable)


def carousel_payload_ios_safe(case):
    try:
        return carousel_payload_ios(case["userInfo"], case["content_title"], case["content_body"])
    except Exception as error:  # a Refusal
        return error


class AdobeAndroid(unittest.TestCase):
    def test_real_android_samples(self):
        docs = load(ADOBE, "docs_android_carousel_example.fcm.json")["message"]["data"]
        self.assertEqual(len(parse_carousel_android(docs)["items"]), 3)
        auto = parse_carousel_android(load(ADOBE, "android_unit_tests", "mock_auto_carousel.json")["data"])
        manual = parse_carousel_android(load(ADOBE, "android_unit_tests", "mock_manual_carousel.json")["data"])
        self.assertEqual((auto["mode"], manual["mode"]), ("auto", "manual"))
        colors = parse_carousel_android(load(ADOBE, "android_testapp", "manual__manual_colors.json"))
        self.assertEqual(colors["colors"]["adb_clr_title"], (0xFF, 0x0D, 0x2E, 0xFF))

    def test_c10_required_keys(self):
        for name, key in (("mock_missing_car_layout.json", "adb_car_layout"), ("mock_missing_items.json", "adb_items")):
            result = parse_carousel_android(load(ADOBE, "android_unit_tests", name)["data"])
            self.assertEqual(result.rule, "C10")
            self.assertIn(key, result.message)
        for key in ("adb_version", "adb_car_layout"):  # iOS does not read them (C2)
            problems = check_carousel(good_carousel(**{key: None}))[0]
            self.assertTrue(any(p.startswith("C10") for p in problems), key)
        self.assertEqual(parse_carousel_android(to_fcm_data(good_carousel(adb_items=None))).rule, "C10")

    def test_c8_c14_items_string(self):
        for name in ("mock_empty_items_string.json", "mock_malformed_items_string.json"):
            self.assertEqual(parse_carousel_android(load(ADOBE, "android_unit_tests", name)["data"])["items"], [])
        data = to_fcm_data(good_carousel(adb_items=[{"img": "a"}, {"txt": "x"}, {"img": "c"}]))
        self.assertIsInstance(data["adb_items"], str)
        self.assertEqual([i["img"] for i in parse_carousel_android(data)["items"]], ["a"])

    def test_c12_mode_disagreement_is_a_failure(self):
        self.assertEqual(parse_carousel_android(to_fcm_data(good_carousel(adb_car_mode="foo")))["mode"], "manual")
        self.assertEqual(parse_carousel_android(to_fcm_data(good_carousel(adb_car_mode=None)))["mode"], "auto")
        self.assertTrue(any(p.startswith("C3/C12") for p in check_carousel(good_carousel(adb_car_mode="Manual"))[0]))
        self.assertEqual(check_carousel(good_carousel(adb_car_mode="manual"))[0], [])

    def test_c15_fewer_than_three_images_is_a_note(self):
        payload = good_carousel(adb_items=[{"img": "a", "txt": "1"}, {"img": "b", "txt": "2"}])
        problems, notes = check_carousel(payload)
        self.assertEqual(problems, [])
        self.assertTrue(any(n.startswith("C15") for n in notes))

    def test_c16_colors_both_platforms(self):
        self.assertIsNone(android_hex_color("#FFFFFF"))
        self.assertEqual(android_hex_color("80112233"), (0x11, 0x22, 0x33, 0x80))
        hashed = check_carousel(good_carousel(adb_clr_title="#FF5733"))[0]
        self.assertTrue(any(p.startswith("C16") for p in hashed))
        eight = check_carousel(good_carousel(adb_clr_title="11223380"))[0]
        self.assertTrue(any(p.startswith("C6/C16") for p in eight))
        self.assertEqual(check_carousel(good_carousel())[0], [])


class APNs(unittest.TestCase):
    def test_real_apns_outputs_accepted(self):
        for name in ("doc_alert_sound_badge.output.json", "doc_simplest_alert.output.json"):
            self.assertEqual(check_apns(load(FIXTURES, "apns_json", name)), [])

    def test_envelope_problems(self):
        self.assertTrue(check_apns({"data": 1}))
        self.assertTrue(check_apns({"aps": {"alert": {"body": "b", "image": "x"}}}))
        self.assertTrue(check_apns({"aps": {"alert": 3}}))
        self.assertTrue(check_apns({"aps": {"alert": "x"}, "d": "y" * 4096}))
        self.assertEqual(check_apns({"aps": {"alert": "x"}}, raw='{"aps":{"alert":"x"}}'), [])


class CheckGoldens(unittest.TestCase):
    def test_counts_and_exit_status(self):
        good = {"topic": "push.apns", "format": "apns", "key": None, "headers": [], "value": {"aps": {"alert": "B"}}}
        bad = dict(good, value={"aps": {"alert": {"foo": 1}}})
        dead = dict(good, format=None, value="{}")
        with tempfile.TemporaryDirectory() as root:
            golden = os.path.join(root, "Tests", "PushTranslationTests", "Golden")
            os.makedirs(golden)
            with open(os.path.join(golden, "x.expected.jsonl"), "w", encoding="utf-8") as handle:
                for record in (good, bad, dead):
                    handle.write(json.dumps(record, separators=(",", ":")) + "\n")
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                status = check_goldens.main(["--root", root])
        lines = out.getvalue().splitlines()
        self.assertEqual(status, 1)
        self.assertEqual(lines[-1], "1 passed, 1 failed")
        self.assertTrue(lines[0].startswith("FAIL x.expected.jsonl:2 "))

    def test_raw_value_keeps_numbers_as_written(self):
        line = '{"topic":"t","format":"apns","key":"\\"value\\":1","headers":[],"value":{"a":1.50}}'
        self.assertEqual(check_goldens.raw_value(line, {"a": 1.5}), '{"a":1.50}')


if __name__ == "__main__":
    unittest.main()
