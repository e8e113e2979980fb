"""Self-tests of the Facebook card model (RULES.md (a)). Adobe and APNs: test_real_parsers_adobe.py.

Each rule modelled has a test that fails if the rule were not modelled.
Run: python3 -m unittest discover -s Tests/Conformance
"""
import copy
import json
import os
import unittest

from real_parsers import (
    android_color, card_intent_problems, card_renders_same, ios_color, is_refusal,
    parse_card_android, parse_card_ios)

FIXTURES = os.environ.get(
    "PUSHGATE_FIXTURES", os.path.join(os.path.dirname(os.path.abspath(__file__)), "Fixtures"))
FB = os.path.join(FIXTURES, "fb_push_card")


def load(name):
    with open(os.path.join(FB, name), encoding="utf-8") as handle:
        return json.load(handle)


def spec_example():
    return load("spec_example_payload.json")


def with_card(**changes):
    """The spec example with top-level card keys changed (None deletes the key)."""
    payload = spec_example()
    for key, value in changes.items():
        if value is None:
            payload["fb_push_card"].pop(key, None)
        else:
            payload["fb_push_card"][key] = value
    return payload


def body_text(**changes):
    """The spec example with its body styled text changed (None deletes the key)."""
    payload = spec_example()
    content = payload["fb_push_card"]["body"]["content"]
    for key, value in changes.items():
        if value is None:
            content.pop(key, None)
        else:
            content[key] = value
    return payload


class RealExamplesAccepted(unittest.TestCase):
    def test_spec_example_renders_on_both_and_the_same(self):
        payload = spec_example()
        self.assertFalse(is_refusal(parse_card_ios(payload)))
        self.assertFalse(is_refusal(parse_card_android(payload)))
        self.assertEqual(card_renders_same(payload)[0], [])
        self.assertEqual(card_intent_problems(payload), [])

    def test_example_apps_render_on_their_platform_and_the_same(self):
        for number in range(1, 6):
            ios, android = load(f"ios_example{number}.json"), load(f"android_example{number}.json")
            with self.subTest(example=number):
                self.assertFalse(is_refusal(parse_card_ios(ios)), parse_card_ios(ios))
                self.assertFalse(is_refusal(parse_card_android(android)), parse_card_android(android))
                self.assertEqual(card_renders_same(ios)[0], [])

    def test_pre_fix_spec_example_is_not_json(self):
        with self.assertRaises(ValueError):
            load("spec_example_payload.pre-fix.INVALID.json")


class Envelope(unittest.TestCase):
    def test_a1_ios_needs_a_dictionary(self):
        payload = spec_example()
        payload["fb_push_card"] = json.dumps(payload["fb_push_card"])
        self.assertEqual(parse_card_ios(payload).rule, "A1")

    def test_a2_android_reads_the_card_from_a_json_string(self):
        payload = spec_example()
        payload["fb_push_card"] = json.dumps(payload["fb_push_card"])
        self.assertFalse(is_refusal(parse_card_android(payload)))
        self.assertEqual(parse_card_android({"fb_push_card": "{not json"}).rule, "A2")

    def test_a3_ios_version(self):
        for version in ("1.0", "1.0.7", "1.0-beta"):
            self.assertFalse(is_refusal(parse_card_ios(with_card(version=version))), version)
        for version in ("1", "1.1", "2.0", "0.9", None):
            self.assertEqual(parse_card_ios(with_card(version=version)).rule, "A3", version)

    def test_a4_android_version(self):
        for version in ("1.0", "1.0.0", "1", "1.0-beta", "0.9"):
            self.assertFalse(is_refusal(parse_card_android(with_card(version=version))), version)
        for version in ("1.0.1", "1.1", "2.0", "", "x", None):
            self.assertEqual(parse_card_android(with_card(version=version)).rule, "A4", version)

    def test_a3_a4_disagreement_is_a_failure(self):
        for version in ("1", "0.9", "1.0.1"):
            self.assertTrue(card_renders_same(with_card(version=version))[0], version)

    def test_a5_size(self):
        for size in ("Medium", "huge"):
            self.assertEqual(parse_card_ios(with_card(size=size)).kind, "not_shown")
            self.assertEqual(parse_card_android(with_card(size=size)).kind, "not_shown")
        self.assertEqual(parse_card_ios(with_card(size=None)).rule, "A5")
        self.assertEqual(parse_card_android(with_card(size=None)).rule, "A5")

    def test_a6_defaults(self):
        payload = with_card(cornerRadius=None, contentInset=None)
        for result in (parse_card_ios(payload), parse_card_android(payload)):
            self.assertEqual((result["cornerRadius"], result["contentInset"]), (0.0, 10.0))

    def test_a7_android_requires_backdrop_color(self):
        payload = with_card(backdropColor=None)
        self.assertEqual(parse_card_ios(payload)["backdropColor"], 0)
        self.assertEqual(parse_card_android(payload).rule, "A7")
        self.assertTrue(card_renders_same(payload)[0])

    def test_a8_dismiss_color_ios_only(self):
        self.assertEqual(parse_card_ios(spec_example())["dismissColor"], 0xFF000000)
        payload = with_card(dismissColor="#FF0000FF")
        self.assertEqual(parse_card_ios(payload)["dismissColor"], 0xFFFF0000)
        self.assertIsNone(parse_card_android(payload)["dismissColor"])
        problems, notes = card_renders_same(payload)
        self.assertEqual(problems, [])
        self.assertTrue(any(n.startswith("A8") for n in notes))


