"""A model of what APNs and ActivityKit accept as a Live Activity push, written from Apple's documentation
("Starting and updating Live Activities with ActivityKit push notifications", "Sending broadcast push
notification requests to APNs") and RULES.md (f), not from pushgate's Swift code.

check_live_activity(payload, raw=None, headers=None) -> list of problems (empty: APNs takes it and the
activity is started, updated or ended as the payload says).
"""
import math

from model_apns import MAX_BYTES, value_size

EVENTS = ("start", "update", "end")
# Every key of `aps` a Live Activity push may carry (F2-F6); anything else is a notification key that
# ActivityKit does not read (`badge`, `sound` outside the alert, `category`, `thread-id`, ...).
APS_KEYS = (
    "timestamp", "event", "content-state", "stale-date", "dismissal-date", "relevance-score",
    "attributes-type", "attributes", "input-push-token", "input-push-channel", "alert",
)
# Keys only one kind of event takes: Apple's start payload (attributes, push token or channel), the end
# payload (dismissal date).
START_ONLY = ("attributes-type", "attributes", "input-push-token", "input-push-channel")
END_ONLY = ("dismissal-date",)
ALERT_KEYS = ("title", "body", "sound")
LOCALIZED_TEXT_KEYS = ("loc-key", "loc-args")
LATEST_SECONDS = 253402300799  # 9999-12-31T23:59:59Z: Swift's Date decodes larger ones, APNs does not


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value):
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and not (isinstance(value, float) and not math.isfinite(value)))


def _nulls(value, path):
    """JSON Pointers of every null inside `value`."""
    if value is None:
        return [path]
    if isinstance(value, dict):
        found = []
        for key, member in value.items():
            found += _nulls(member, path + "/" + key.replace("~", "~0").replace("/", "~1"))
        return found
    if isinstance(value, list):
        found = []
        for index, element in enumerate(value):
            found += _nulls(element, f"{path}/{index}")
        return found
    return []


def _seconds_problem(aps, key):
    if key not in aps:
        return []
    value = aps[key]
    if not _is_int(value):
        return [f"aps.{key} {value!r} is not integer UNIX seconds (F2, F6)"]
    if not 0 <= value <= LATEST_SECONDS:
        return [f"aps.{key} {value} is not a date APNs reads"]
    return []


def _text_problem(alert, key):
    """An alert text is a string, or a localized `{loc-key, loc-args}` object (ActivityKit's AlertConfiguration)."""
    value = alert[key]
    if isinstance(value, str):
        return [] if value else [f"aps.alert.{key} is empty"]
    if isinstance(value, dict) and isinstance(value.get("loc-key"), str) and set(value) <= set(LOCALIZED_TEXT_KEYS):
        return []
    return [f"aps.alert.{key} is not a string or a localized text object"]


def _alert_problems(aps, event):
    if "alert" not in aps:
        return ["a `start` without `alert` is dropped by the device (F4)"] if event == "start" else []
    alert = aps["alert"]
    if not isinstance(alert, dict):
        return [f"aps.alert is {type(alert).__name__}: a Live Activity alert is an object (F5)"]
    problems = [f"aps.alert.{key} is not a Live Activity alert key (only title, body, sound: F5)"
                for key in alert if key not in ALERT_KEYS]
    for key in ("title", "body"):
        if key in alert:
            problems += _text_problem(alert, key)
        elif event == "start":
            problems.append(f"a `start` alert needs `{key}` (F4)")
    if "sound" in alert and not (isinstance(alert["sound"], str) and alert["sound"]
                                 or isinstance(alert["sound"], dict) and isinstance(alert["sound"].get("name"), str)):
        problems.append("aps.alert.sound is not a sound name or a critical-sound object")
    return problems


def _event_problems(aps, event):
    problems = []
    if event in ("start", "update") and "content-state" not in aps:
        problems.append(f"a `{event}` needs `content-state` (F3)")
    if "content-state" in aps and not isinstance(aps["content-state"], dict):
        problems.append("aps.content-state is not an object the app can decode into its ContentState (F3)")
    if event == "start":
        if not isinstance(aps.get("attributes-type"), str) or not aps.get("attributes-type"):
            problems.append("a `start` needs `attributes-type`, the ActivityAttributes type name (F4)")
        if not isinstance(aps.get("attributes"), dict):
            problems.append("a `start` needs `attributes`, an object (F4)")
        if "input-push-token" in aps and aps["input-push-token"] != 1 or isinstance(aps.get("input-push-token"), bool):
            problems.append("aps.input-push-token is not 1 (F6)")
        if "input-push-channel" in aps and (not isinstance(aps["input-push-channel"], str)
                                            or not aps["input-push-channel"]):
            problems.append("aps.input-push-channel is not a channel id string (F6)")
    else:
        problems += [f"aps.{key} belongs to a `start` push only" for key in START_ONLY if key in aps]
    if event != "end":
        problems += [f"aps.{key} belongs to an `end` push only" for key in END_ONLY if key in aps]
    return problems


def _header_problems(headers, event):
    if headers is None:
        return []
    problems = []
    if headers.get("apns-push-type") != "liveactivity":
        problems.append(f"apns-push-type is {headers.get('apns-push-type')!r}, not liveactivity (F1)")
    if headers.get("apns-priority") not in ("5", "10"):
        problems.append(f"apns-priority {headers.get('apns-priority')!r} is not 5 or 10 (F8)")
    if "apns-channel-id" in headers:
        if event == "start":
            problems.append("a broadcast (apns-channel-id) cannot start an activity (F7)")
        if not headers["apns-channel-id"]:
            problems.append("apns-channel-id is empty")
    return problems


def check_live_activity(payload, raw=None, headers=None):
    """Problems of one Live Activity push: `payload` the parsed value, `raw` its text as written, `headers`
    a dict of the record's headers (None: not checked)."""
    size = value_size(payload, raw)
    problems = [f"payload is {size} bytes, more than {MAX_BYTES} (F9)"] if size > MAX_BYTES else []
    aps = payload.get("aps") if isinstance(payload, dict) else None
    if not isinstance(aps, dict):
        return problems + ["`aps` is missing or not an object"]
    problems += [f"aps.{key} is not a Live Activity key (a notification key ActivityKit ignores)"
                 for key in aps if key not in APS_KEYS]
    problems += [f"null at /aps{path} is refused by APNs (F9)" for path in _nulls(aps, "")]
    event = aps.get("event")
    if event not in EVENTS:
        problems.append(f"aps.event {event!r} is not start, update or end (F2)")
    if not _is_int(aps.get("timestamp")):
        problems.append("aps.timestamp is missing or not integer UNIX seconds (F2)")
    for key in ("timestamp", "stale-date", "dismissal-date"):
        problems += _seconds_problem(aps, key) if key != "timestamp" or _is_int(aps.get(key)) else []
    if "relevance-score" in aps and not _is_number(aps["relevance-score"]):
        problems.append("aps.relevance-score is not a number (F6)")
    if event in EVENTS:
        problems += _event_problems(aps, event)
        problems += _alert_problems(aps, event)
    return problems + _header_problems(headers, event)


def is_live_activity(payload, headers=None):
    """Whether a record of format `apns` is a Live Activity push: its push type, else an `aps.event`."""
    if headers is not None and "apns-push-type" in headers:
        return headers["apns-push-type"] == "liveactivity"
    aps = payload.get("aps") if isinstance(payload, dict) else None
    return isinstance(aps, dict) and "event" in aps
