"""Declarative Web Push messages as the browsers read them (RULES.md (g)): a model of WebKit's
`NotificationJSONParser` and of Firefox's `declarative_push.rs`, written from the W3C Push API's
declarative push message algorithm and those parsers' rules, not from pushgate's Swift code.

parse_webkit(value), parse_firefox(value) -> the notification the browser shows (a dict) | Refusal
check_webpush(value, raw)                  -> problems (empty when both browsers show it, the same way)
check_webpush_headers(headers)             -> problems of the record's webpush-* headers (G8, Apple's Topic)
webpush_intent_problems(payload, value)    -> problems: the shown notification is not what the unified
                                              payload meant (SPEC 5.6)
"""
import re
from urllib.parse import urljoin, urlsplit

from model_outcome import Refusal

LIMIT = 3993  # G7: 4096 bytes of encrypted body less RFC 8291's header (86), tag (16) and delimiter (1)
MAGIC = 8030  # G1
DIRS = ("auto", "ltr", "rtl")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# Firefox resolves a relative navigate against the subscribing page's scope (G2); any origin shows it.
FIREFOX_BASE = "https://site.example/app/"
MAX_BADGE = 2 ** 64 - 1  # WebKit reads app_badge into an unsigned 64-bit integer (G5)


def refuse(message):
    """A refusal whose rule is the `(Gn)` at the end of `message`."""
    match = re.search(r"\((G\d)\)$", message)
    return Refusal("refused", match.group(1) if match else "G", message)


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_declarative(value):
    """G1: a JSON object whose top-level `web_push` is the number 8030."""
    return isinstance(value, dict) and is_number(value.get("web_push")) and value["web_push"] == MAGIC


def absolute_url(text):
    """A URL parsed with no base (G2, WebKit): a scheme, no white space, and a host for http and https."""
    if not isinstance(text, str) or not SCHEME.match(text) or re.search(r"[\s<>\"{}|\\^`]", text):
        return None
    try:
        parts = urlsplit(text)
    except ValueError:  # a bracketed host that is no IP address
        return None
    if parts.scheme.lower() in ("http", "https"):
        if not (text[len(parts.scheme) + 1:].startswith("//") and parts.hostname):
            return None
        if not special_authority_ok(parts):
            return None
    return normalized(parts)


def special_authority_ok(parts):
    """G2 (WHATWG URL parser, both browsers): the host of an http(s) URL is a name or an IPv6 address, not an
    IPvFuture literal (`[v1.x]`), and its port, when given, is at most 65535 (leading zeros allowed)."""
    host = parts.netloc.rsplit("@", 1)[-1]
    if host.startswith("[") and host[1:2] in ("v", "V"):
        return False
    port = host.rsplit("]", 1)[-1].partition(":")[2] if host.startswith("[") else host.partition(":")[2]
    return port == "" or (port.isdigit() and port.isascii() and int(port) <= 65535)


def firefox_url(text):
    """`text` resolved against the subscribing page's scope as Firefox does (G2), or None when invalid."""
    try:
        return absolute_url(urljoin(FIREFOX_BASE, text))
    except ValueError:  # a bracketed host that is no IP address
        return None


def normalized(parts):
    """The URL as a WHATWG parser serializes it, as far as the model needs: scheme and host lower-cased."""
    netloc = parts.netloc
    if parts.hostname:
        netloc = netloc.replace(netloc.rsplit("@", 1)[-1], netloc.rsplit("@", 1)[-1].lower(), 1)
    return parts._replace(scheme=parts.scheme.lower(), netloc=netloc).geturl()


def declarative_notification(value):
    """`notification` of a declarative message (G1, G2: both browsers), or the refusal."""
    if not is_declarative(value):
        return refuse("not declarative: the service worker gets it as an ordinary push (G1)")
    notification = value.get("notification")
    if not isinstance(notification, dict):
        return refuse("notification is missing or not an object (G2)")
    return notification


