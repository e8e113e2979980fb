"""Conformance of one adobe-carousel payload to the real Adobe parsers (RULES.md (c)).

FAIL: iOS falls back (C1, C4) or drops an item (C4); C7 `aps` keys wrong; Android would throw
(C10 required keys) or parse the keys both forms share differently: items (C14), mode (C3 vs C12),
colors (C6 vs C16: only 6 hex digits without '#' read the same on both).
NOTE (documented known differences; the format is iOS-only, SPEC 5.2): fewer than 3 items (Android
C15 falls back to a basic notification), `filmstrip` layout (iOS ignores adb_car_layout, C2),
items without `txt` (iOS shows the alert body, Android an empty caption: C5 vs C14),
`adb_title_ex` (iOS-only, C9).
"""
from model_adobe import COLOR_KEYS, parse_carousel_android, parse_carousel_ios, to_fcm_data
from model_outcome import is_refusal


def _aps_problems(payload):
    aps = payload.get("aps") if isinstance(payload.get("aps"), dict) else {}
    problems = []
    if aps.get("category") != "AEPNotification":
        problems.append(f"C7: aps.category is {aps.get('category')!r}, not 'AEPNotification'")
    mutable = aps.get("mutable-content")
    if mutable != 1 or isinstance(mutable, bool):
        problems.append(f"C7: aps.mutable-content is {mutable!r}, not 1")
    return problems


def _compare(payload, ios, android, problems, notes):
    if ios["mode"] != android["mode"]:
        problems.append(f"C3/C12: adb_car_mode {payload.get('adb_car_mode')!r} is {ios['mode']} on iOS, "
                        f"{android['mode']} on Android")
    ios_items = [(i["img"], i["uri"]) for i in ios["items"]]
    android_items = [(i["img"], i["uri"]) for i in android["items"]]
    if ios_items != android_items:
        problems.append(f"C4/C14: items differ: iOS {ios_items}, Android {android_items}")
    for key in COLOR_KEYS:
        if key not in payload:
            continue
        a, b = ios["colors"][key], android["colors"][key]
        if a is None:
            problems.append(f"C6: {key} {payload[key]!r} rejected on iOS (default color used)")
        if b is None:
            problems.append(f"C16: {key} {payload[key]!r} rejected on Android (color not applied)")
        if a is not None and b is not None and a != b:
            problems.append(f"C6/C16: {key} {payload[key]!r} is RGBA {a} on iOS, {b} on Android")
    if "fallback" in android:
        notes.append(f"{android['fallback']} (SPEC allows 2..5; the format is iOS-only)")
    if android["layout"] == "filmstrip":
        notes.append("C2/C13: adb_car_layout filmstrip is Android-only; iOS ignores it")


def check_carousel(payload):
    """Return (problems, notes) for one adobe-carousel APNs payload."""
    problems, notes = _aps_problems(payload), []
    ios = parse_carousel_ios(payload)
    if is_refusal(ios):
        return problems + [f"{ios.rule}: iOS {ios.kind}: {ios.message}"], notes
    written = payload.get("adb_items")
    kept = {item["index"] for item in ios["items"]}
    for index in range(len(written)):
        if index not in kept:
            problems.append(f"C4/C14: adb_items[{index}] has no usable img: iOS drops it, "
                            "Android stops parsing there")
    android = parse_carousel_android(to_fcm_data(payload))
    if is_refusal(android):
        problems.append(f"{android.rule}: Android {android.kind}: {android.message}")
    else:
        _compare(payload, ios, android, problems, notes)
    missing_txt = [i["index"] for i in ios["items"] if not isinstance(written[i["index"]].get("txt"), str)]
    if missing_txt:
        notes.append(f"C5/C14: items {missing_txt} have no txt: iOS shows the alert body, Android no caption")
    if "adb_title_ex" in payload:
        notes.append("C9: adb_title_ex is iOS-only; Android shows adb_title")
    return problems, notes
