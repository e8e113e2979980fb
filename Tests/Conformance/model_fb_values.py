"""Value-level behaviour of the Facebook card parsers (RULES.md (a), A3-A4, A10-A17, A21).

Every color is returned as a 32-bit ARGB int (0xAARRGGBB), the form Android uses, so that the two
platforms can be compared directly. iOS `nil` colors are returned as None; the caller decides what
nil means for that field (clear, black, ...).
"""
import json
import re

from model_outcome import Refusal, is_number

BLACK = 0xFF000000
TRANSPARENT = 0x00000000
FONTS = ("system-regular", "system-light", "system-bold", "system-italic", "system-bolditalic")
ALIGNS = ("left", "center", "right")
IOS_DEFAULT_FONT_SIZE = 14.0     # A15: [UIFont systemFontSize]
ANDROID_DEFAULT_FONT_SIZE = 18.0  # A15: 18 sp


def _rgba_to_argb(value):
    """A10: both parsers read the hex as RRGGBBAA and move the low byte (alpha) to the top."""
    value &= 0xFFFFFFFF
    return ((value >> 8) | ((value & 0xFF) << 24)) & 0xFFFFFFFF


def _drop_first_utf16_unit(text):
    """`substringFromIndex:1` / `substring(1)` drop one UTF-16 unit, not one character."""
    if ord(text[0]) > 0xFFFF:
        return "\udc00" + text[1:]  # the lone low surrogate left behind is not a hex digit
    return text[1:]


def ios_color(value):
    """A10-A12 [iOS] FBNCardColorFromRGBAHex: non-string => None (nil); "" => crash;
    else drop the first character and NSScanner-scan hex (partial value, 0 when nothing scans)."""
    if not isinstance(value, str):
        return None
    if value == "":
        raise Refusal("crash", "A12", "empty color string: substringFromIndex:1 throws on iOS")
    rest = _drop_first_utf16_unit(value).lstrip(" \t\n\r\x0b\x0c\x85\u00a0")
    if rest[:2] in ("0x", "0X"):
        rest = rest[2:]
    digits = re.match(r"[0-9A-Fa-f]*", rest).group(0)
    number = int(digits, 16) if digits else 0
    if number > 0xFFFFFFFFFFFFFFFF:  # scanHexLongLong saturates on overflow
        number = 0xFFFFFFFFFFFFFFFF
    return _rgba_to_argb(number)


def android_color(value):
    """A10-A12 [AND] ColorAssetHandler.fromRGBAHex: null or "" => 0; else drop the first
    character, Long.parseLong(hex, 16) (NumberFormatException => 0), flip alpha to the top."""
    if value is None or value == "":
        return TRANSPARENT
    rest = _drop_first_utf16_unit(value)
    if not re.fullmatch(r"[+-]?[0-9A-Fa-f]+", rest):
        return TRANSPARENT
    number = int(rest, 16)
    if not -(2 ** 63) <= number < 2 ** 63:
        return TRANSPARENT
    return ((number >> 8) | ((number & 0xFF) << 24)) & 0xFFFFFFFF


def java_opt_string(obj, key, fallback=""):
    """org.json JSONObject.optString: missing or null => fallback; non-strings are stringified."""
    value = obj.get(key)
    if value is None:
        return fallback
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return str(value)


def java_get_string(obj, key, rule):
    """org.json JSONObject.getString: missing => JSONException (the card is refused)."""
    if key not in obj:
        raise Refusal("refused", rule, f"`{key}` missing: getString throws JSONException on Android")
    return java_opt_string(obj, key, "null")


def number_or(value, default):
    """Numeric field with a default (A6, A19, A23, A25): both parsers read JSON numbers as is."""
    return float(value) if is_number(value) else default


# --- version (A3, A4) -------------------------------------------------------------------------

def ios_version_check(version):
    """A3: sscanf("%u.%u.%u") must read >= 2 numbers; accept iff major == 1 and minor <= 0."""
    if not isinstance(version, str):
        raise Refusal("refused", "A3", f"version {version!r} missing or not a string")
    match = re.match(r"\s*([+-]?\d+)\.\s*([+-]?\d+)", version)
    if not match:
        raise Refusal("refused", "A3", f"version {version!r}: fewer than 2 numbers")
    major, minor = (int(g) % (1 << 32) for g in match.groups())  # %u wraps negatives
    if major != 1 or minor > 0:
        raise Refusal("refused", "A3", f"version {version!r} is not 1.0.x")