def parse_webkit(value):
    """What Safari (WebKit) shows, or why it does not show the message as a declarative one."""
    notification = declarative_notification(value)
    if isinstance(notification, Refusal):
        return notification
    title = notification.get("title")
    if not isinstance(title, str) or not title:
        return refuse("title is missing, empty or not a string (G2)")
    navigate = absolute_url(notification.get("navigate"))
    if navigate is None:
        return refuse(f"navigate {notification.get('navigate')!r} is not an absolute URL (G2)")
    shown = {"title": title, "navigate": navigate, "dir": "auto"}
    for key in ("lang", "body", "tag"):
        if key in notification:
            if not isinstance(notification[key], str):
                return refuse(f"{key} is not a string (G3)")
            shown[key] = notification[key]
    if "dir" in notification:
        if notification["dir"] not in DIRS:
            return refuse(f"dir {notification['dir']!r} is not auto, ltr or rtl (G3)")
        shown["dir"] = notification["dir"]
    if "icon" in notification:
        if absolute_url(notification["icon"]) is None:
            return refuse("icon is not an absolute URL (G3)")
        shown["icon"] = absolute_url(notification["icon"])
    if "silent" in notification:
        if not isinstance(notification["silent"], bool):
            return refuse("silent is not a boolean (G3)")
        shown["silent"] = notification["silent"]
    if "data" in notification:
        shown["data"] = notification["data"]
    # WebKit does not read requireInteraction or actions (G3).
    if "app_badge" in value:
        badge = value["app_badge"]
        if isinstance(badge, str) and badge.isdigit() and badge.isascii():
            badge = int(badge)
        if not (isinstance(badge, int) and not isinstance(badge, bool) and 0 <= badge <= MAX_BADGE):
            return refuse(f"app_badge {value['app_badge']!r} is not an unsigned integer (G5)")
        shown["app_badge"] = badge
    mutable = value.get("mutable", notification.get("mutable"))
    if mutable is not None:
        if not isinstance(mutable, bool):
            return refuse("mutable is not a boolean (G6)")
        shown["mutable"] = mutable
    return shown


def parse_firefox(value):
    """What Firefox shows, or why it does not show the message as a declarative one."""
    notification = declarative_notification(value)
    if isinstance(notification, Refusal):
        return notification
    title = notification.get("title")
    if not isinstance(title, str):
        return refuse("title is missing or not a string (G2)")
    navigate = notification.get("navigate")
    if not isinstance(navigate, str) or firefox_url(navigate) is None:
        return refuse(f"navigate {navigate!r} is not a valid URL (G2)")
    shown = {"title": title, "navigate": firefox_url(navigate), "dir": "auto",
             "actions": []}
    # Wrong types and values fall back to the defaults (G3).
    for key in ("lang", "body", "tag"):
        if isinstance(notification.get(key), str):
            shown[key] = notification[key]
    if notification.get("dir") in DIRS:
        shown["dir"] = notification["dir"]
    if isinstance(notification.get("icon"), str) and firefox_url(notification["icon"]):
        shown["icon"] = firefox_url(notification["icon"])
    for key in ("silent", "requireInteraction"):
        if isinstance(notification.get(key), bool):
            shown[key] = notification[key]
    if "data" in notification:
        shown["data"] = notification["data"]
    actions = notification.get("actions", [])
    for action in actions if isinstance(actions, list) else []:
        if not (isinstance(action, dict) and all(isinstance(action.get(k), str)
                                                  for k in ("action", "title", "navigate"))):
            continue  # G4: an entry missing a member is dropped
        target = firefox_url(action["navigate"])
        if target is None:
            return refuse(f"action navigate {action['navigate']!r} is not a valid URL (G4)")
        shown["actions"].append({"title": action["title"], "navigate": target})
    badge = value.get("app_badge")
    if isinstance(badge, int) and not isinstance(badge, bool) and badge >= 0:
        shown["app_badge"] = badge
    if isinstance(notification.get("mutable"), bool):  # G6: Firefox reads it inside notification
        shown["mutable"] = notification["mutable"]
    return shown


# What both browsers show; each is compared between the two.
COMMON = ("title", "body", "navigate", "lang", "dir", "icon", "tag", "silent", "data", "app_badge")


