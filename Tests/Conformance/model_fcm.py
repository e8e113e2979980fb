"""FCM HTTP v1 `projects.messages.send` request body, as FCM documents it (the Message resource,
AndroidConfig, AndroidNotification, LightSettings, Color and the protobuf JSON mapping of Duration).
Written from FCM's reference, not from pushgate's Swift code.

check_fcm(payload, raw) -> problems (list of strings; empty when FCM would accept the body).
"""
import re

REQUEST_KEYS = {"validate_only", "message"}
# Message fields; the target (token, topic, condition) is the sender's to add.
MESSAGE_KEYS = {"name", "data", "notification", "android", "webpush", "apns", "fcm_options"}
TARGET_KEYS = {"token", "topic", "condition"}
ANDROID_CONFIG_KEYS = {"collapse_key", "priority", "ttl", "restricted_package_name", "data", "notification",
                       "fcm_options", "direct_boot_ok"}
ANDROID_NOTIFICATION_KEYS = {
    "title", "body", "icon", "color", "sound", "tag", "click_action", "body_loc_key", "body_loc_args",
    "title_loc_key", "title_loc_args", "channel_id", "ticker", "sticky", "event_time", "local_only",
    "notification_priority", "default_sound", "default_vibrate_timings", "default_light_settings",
    "vibrate_timings", "visibility", "notification_count", "light_settings", "image",
    "bypass_proxy_notification", "proxy"}
STRING_NOTIFICATION_KEYS = {"title", "body", "icon", "sound", "click_action", "body_loc_key", "title_loc_key",
                            "channel_id"}
PRIORITIES = {"NORMAL", "HIGH"}
# protobuf JSON Duration: seconds with up to 9 fractional digits, then "s".
DURATION = re.compile(r"^-?[0-9]+(\.[0-9]{1,9})?s$")
LIMIT = 4096


def reserved_data_key(name):
    """FCM refuses these data keys (compared ASCII case-insensitively)."""
    lowered = name.lower() if name.isascii() else "".join(c.lower() if c.isascii() else c for c in name)
    return lowered in ("from", "notification", "message_type") or lowered.startswith(("google", "gcm"))


def check_fcm(payload, raw=None):
    problems = []
    if raw is not None and len(raw.encode("utf-8")) > LIMIT:
        problems.append(f"body is {len(raw.encode('utf-8'))} bytes; FCM's limit is {LIMIT}")
    if not isinstance(payload, dict):
        return problems + ["request body is not an object"]
    problems += [f"unknown request field {key!r}" for key in payload if key not in REQUEST_KEYS]
    if "validate_only" in payload and payload["validate_only"] is not True:
        problems.append("validate_only is written only as true")
    message = payload.get("message")
    if not isinstance(message, dict):
        return problems + ["message is missing or not an object"]
    for key in message:
        if key in TARGET_KEYS:
            problems.append(f"message carries a target ({key}); the sender adds it")
        elif key not in MESSAGE_KEYS:
            problems.append(f"unknown Message field {key!r}")
    problems += check_data(message.get("data"), "message.data")
    android = message.get("android")
    if android is not None:
        problems += check_android(android)
    return problems


def check_data(data, where):
    if data is None:
        return []
    if not isinstance(data, dict):
        return [f"{where} is not an object"]
    problems = [f"{where}.{key} is not a string (data is string to string)" for key, value in data.items()
                if not isinstance(value, str)]
    problems += [f"{where}.{key} is a reserved key" for key in data if reserved_data_key(key)]
    return problems


def check_android(android):
    if not isinstance(android, dict):
        return ["message.android is not an object"]
    problems = [f"unknown AndroidConfig field {key!r}" for key in android if key not in ANDROID_CONFIG_KEYS]
    if "priority" in android and android["priority"] not in PRIORITIES:
        problems.append(f"android.priority {android['priority']!r} is not NORMAL or HIGH")
    if "ttl" in android and not (isinstance(android["ttl"], str) and DURATION.match(android["ttl"])):
        problems.append(f"android.ttl {android['ttl']!r} is not a duration such as \"3.5s\"")
    if "collapse_key" in android and not isinstance(android["collapse_key"], str):
        problems.append("android.collapse_key is not a string")
    notification = android.get("notification")
    if notification is not None:
        problems += check_notification(notification)
    return problems


def check_notification(notification):
    if not isinstance(notification, dict):
        return ["android.notification is not an object"]
    problems = [f"unknown AndroidNotification field {key!r}" for key in notification
                if key not in ANDROID_NOTIFICATION_KEYS]
    problems += [f"android.notification.{key} is not a string" for key in STRING_NOTIFICATION_KEYS
                 if key in notification and not isinstance(notification[key], str)]
    for key in ("title_loc_args", "body_loc_args"):
        if key in notification and not (isinstance(notification[key], list)
                                        and all(isinstance(arg, str) for arg in notification[key])):
            problems.append(f"android.notification.{key} is not an array of strings")
    if "light_settings" in notification:
        problems += check_light_settings(notification["light_settings"])
    return problems


def check_light_settings(settings):
    if not isinstance(settings, dict):
        return ["light_settings is not an object"]
    problems = [f"light_settings needs {key}" for key in ("color", "light_on_duration", "light_off_duration")
                if key not in settings]
    problems += [f"unknown LightSettings field {key!r}" for key in settings
                 if key not in ("color", "light_on_duration", "light_off_duration")]
    for key in ("light_on_duration", "light_off_duration"):
        if key in settings and not (isinstance(settings[key], str) and DURATION.match(settings[key])):
            problems.append(f"light_settings.{key} {settings[key]!r} is not a duration")
    color = settings.get("color")
    if isinstance(color, dict):
        for key, value in color.items():
            if key not in ("red", "green", "blue", "alpha"):
                problems.append(f"unknown Color field {key!r}")
            elif isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
                problems.append(f"light_settings.color.{key} {value!r} is not a number in [0, 1]")
    elif "color" in settings:
        problems.append("light_settings.color is not an object")
    return problems
