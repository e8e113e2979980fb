"""An independent model of the real client parsers, written from Tests/Conformance/Fixtures/RULES.md
(not from pushgate's Swift code). Python 3.11, standard library only.

Public API:
  parse_card_ios(payload), parse_card_android(payload)   -> rendering dict | Refusal     (RULES (a))
  card_renders_same(payload)                              -> (problems, notes)
  card_intent_problems(payload)                           -> problems (misread colors, textColor)
  parse_carousel_ios(payload)                             -> rendering dict | Refusal     (C1-C7)
  carousel_payload_ios(user_info, title, body)            -> CarouselPayload(from:) model (C2-C6)
  parse_carousel_android(fcm_data), to_fcm_data(payload)  -> rendering dict | Refusal     (C8-C16)
  check_apns(payload, raw=None)                           -> problems (aps, alert keys, 4096 bytes)
  check_fcm(payload, raw=None)                            -> problems (FCM's documented Message rules)
  check_live_activity(payload, raw=None, headers=None)    -> problems (Apple's Live Activity push rules)
  check_webpush(payload, raw=None)                        -> problems (WebKit's and Firefox's declarative parsers)
  check_webpush_headers(headers)                          -> problems of webpush-* headers (G8, Apple's Topic)
  check_record(format, payload, raw=None, headers=None)   -> (problems, notes) for one golden value

Modules: model_outcome (Refusal), model_fb_values (colors, version, text, assets), model_fb_card
(the two card parsers), model_fb_compare (what "renders the same" means), model_adobe (carousel
parsers), model_adobe_check (carousel conformance), model_apns (envelopes), model_fcm (FCM request
bodies), model_webpush (declarative web push in WebKit and Firefox).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from model_adobe import (  # noqa: E402
    android_hex_color, carousel_payload_ios, ios_hex_color, parse_carousel_android,
    parse_carousel_ios, to_fcm_data)
from model_adobe_check import check_carousel  # noqa: E402
from model_apns import check_android_expandable, check_apns  # noqa: E402
from model_fb_card import parse_card_android, parse_card_ios  # noqa: E402
from model_fb_compare import card_intent_problems, card_renders_same, check_card  # noqa: E402
from model_fb_values import android_color, ios_color  # noqa: E402
from model_fcm import check_fcm  # noqa: E402
from model_live_activity import check_live_activity, is_live_activity  # noqa: E402
from model_outcome import Refusal, is_refusal  # noqa: E402
from model_webpush import (  # noqa: E402
    check_webpush, check_webpush_headers, parse_firefox, parse_webkit, webpush_intent_problems)

__all__ = [
    "Refusal", "is_refusal", "parse_card_ios", "parse_card_android", "card_renders_same",
    "card_intent_problems", "check_card", "parse_carousel_ios", "carousel_payload_ios",
    "parse_carousel_android", "to_fcm_data", "check_carousel", "check_apns",
    "check_android_expandable", "check_record", "ios_color", "android_color", "ios_hex_color",
    "android_hex_color", "check_fcm", "check_live_activity", "is_live_activity", "check_webpush", "parse_webkit",
    "parse_firefox", "webpush_intent_problems", "check_webpush_headers",
]


def check_record(fmt, payload, raw=None, headers=None):
    """(problems, notes) for one emitted value of format `fmt`; raw is its text as written, headers a
    dict of the record's headers when known (a Live Activity push is told by its `apns-push-type`)."""
    if fmt == "apns":
        if is_live_activity(payload, headers):
            return check_live_activity(payload, raw, headers), []
        return check_apns(payload, raw), []
    if fmt == "adobe-carousel":
        problems, notes = check_carousel(payload)
        return check_apns(payload, raw) + problems, notes
    if fmt == "fb-card":
        problems, notes = check_card(payload)
        return check_apns(payload, raw) + problems, notes
    if fmt == "android-expandable":
        return check_android_expandable(payload, raw), []
    if fmt == "fcm":
        return check_fcm(payload, raw), []
    if fmt == "webpush":
        notes = [] if isinstance(payload, dict) and "mutable" not in payload else [
            "mutable at the top level: WebKit reads it there, Firefox inside notification (G6)"]
        header_problems = check_webpush_headers(headers) if headers is not None else []
        return check_webpush(payload, raw) + header_problems, notes
    return [f"unknown format {fmt!r}"], []