def check_webpush(value, raw=None):
    """Problems of one `webpush` value: too large, not shown by WebKit or Firefox, or shown differently."""
    problems = []
    if raw is not None and len(raw.encode("utf-8")) > LIMIT:
        problems.append(f"value is {len(raw.encode('utf-8'))} bytes; the plaintext limit is {LIMIT} (G7)")
    webkit, firefox = parse_webkit(value), parse_firefox(value)
    for name, shown in (("WebKit", webkit), ("Firefox", firefox)):
        if isinstance(shown, Refusal):
            problems.append(f"{name} does not show it: {shown.message}")
    if problems:
        return problems
    for key in COMMON:
        if webkit.get(key) != firefox.get(key):
            problems.append(f"{key} differs: WebKit {webkit.get(key)!r}, Firefox {firefox.get(key)!r}")
    written = value["notification"].get("actions", [])
    if len(firefox["actions"]) != (len(written) if isinstance(written, list) else 0):
        problems.append("Firefox drops an action: each needs action, title and navigate strings (G4)")
    for key in ("silent", "requireInteraction"):
        if value["notification"].get(key) is False:
            problems.append(f"{key}: false is the default; it is written only when true")
    if "app_badge" in value["notification"] or "mutable" in value["notification"]:
        problems.append("app_badge and mutable belong beside notification (G5, G6)")
    return problems


TOPIC = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


def check_webpush_headers(headers):
    """G8 and Apple's push service: `webpush-ttl` decimal seconds, `webpush-urgency` one of RFC 8030's four,
    `webpush-topic` (when set) at most 32 URL-safe base64 characters that Apple decodes as base64url, so
    never 4n+1 of them (Apple answers 400 BadWebPushTopic)."""
    problems = []
    ttl = headers.get("webpush-ttl")
    if not (isinstance(ttl, str) and ttl.isdigit() and ttl.isascii()):
        problems.append(f"webpush-ttl {ttl!r} is not decimal seconds (G8)")
    if headers.get("webpush-urgency") not in ("very-low", "low", "normal", "high"):
        problems.append(f"webpush-urgency {headers.get('webpush-urgency')!r} is not an RFC 8030 urgency (G8)")
    topic = headers.get("webpush-topic")
    if topic is not None:
        if not TOPIC.match(topic):
            problems.append(f"webpush-topic {topic!r} is not 1..32 URL-safe base64 characters (G8)")
        elif len(topic) % 4 == 1:
            problems.append(f"webpush-topic {topic!r} has {len(topic)} characters: Apple decodes it as base64url "
                            "and refuses it (BadWebPushTopic, G8)")
    return problems


def is_http_url(text):
    return isinstance(text, str) and absolute_url(text) is not None and urlsplit(text).scheme.lower() in (
        "http", "https")


def webpush_intent_problems(payload, value):
    """Whether the notification shown (Firefox's reading, which reads the most) is what `payload`, the
    unified payload, meant (SPEC 5.6)."""
    shown = parse_firefox(value)
    if isinstance(shown, Refusal):
        return [f"not shown: {shown.message}"]
    message = payload.get("message") or {}
    web = payload.get("web") or {}
    action = payload.get("action") or {}
    navigate = web.get("navigate")
    if navigate is None and action.get("type") == "url" and is_http_url(action.get("value")):
        navigate = action["value"]
    meant = {"title": message.get("title"), "body": message.get("body"), "navigate": absolute_url(navigate),
             "lang": web.get("lang"), "dir": web.get("dir") or "auto", "icon": absolute_url(web.get("icon")),
             "tag": payload.get("collapse_id"), "silent": True if web.get("silent") else None,
             "requireInteraction": True if web.get("require_interaction") else None,
             "data": payload.get("data") or None, "app_badge": web.get("app_badge")}
    problems = [f"{key} shown as {shown.get(key)!r}, the payload meant {want!r}"
                for key, want in meant.items() if shown.get(key) != want]
    buttons = [{"title": b.get("name"), "navigate": absolute_url(b.get("value"))} for b in payload.get("actions") or []
               if b.get("type") == "url" and is_http_url(b.get("value"))]
    if shown["actions"] != buttons:
        problems.append(f"buttons shown as {shown['actions']!r}, the payload meant {buttons!r}")
    if bool(value.get("mutable")) != bool(web.get("mutable")):
        problems.append("mutable is not what web.mutable says")
    return problems
