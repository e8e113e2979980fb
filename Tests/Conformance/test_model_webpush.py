"""Each rule of model_webpush (RULES.md (g)) has a test that fails when the rule is removed; hand-made
wrong records fail the model."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from model_outcome import is_refusal  # noqa: E402
from model_webpush import (  # noqa: E402
    check_webpush, check_webpush_headers, parse_firefox, parse_webkit, webpush_intent_problems)

GOOD = {"web_push": 8030, "notification": {
    "title": "Sale", "lang": "en", "dir": "ltr", "body": "Two days", "navigate": "https://shop.example/sale",
    "icon": "https://shop.example/i.png", "tag": "t", "silent": True, "requireInteraction": True,
    "data": {"k": 1}, "actions": [{"action": "Cart", "title": "Cart", "navigate": "https://shop.example/cart"}]},
    "app_badge": 3, "mutable": True}


def changed(change):
    value = json.loads(json.dumps(GOOD))
    change(value)
    return value


class DeclarativeWebPushModelTests(unittest.TestCase):
    def test_a_complete_message_is_shown_by_both(self):
        self.assertEqual(check_webpush(GOOD, json.dumps(GOOD)), [])
        self.assertEqual(parse_webkit(GOOD)["title"], "Sale")
        self.assertEqual(parse_firefox(GOOD)["actions"], [{"title": "Cart", "navigate": "https://shop.example/cart"}])

    def test_g1_only_the_number_8030_at_the_top_makes_it_declarative(self):
        for magic in ("8030", 8031, True, None):
            value = changed(lambda v: v.__setitem__("web_push", magic))
            self.assertTrue(is_refusal(parse_webkit(value)), magic)
            self.assertTrue(check_webpush(value), magic)
        self.assertTrue(check_webpush({"message": GOOD}))
        self.assertTrue(check_webpush([GOOD]))

    def test_g2_title_is_required_and_not_empty(self):
        self.assertTrue(check_webpush(changed(lambda v: v["notification"].pop("title"))))
        self.assertTrue(is_refusal(parse_webkit(changed(lambda v: v["notification"].__setitem__("title", "")))))

    def test_g2_navigate_is_required_and_absolute(self):
        self.assertTrue(check_webpush(changed(lambda v: v["notification"].pop("navigate"))))
        relative = changed(lambda v: v["notification"].__setitem__("navigate", "/sale"))
        self.assertTrue(is_refusal(parse_webkit(relative)))
        self.assertFalse(is_refusal(parse_firefox(relative)))
        self.assertTrue(check_webpush(relative))
        self.assertTrue(check_webpush(changed(lambda v: v["notification"].__setitem__("navigate", "https://"))))

    def test_g2_an_http_url_has_a_port_of_at_most_65535_and_no_ipvfuture_host(self):
        for url in ("https://shop.example.com:99999/p", "https://shop.example.com:65536/", "https://[v1.shop]/",
                    "https://u@[V7.x]:80/", "https://[zzz]/"):
            for place in ("navigate", "icon"):
                value = changed(lambda v: v["notification"].__setitem__(place, url))
                self.assertTrue(is_refusal(parse_webkit(value)), (place, url))
                self.assertTrue(check_webpush(value), (place, url))
            action = changed(lambda v: v["notification"]["actions"][0].__setitem__("navigate", url))
            self.assertTrue(is_refusal(parse_firefox(action)), url)
        for url in ("https://shop.example.com:65535/p", "https://shop.example.com:000080/", "https://[::1]:8/",
                    "https://shop.example.com:/p"):
            self.assertEqual(check_webpush(changed(lambda v: v["notification"].__setitem__("navigate", url))), [], url)

    def test_g8_headers_and_apples_base64url_topic(self):
        good = {"webpush-ttl": "60", "webpush-urgency": "high", "webpush-topic": "price-drop-1"}
        self.assertEqual(check_webpush_headers(good), [])
        self.assertEqual(check_webpush_headers({"webpush-ttl": "0", "webpush-urgency": "low"}), [])
        for topic in ("a", "spike", "price-drop-17", "t" * 29):
            self.assertTrue(check_webpush_headers(dict(good, **{"webpush-topic": topic})), topic)
        for topic in ("ab", "abc", "abcd", "t" * 32):
            self.assertEqual(check_webpush_headers(dict(good, **{"webpush-topic": topic})), [], topic)
        self.assertTrue(check_webpush_headers(dict(good, **{"webpush-topic": "a b"})))
        self.assertTrue(check_webpush_headers(dict(good, **{"webpush-urgency": "urgent"})))
        self.assertTrue(check_webpush_headers(dict(good, **{"webpush-ttl": "-1"})))

    def test_g2_notification_is_an_object(self):
        self.assertTrue(check_webpush(changed(lambda v: v.__setitem__("notification", "Sale"))))

    def test_g3_dir_is_an_enum_in_webkit(self):
        value = changed(lambda v: v["notification"].__setitem__("dir", "up"))
        self.assertTrue(is_refusal(parse_webkit(value)))
        self.assertEqual(parse_firefox(value)["dir"], "auto")

    def test_g3_texts_are_strings(self):
        for key in ("lang", "body", "tag"):
            self.assertTrue(check_webpush(changed(lambda v: v["notification"].__setitem__(key, 1))), key)

    def test_g3_icon_is_an_absolute_url_and_silent_a_boolean(self):
        self.assertTrue(check_webpush(changed(lambda v: v["notification"].__setitem__("icon", "i.png"))))
        self.assertTrue(check_webpush(changed(lambda v: v["notification"].__setitem__("silent", "yes"))))

    def test_g4_actions_need_three_strings_and_a_valid_url(self):
        self.assertTrue(check_webpush(changed(lambda v: v["notification"]["actions"][0].pop("title"))))
        bad_url = changed(lambda v: v["notification"]["actions"][0].__setitem__("navigate", "http://a b"))
        self.assertTrue(is_refusal(parse_firefox(bad_url)))

    def test_g5_app_badge_is_an_unsigned_integer_at_the_top(self):
        for badge in (-1, 1.5, "x", 2 ** 64):
            self.assertTrue(check_webpush(changed(lambda v: v.__setitem__("app_badge", badge))), badge)
        inside = changed(lambda v: v["notification"].__setitem__("app_badge", v.pop("app_badge")))
        self.assertTrue(check_webpush(inside))
        self.assertEqual(parse_webkit(changed(lambda v: v.__setitem__("app_badge", "7")))["app_badge"], 7)

    def test_g6_mutable_is_a_boolean_beside_notification(self):
        self.assertTrue(check_webpush(changed(lambda v: v.__setitem__("mutable", "true"))))
        self.assertTrue(check_webpush(changed(lambda v: v["notification"].__setitem__("mutable", v.pop("mutable")))))

    def test_g7_the_value_is_at_most_3993_bytes(self):
        raw = json.dumps(GOOD, separators=(",", ":"))
        padded = raw[:-1] + " " * (3993 - len(raw)) + "}"
        self.assertEqual(check_webpush(GOOD, padded), [])
        self.assertTrue(check_webpush(GOOD, padded[:-1] + " }"))

    def test_false_flags_are_not_written(self):
        self.assertTrue(check_webpush(changed(lambda v: v["notification"].__setitem__("requireInteraction", False))))

    def test_the_shown_notification_is_what_the_payload_meant(self):
        payload = {"message": {"title": "Sale", "body": "Two days"}, "collapse_id": "t", "data": {"k": 1},
                   "actions": [{"type": "url", "name": "Cart", "value": "https://shop.example/cart"},
                               {"type": "dial", "name": "Call", "value": "1"}],
                   "web": {"navigate": "https://shop.example/sale", "icon": "https://shop.example/i.png",
                           "lang": "en", "dir": "ltr", "silent": True, "require_interaction": True,
                           "app_badge": 3, "mutable": True}}
        self.assertEqual(webpush_intent_problems(payload, GOOD), [])
        self.assertTrue(webpush_intent_problems(payload, changed(lambda v: v["notification"].pop("body"))))
        self.assertTrue(webpush_intent_problems(payload, changed(lambda v: v["notification"].pop("actions"))))
        self.assertTrue(webpush_intent_problems(payload, changed(lambda v: v.pop("mutable"))))
        self.assertTrue(webpush_intent_problems(
            payload, changed(lambda v: v["notification"].__setitem__("navigate", "https://shop.example/"))))

    def test_navigate_comes_from_an_http_url_action_without_web_navigate(self):
        payload = {"message": {"title": "T"}, "action": {"type": "url", "value": "https://a.example/x"}}
        value = {"web_push": 8030, "notification": {"title": "T", "navigate": "https://a.example/x"}}
        self.assertEqual(webpush_intent_problems(payload, value), [])
        self.assertTrue(webpush_intent_problems({"message": {"title": "T"}}, value))


if __name__ == "__main__":
    unittest.main()
