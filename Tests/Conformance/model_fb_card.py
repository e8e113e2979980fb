"""Facebook in-app card parsers, iOS and Android (RULES.md (a) A1-A25), and their comparison.

parse_card_ios / parse_card_android take the fb-card APNs payload (a golden line's `value`) and
return either a Refusal or a normalized rendering:
  {size, cornerRadius, contentInset, backdropColor, dismissColor, hero, body, actions}
with colors as ARGB ints, backgrounds as (kind, url-or-ARGB) and styled text as dicts.
"""
import json

from model_fb_values import (
    BLACK, TRANSPARENT, android_asset, android_color, android_text, android_version_check,
    ios_asset, ios_color, ios_text, ios_version_check, java_get_string, java_opt_string, number_or)
from model_outcome import Refusal

SIZES = ("small", "medium", "large")
CONTENT_ALIGNS = ("top", "center", "bottom")


def _choice(value, allowed, default):
    return value if value in allowed else default


def _clear(color):
    """iOS nil colors on backdrop and buttons draw nothing: the same as Android's 0."""
    return TRANSPARENT if color is None else color


# --- iOS --------------------------------------------------------------------------------------

def parse_card_ios(payload):
    try:
        return _ios_card(payload)
    except Refusal as refusal:
        return refusal


def _ios_card(payload):
    card = payload.get("fb_push_card") if isinstance(payload, dict) else None
    if not isinstance(card, dict):
        raise Refusal("refused", "A1", "userInfo[fb_push_card] is not a dictionary")
    ios_version_check(card.get("version"))
    if card.get("size") not in SIZES:
        raise Refusal("not_shown", "A5", f"size {card.get('size')!r} invalid: card laid out at 0x0")
    dismiss = ios_color(card.get("dismissColor"))
    return {
        "size": card["size"],
        "cornerRadius": number_or(card.get("cornerRadius"), 0.0),
        "contentInset": number_or(card.get("contentInset"), 10.0),
        "backdropColor": _clear(ios_color(card.get("backdropColor"))),   # A7: nil => clear
        "dismissColor": BLACK if dismiss is None else dismiss,            # A8
        "hero": _ios_hero(card.get("hero")),
        "body": _ios_body(card.get("body")),
        "actions": _ios_actions(card.get("actions")),
    }


def _ios_hero(hero):
    if not isinstance(hero, dict):
        return None
    height = hero.get("height")
    return {
        "height": number_or(height, "unspecified"),          # A19 (CGFLOAT_MAX)
        "background": ios_asset(hero.get("background")),    # A20: optional on iOS
        "content": ios_text(hero.get("content")),
        "contentAlign": _choice(hero.get("contentAlign"), CONTENT_ALIGNS, "center"),  # A18
    }


def _ios_body(body):
    if not isinstance(body, dict):
        return None
    return {"background": ios_asset(body.get("background")), "content": ios_text(body.get("content"))}


def _ios_actions(actions):
    if not isinstance(actions, dict):
        return None
    buttons = actions.get("actions")
    buttons = buttons if isinstance(buttons, list) else []   # A24: missing => empty list
    return {
        "style": _choice(actions.get("style"), ("attached", "detached"), "attached"),            # A22
        "layoutStyle": _choice(actions.get("layoutStyle"), ("vertical", "horizontal"), "vertical"),
        "background": ios_asset(actions.get("background")),
        "height": number_or(actions.get("height"), 44.0),                                        # A23
        "topInset": number_or(actions.get("topInset"), 0.0),
        "contentInset": number_or(actions.get("contentInset"), 0.0),
        "cornerRadius": number_or(actions.get("cornerRadius"), 0.0),
        "actions": [_ios_button(b) for b in buttons if isinstance(b, dict)],
    }


def _ios_button(button):
    url = button.get("url")
    return {                                                                                    # A25
        "backgroundColor": _clear(ios_color(button.get("backgroundColor"))),
        "borderColor": _clear(ios_color(button.get("borderColor"))),
        "borderWidth": number_or(button.get("borderWidth"), 0.0),
        "content": ios_text(button.get("content")),
        "url": url if isinstance(url, str) else None,
    }