class Colors(unittest.TestCase):
    def test_a10_rgba_to_argb(self):
        self.assertEqual(ios_color("#ABABABFF"), 0xFFABABAB)
        self.assertEqual(android_color("#ABABABFF"), 0xFFABABAB)
        self.assertEqual(android_color("#11223344"), 0x44112233)

    def test_a11_six_digits_are_misread_the_same_way_and_flagged(self):
        self.assertEqual(ios_color("#FFFFFF"), 0xFF00FFFF)
        self.assertEqual(android_color("#FFFFFF"), 0xFF00FFFF)
        payload = with_card(backdropColor="#332D2D")
        self.assertEqual(card_renders_same(payload)[0], [])  # same on both ...
        self.assertTrue(card_intent_problems(payload))       # ... but not what was written

    def test_a12_invalid_hex(self):
        self.assertEqual(android_color("#12G45678"), 0)
        self.assertEqual(ios_color("#12G45678"), 0x12000000)  # NSScanner stops at G: 0x12
        self.assertIsNone(ios_color(0xFF))
        self.assertEqual(android_color(None), 0)
        self.assertTrue(card_renders_same(with_card(backdropColor="#12G45678"))[0])

    def test_a12_empty_color_crashes_ios(self):
        result = parse_card_ios(with_card(backdropColor=""))
        self.assertEqual((result.kind, result.rule), ("crash", "A12"))
        self.assertEqual(parse_card_android(with_card(backdropColor=""))["backdropColor"], 0)


class StyledText(unittest.TestCase):
    def test_a13_missing_color_is_black_on_ios_invisible_on_android(self):
        payload = body_text(color=None)
        self.assertEqual(parse_card_ios(payload)["body"]["content"]["color"], 0xFF000000)
        self.assertEqual(parse_card_android(payload)["body"]["content"]["color"], 0)
        self.assertTrue(card_renders_same(payload)[0])

    def test_a13_text_color_key_is_read_by_neither(self):
        payload = spec_example()
        content = payload["fb_push_card"]["body"]["content"]
        content["textColor"] = content.pop("color")
        self.assertTrue(card_renders_same(payload)[0])
        self.assertTrue(any("textColor" in p for p in card_intent_problems(payload)))

    def test_a14_alignment(self):
        missing = body_text(align=None)
        self.assertEqual(parse_card_ios(missing)["body"]["content"]["align"], "center")
        self.assertEqual(parse_card_android(missing)["body"]["content"]["align"], "center")
        self.assertEqual(card_renders_same(missing)[0], [])
        for unknown in ("justify", "Left"):
            payload = body_text(align=unknown)
            self.assertEqual(parse_card_ios(payload)["body"]["content"]["align"], "center")
            self.assertEqual(parse_card_android(payload)["body"]["content"]["align"], "left")
            self.assertTrue(card_renders_same(payload)[0])

    def test_a15_default_font_size_is_a_note_not_a_failure(self):
        payload = body_text(size=None)
        self.assertEqual(parse_card_ios(payload)["body"]["content"]["size"], 14.0)
        self.assertEqual(parse_card_android(payload)["body"]["content"]["size"], 18.0)
        problems, notes = card_renders_same(payload)
        self.assertEqual(problems, [])
        self.assertTrue(any(n.startswith("A15") for n in notes))

    def test_a16_missing_text_crashes_ios(self):
        payload = body_text(text=None)
        self.assertEqual(parse_card_ios(payload).kind, "crash")
        self.assertEqual(parse_card_android(payload)["body"]["content"]["text"], "")

    def test_a17_fonts(self):
        payload = body_text(font="SYSTEM-BOLD")
        self.assertEqual(parse_card_ios(payload)["body"]["content"]["font"], "system-bold")
        self.assertEqual(card_renders_same(payload)[0], [])
        payload = body_text(font="serif")
        self.assertEqual(parse_card_ios(payload)["body"]["content"]["font"], "system-regular")
        self.assertEqual(parse_card_android(payload)["body"]["content"]["font"], "family:serif")
        self.assertTrue(card_renders_same(payload)[0])


