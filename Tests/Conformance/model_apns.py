"""Light checks of the transport envelopes: APNs `aps` (every APNs-delivered format) and the
Acoustic Android expandable `alert` (RULES.md E5; its parsers are closed source, structure only)."""
import json

MAX_BYTES = 4096  # APNs and FCM payload limit (RULES.md B12, SPEC 5)
APPLE_ALERT_KEYS = {
    "title", "subtitle", "body", "launch-image", "title-loc-key", "title-loc-args",
    "subtitle-loc-key", "subtitle-loc-args", "loc-key", "loc-args", "action-loc-key",
    "summary-arg", "summary-arg-count",
}


def value_size(payload, raw=None):
    """Bytes of the value as written (raw text from the golden line when available)."""
    if raw is not None:
        return len(raw.encode("utf-8"))
    return len(json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _size_problem(payload, raw):
    size = value_size(payload, raw)
    return [f"payload is {size} bytes, more than {MAX_BYTES}"] if size > MAX_BYTES else []


def check_apns(payload, raw=None):
    """Return a list of problems: `aps` object, Apple-only alert keys, size <= 4096 bytes."""
    problems = _size_problem(payload, raw)
    aps = payload.get("aps") if isinstance(payload, dict) else None
    if not isinstance(aps, dict):
        return problems + ["APNs: `aps` is missing or not an object"]
    alert = aps.get("alert")
    if isinstance(alert, dict):
        extra = sorted(set(alert) - APPLE_ALERT_KEYS)
        if extra:
            problems.append(f"APNs: aps.alert has keys Apple does not define: {extra}")
    elif alert is not None and not isinstance(alert, str):
        problems.append(f"APNs: aps.alert is {type(alert).__name__}, not a string or an object")
    badge = aps.get("badge")
    if badge is not None and (not isinstance(badge, int) or isinstance(badge, bool)):
        problems.append(f"APNs: aps.badge {badge!r} is not an integer")
    return problems


def check_android_expandable(payload, raw=None):
    """Structure of E5 (subject/message/notification-action/expandable) and the size limit."""
    problems = _size_problem(payload, raw)
    alert = payload.get("alert") if isinstance(payload, dict) else None
    if not isinstance(alert, dict):
        return problems + ["E5: `alert` is missing or not an object"]
    if not isinstance(alert.get("message"), str) or not alert["message"]:
        problems.append("E5: alert.message is missing or not a non-empty string")
    if "subject" in alert and not isinstance(alert["subject"], str):
        problems.append("E5: alert.subject is not a string")
    expandable = alert.get("expandable")
    if expandable is not None:
        if not isinstance(expandable, dict) or expandable.get("type") not in ("text", "image") \
                or not isinstance(expandable.get("value"), str):
            problems.append("E5: alert.expandable needs type text|image and a string value")
        elif not isinstance(expandable.get("expandable-actions", []), list):
            problems.append("E5: alert.expandable.expandable-actions is not an array")
    return problems
