"""Adobe carousel template parsers (RULES.md (c)): iOS C1-C7 and Android C8-C16.

The golden payload is the iOS APNs form. parse_carousel_ios models AEPNotificationContent.
parse_carousel_android models aepsdk-ui-android on the FCM data map that carries the same keys
(to_fcm_data: every value a string, adb_items JSON-encoded (C8), title/body from aps.alert (C9)).
"""
import json
import re

from model_outcome import Refusal

ANDROID_REQUIRED = ("adb_version", "adb_title", "adb_body", "adb_car_layout", "adb_items")  # C10
ANDROID_MIN_IMAGES = 3  # C15
COLOR_KEYS = ("adb_clr_title", "adb_clr_body", "adb_clr_bg")


def alert_title_body(payload):
    """UNNotificationContent title/body from aps.alert (a string alert is the body)."""
    alert = (payload.get("aps") or {}).get("alert") if isinstance(payload.get("aps"), dict) else None
    if isinstance(alert, str):
        return "", alert
    if isinstance(alert, dict):
        title, body = alert.get("title"), alert.get("body")
        return (title if isinstance(title, str) else "", body if isinstance(body, str) else "")
    return "", ""


def ios_hex_color(value):
    """C6 UIColor(hexString:): trim, drop every '#', exactly 6 or 8 hex => (R, G, B, A); else None."""
    if not isinstance(value, str):
        return None
    hexs = value.strip(" \t\n\r\x0b\x0c\x85\u00a0").replace("#", "")
    if not re.fullmatch(r"[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8}", hexs):
        return None
    number = int(hexs, 16)
    if len(hexs) == 6:
        return (number >> 16, (number >> 8) & 0xFF, number & 0xFF, 0xFF)
    return (number >> 24, (number >> 16) & 0xFF, (number >> 8) & 0xFF, number & 0xFF)


def android_hex_color(value):
    """C16 Color.parseColor("#" + value): #RRGGBB or #AARRGGBB => (R, G, B, A); else None."""
    text = "#" + value
    if re.fullmatch(r"#[0-9A-Fa-f]{6}", text):
        number = int(text[1:], 16)
        return (number >> 16, (number >> 8) & 0xFF, number & 0xFF, 0xFF)
    if re.fullmatch(r"#[0-9A-Fa-f]{8}", text):
        number = int(text[1:], 16)
        return ((number >> 16) & 0xFF, (number >> 8) & 0xFF, number & 0xFF, number >> 24)
    return None


# --- iOS --------------------------------------------------------------------------------------

def carousel_payload_ios(user_info, title, body):
    """C2-C6 CarouselPayload(from:): a rendering dict, or Refusal("fallback") when it is nil."""
    items = user_info.get("adb_items")
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise Refusal("fallback", "C4", "adb_items is not an array of dictionaries")
    title_ex = user_info.get("adb_title_ex")
    item_title = title_ex if isinstance(title_ex, str) else title
    kept = []
    for index, item in enumerate(items):
        img = item.get("img")
        if not isinstance(img, str) or img == "":
            continue  # C4: dropped
        txt, uri = item.get("txt"), item.get("uri")
        kept.append({"index": index, "img": img, "title": item_title,
                     "body": txt if isinstance(txt, str) else body,          # C5
                     "uri": uri if isinstance(uri, str) else None})
    if not kept:
        raise Refusal("fallback", "C4", "no carousel item has a usable `img`")
    mode = user_info.get("adb_car_mode")
    return {
        "mode": mode if mode in ("auto", "manual") else "auto",              # C3
        "items": kept,
        "colors": {key: ios_hex_color(user_info.get(key)) for key in COLOR_KEYS},
        "uri": user_info.get("adb_uri"),
    }


def parse_carousel_ios(payload):
    """C1 template choice, then C2-C6. Returns a rendering or a Refusal (kind "fallback")."""
    try:
        kind = payload.get("adb_template_type")
        if kind != "car":
            raise Refusal("fallback", "C1", f"adb_template_type {kind!r} does not select the carousel")
        title, body = alert_title_body(payload)
        return carousel_payload_ios(payload, title, body)
    except Refusal as refusal:
        return refusal


# --- Android ----------------------------------------------------------------------------------

def to_fcm_data(payload):
    """The FCM data map with the same keys (C8, C9): strings only, adb_items JSON-encoded."""
    title, body = alert_title_body(payload)
    data = {"adb_title": title or None, "adb_body": body or None}
    for key, value in payload.items():
        if key == "aps" or value is None:
            continue
        name = "adb_image" if key == "adb_media" else key
        data[name] = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return {k: v for k, v in data.items() if v is not None}


def _android_items(text):
    """C14 parseCarouselItemsFromString: bad JSON => []; the first item without img stops."""
    try:
        array = json.loads(text)
    except ValueError:
        return []
    if not isinstance(array, list):
        return []
    items = []
    for index, item in enumerate(array):
        if not isinstance(item, dict) or "img" not in item:
            break  # JSONException ends the loop, later items are lost
        img, txt, uri = (item.get(k) for k in ("img", "txt", "uri"))
        items.append({"index": index, "img": str(img),
                      "txt": txt if isinstance(txt, str) else "",
                      "uri": uri if isinstance(uri, str) and uri else None})
    return items


def parse_carousel_android(data):
    """C10-C16 on an FCM data map. Returns a rendering, or a Refusal (exception or fallback)."""
    try:
        if data.get("adb_template_type") != "car":
            raise Refusal("fallback", "C11", "adb_template_type is not `car`")
        for key in ANDROID_REQUIRED:
            if data.get(key) is None:
                raise Refusal("refused", "C10", f"Required push template key {key} not found or null")
        items = _android_items(data["adb_items"])
        mode = data.get("adb_car_mode", "auto")
        rendering = {
            "mode": "auto" if mode == "auto" else "manual",                       # C12
            "layout": "filmstrip" if data["adb_car_layout"] == "filmstrip" else "default",  # C13
            "items": items,
            "colors": {k: android_hex_color(data[k]) if k in data else None for k in COLOR_KEYS},
        }
        if len(items) < ANDROID_MIN_IMAGES:
            rendering["fallback"] = f"C15: {len(items)} images < {ANDROID_MIN_IMAGES}: basic notification"
        return rendering
    except Refusal as refusal:
        return refusal