class Sections(unittest.TestCase):
    def test_a18_a19_hero_defaults(self):
        payload = spec_example()
        payload["fb_push_card"]["hero"]["contentAlign"] = "middle"
        for result in (parse_card_ios(payload), parse_card_android(payload)):
            self.assertEqual(result["hero"]["contentAlign"], "center")
            self.assertEqual(result["hero"]["height"], "unspecified")

    def test_a20_hero_and_body_need_a_background_on_android(self):
        for section in ("hero", "body"):
            payload = spec_example()
            del payload["fb_push_card"][section]["background"]
            self.assertFalse(is_refusal(parse_card_ios(payload)))
            self.assertEqual(parse_card_android(payload).rule, "A20")
            self.assertTrue(card_renders_same(payload)[0])

    def test_a21_asset_types(self):
        payload = spec_example()
        payload["fb_push_card"]["hero"]["background"]["_type"] = "gif"
        self.assertEqual(parse_card_ios(payload).kind, "hang")
        self.assertIsNone(parse_card_android(payload)["hero"]["background"])
        payload = spec_example()
        del payload["fb_push_card"]["body"]["background"]["rgbaHex"]
        self.assertEqual(parse_card_ios(payload).kind, "hang")
        payload = spec_example()
        del payload["fb_push_card"]["body"]["background"]["_type"]
        self.assertIsNone(parse_card_ios(payload)["body"]["background"])
        self.assertEqual(card_renders_same(payload)[0], [])

    def test_a22_a23_actions_defaults(self):
        payload = spec_example()
        actions = payload["fb_push_card"]["actions"]
        for key in ("layoutStyle", "contentInset", "cornerRadius"):
            del actions[key]
        actions["style"] = "floating"
        for result in (parse_card_ios(payload), parse_card_android(payload)):
            got = result["actions"]
            self.assertEqual((got["style"], got["layoutStyle"], got["height"], got["topInset"],
                              got["contentInset"], got["cornerRadius"]),
                             ("attached", "vertical", 44.0, 0.0, 0.0, 0.0))

    def test_a24_android_requires_the_actions_array(self):
        payload = spec_example()
        del payload["fb_push_card"]["actions"]["actions"]
        self.assertEqual(parse_card_ios(payload)["actions"]["actions"], [])
        self.assertEqual(parse_card_android(payload).rule, "A24")
        self.assertTrue(card_renders_same(payload)[0])

    def test_a25_button_defaults_and_unknown_keys(self):
        payload = copy.deepcopy(load("ios_example2.json"))  # has "title" and "actionsHeight"
        button = payload["fb_push_card"]["actions"]["actions"][0]
        del button["backgroundColor"]
        for result in (parse_card_ios(payload), parse_card_android(payload)):
            got = result["actions"]["actions"][0]
            self.assertEqual((got["backgroundColor"], got["borderColor"], got["borderWidth"], got["url"]),
                             (0, 0, 0.0, None))
        self.assertEqual(card_renders_same(payload)[0], [])


if __name__ == "__main__":
    unittest.main()
