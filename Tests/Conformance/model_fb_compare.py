"""Does an fb-card payload render the same on iOS and Android, and as its author meant?

What counts as "renders differently" (see README.md in this folder):
- FAIL: either parser refuses, crashes, hangs or lays the card out at 0x0; any visible value of the
  two renderings differs (a color, a text, an alignment, a font, a size, an inset, a background).
- NOTE (accepted, documented known differences, not failures):
  * A15 a styled text without `size`: iOS draws 14 pt, Android 18 sp. SPEC 5.3 does not make
    pushgate write a default size, so this is accepted.
  * A8 `dismissColor`: only iOS reads it; Android's dismiss button ignores any payload.
  * a button with no content and transparent colors: an invisible tap area, the same on both.
Separately, card_intent_problems flags payloads both parsers read the same way but not as written:
colors that are not `#RRGGBBAA` (A10/A11 misread) and `textColor` (A13, read by neither parser).
"""
import re

from model_fb_card import parse_card_android, parse_card_ios
from model_outcome import is_refusal

COLOR_KEYS = ("backdropColor", "dismissColor", "rgbaHex", "color", "backgroundColor", "borderColor")


def _show(value):
    if isinstance(value, int) and not isinstance(value, bool) and value > 0xFFFF:
        return f"0x{value:08X}"
    return repr(value)


def _diff(ios, android, path, problems, notes):
    if isinstance(ios, dict) and isinstance(android, dict):
        both_default = ios.get("size_defaulted") and android.get("size_defaulted")
        for key in ios.keys() | android.keys():
            sub = f"{path}.{key}" if path else key
            if key == "size_defaulted" or key == "dismissColor":
                continue
            if key == "size" and both_default:
                notes.append(f"A15: {sub} not given: iOS draws {ios[key]:g} pt, Android {android[key]:g} sp")
                continue
            _diff(ios.get(key), android.get(key), sub, problems, notes)
    elif isinstance(ios, list) and isinstance(android, list) and len(ios) == len(android):
        for index, (a, b) in enumerate(zip(ios, android)):
            _diff(a, b, f"{path}[{index}]", problems, notes)
    elif isinstance(ios, tuple) and isinstance(android, tuple) and len(ios) == len(android):
        for a, b in zip(ios, android):
            _diff(a, b, path, problems, notes)
    elif ios != android:
        problems.append(f"renders differently at {path}: iOS {_show(ios)}, Android {_show(android)}")


def card_renders_same(payload):
    """Return (problems, notes) comparing the iOS and Android renderings of one fb-card payload."""
    ios, android = parse_card_ios(payload), parse_card_android(payload)
    problems, notes = [], []
    for platform, result in (("iOS", ios), ("Android", android)):
        if is_refusal(result):
            problems.append(f"{result.rule}: {platform} {result.kind}: {result.message}")
    if problems:
        return problems, notes
    _diff(ios, android, "", problems, notes)
    card = payload["fb_push_card"]
    if "dismissColor" in card:
        notes.append(f"A8: dismissColor {card['dismissColor']!r} is honoured on iOS only")
    for index, button in enumerate((ios.get("actions") or {}).get("actions", [])):
        if button["content"] is None and button["backgroundColor"] >> 24 == 0 \
                and (button["borderColor"] >> 24 == 0 or button["borderWidth"] == 0):
            notes.append(f"actions.actions[{index}] has no content and no visible color: invisible button")
    return problems, notes


def _walk(node, path):
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _walk(value, f"{path}.{key}" if path else key)
        yield path, node
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk(value, f"{path}[{index}]")


def card_intent_problems(payload):
    """Problems both parsers share: misread colors (A10/A11) and `textColor` (A13)."""
    problems = []
    card = payload.get("fb_push_card") if isinstance(payload, dict) else None
    for path, node in _walk(card, "fb_push_card"):
        for key in COLOR_KEYS:
            value = node.get(key)
            if isinstance(value, str) and not re.fullmatch(r"#[0-9A-Fa-f]{8}", value):
                problems.append(f"A10/A11: {path}.{key} {value!r} is not #RRGGBBAA: both parsers misread it")
        if "textColor" in node:
            problems.append(f"A13: {path}.textColor is read by neither parser (the key is `color`)")
    return problems


def check_card(payload):
    """All card problems and notes of one fb-card payload."""
    problems, notes = card_renders_same(payload)
    return problems + card_intent_problems(payload), notes