# --- Android ----------------------------------------------------------------------------------

def parse_card_android(payload):
    try:
        return _android_card(payload)
    except Refusal as refusal:
        return refusal


def _android_bundle_card(payload):
    """A2: the GCM bundle carries fb_push_card as a JSON *string*; new JSONObject(string)."""
    if not isinstance(payload, dict) or "fb_push_card" not in payload:
        raise Refusal("refused", "A2", "no fb_push_card in the bundle (canPresentCard false)")
    raw = payload["fb_push_card"]
    text = raw if isinstance(raw, str) else json.dumps(raw, ensure_ascii=False)
    try:
        card = json.loads(text)
    except ValueError:
        raise Refusal("refused", "A2", "fb_push_card string is not JSON") from None
    if not isinstance(card, dict):
        raise Refusal("refused", "A2", "fb_push_card is not a JSON object")
    return card


def _android_card(payload):
    card = _android_bundle_card(payload)
    android_version_check(card)
    size = java_get_string(card, "size", "A5")
    if size not in SIZES:
        raise Refusal("not_shown", "A5", f"size {size!r} invalid: card laid out at 0x0")
    backdrop = java_get_string(card, "backdropColor", "A7")
    return {
        "size": size,
        "cornerRadius": number_or(card.get("cornerRadius"), 0.0),
        "contentInset": number_or(card.get("contentInset"), 10.0),
        "backdropColor": android_color(backdrop),
        "dismissColor": None,                                   # A8: never parsed on Android
        "hero": _android_hero(card.get("hero")),
        "body": _android_body(card.get("body")),
        "actions": _android_actions(card.get("actions")),
    }


def _required_background(section, name):
    if not isinstance(section.get("background"), dict):
        raise Refusal("refused", "A20", f"{name} without `background`: getJSONObject throws on Android")
    return android_asset(section["background"])


def _android_hero(hero):
    if not isinstance(hero, dict):
        return None
    return {
        "height": number_or(hero.get("height"), "unspecified"),   # A19 (-1)
        "background": _required_background(hero, "hero"),
        "content": android_text(hero.get("content")),
        "contentAlign": _choice(java_opt_string(hero, "contentAlign"), CONTENT_ALIGNS, "center"),
    }


def _android_body(body):
    if not isinstance(body, dict):
        return None
    return {"background": _required_background(body, "body"),
            "content": android_text(body.get("content"))}


def _android_actions(actions):
    if not isinstance(actions, dict):
        return None
    buttons = actions.get("actions")
    if not isinstance(buttons, list):
        raise Refusal("refused", "A24", "actions without an `actions` array: getJSONArray throws on Android")
    if not all(isinstance(b, dict) for b in buttons):
        raise Refusal("refused", "A24", "an `actions` element is not an object: getJSONObject throws")
    return {
        "style": _choice(java_opt_string(actions, "style"), ("attached", "detached"), "attached"),
        "layoutStyle": _choice(java_opt_string(actions, "layoutStyle"), ("vertical", "horizontal"), "vertical"),
        "background": android_asset(actions.get("background")),
        "height": number_or(actions.get("height"), 44.0),
        "topInset": number_or(actions.get("topInset"), 0.0),
        "contentInset": number_or(actions.get("contentInset"), 0.0),
        "cornerRadius": number_or(actions.get("cornerRadius"), 0.0),
        "actions": [_android_button(b) for b in buttons],
    }


def _android_button(button):
    url = java_opt_string(button, "url", None)
    return {
        "backgroundColor": android_color(java_opt_string(button, "backgroundColor")),
        "borderColor": android_color(java_opt_string(button, "borderColor")),
        "borderWidth": number_or(button.get("borderWidth"), 0.0),
        "content": android_text(button.get("content")),
        "url": url,
    }