def _wrap32(number):
    return (number + (1 << 31)) % (1 << 32) - (1 << 31)


def _java_next_int(tokens, index):
    if index >= len(tokens) or not re.fullmatch(r"[+-]?\d+", tokens[index]):
        raise LookupError
    number = int(tokens[index])
    if not -(2 ** 31) <= number < 2 ** 31:
        raise LookupError
    return number


def android_version_check(card):
    """A4: Version.parse (Scanner split at '.', nextInt x3) then compareTo(1.0.0) > 0 => refused."""
    version = java_get_string(card, "version", "A4")
    tokens = [t for t in version.split(".") if t != ""]
    low = -(2 ** 31)
    major, minor, patch = low, low, 0
    try:
        major = _java_next_int(tokens, 0)
        minor = _java_next_int(tokens, 1)
        patch = _java_next_int(tokens, 2)
    except LookupError:
        if major == low and minor == low:
            raise Refusal("refused", "A4", f"version {version!r} does not parse") from None
    for diff in (_wrap32(major - 1), _wrap32(minor - 0), _wrap32(patch - 0)):
        if diff != 0:
            if diff > 0:
                raise Refusal("refused", "A4", f"version {version!r} is newer than 1.0.0")
            return


# --- styled text (A13-A17) --------------------------------------------------------------------

def ios_text(content):
    """A13-A17 [iOS] FBNCardTextContent. None when there is no content dictionary."""
    if not isinstance(content, dict):
        return None
    text = content.get("text")
    if not isinstance(text, str):
        raise Refusal("crash", "A16", "styled text without `text`: initWithString:nil throws on iOS")
    color = ios_color(content.get("color"))
    size = content.get("size")
    font = content.get("font")
    font = font.lower() if isinstance(font, str) and font.lower() in FONTS else "system-regular"
    return {
        "text": text,
        "color": BLACK if color is None else color,
        "size": float(size) if is_number(size) else IOS_DEFAULT_FONT_SIZE,
        "size_defaulted": not is_number(size),
        "align": content.get("align") if content.get("align") in ALIGNS else "center",
        "font": font,
    }


def android_text(content):
    """A13-A17 [AND] TextContent. None when there is no content object."""
    if not isinstance(content, dict):
        return None
    size = content.get("size")
    align = java_opt_string(content, "align", "center")
    font = java_opt_string(content, "font", "")
    if font.lower() in FONTS:
        font = font.lower()
    elif font:
        font = "family:" + font  # Typeface.create(name, NORMAL)
    else:
        font = "system-regular"
    return {
        "text": java_opt_string(content, "text", ""),
        "color": android_color(java_opt_string(content, "color")),
        "size": float(size) if is_number(size) else ANDROID_DEFAULT_FONT_SIZE,
        "size_defaulted": not is_number(size),
        "align": align if align in ALIGNS else "left",
        "font": font,
    }


# --- backgrounds (A21) ------------------------------------------------------------------------

def ios_asset(asset):
    """A21 [iOS]: missing `_type` => no background; unknown `_type` or a Color without a string
    rgbaHex => the completion is never called (hang); Image/GIF without a string url => none."""
    if not isinstance(asset, dict) or "_type" not in asset:
        return None
    kind = asset["_type"]
    if kind == "Color":
        if not isinstance(asset.get("rgbaHex"), str):
            raise Refusal("hang", "A21", "Color asset without a string rgbaHex: iOS load never finishes")
        return ("Color", ios_color(asset["rgbaHex"]))
    if kind in ("Image", "GIF"):
        return (kind, asset["url"]) if isinstance(asset.get("url"), str) else None
    raise Refusal("hang", "A21", f"asset _type {kind!r} unknown: iOS load never finishes")


def android_asset(asset):
    """A21 [AND] AssetManager.inflateAsset: unknown or missing `_type` => no background."""
    if not isinstance(asset, dict):
        return None
    kind = java_opt_string(asset, "_type", "")
    if kind == "Color":
        if "rgbaHex" not in asset:
            return None  # getString throws, ColorAssetHandler logs and returns null
        return ("Color", android_color(java_opt_string(asset, "rgbaHex", "null")))
    if kind in ("Image", "GIF"):
        return (kind, asset["url"]) if isinstance(asset.get("url"), str) else None
    return None
