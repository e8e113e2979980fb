"""The output formats, as the pushgate binary lists them (`pushgate formats`): the one list every script,
harness and page reads instead of a list of its own.

    from pushgate_formats import load_formats
    formats = load_formats(".build/debug/pushgate")   # [{"name", "topic", "platform", "headers"}, ...]

The binary is `PUSHGATE` from the environment when no path is given, else `.build/debug/pushgate` of the
repository this file is in.
"""
import json
import os
import subprocess
from functools import lru_cache

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_BINARY = os.path.join(REPO, ".build", "debug", "pushgate")


def binary_path(binary=None):
    """The pushgate binary to ask: `binary`, else $PUSHGATE, else the debug build of this repository."""
    return binary or os.environ.get("PUSHGATE") or DEFAULT_BINARY


@lru_cache(maxsize=None)
def _load(binary):
    try:
        proc = subprocess.run([binary, "formats"], capture_output=True, text=True, timeout=60)
    except OSError as error:
        raise SystemExit(f"cannot run '{binary} formats' ({error}); build pushgate first (swift build)")
    if proc.returncode != 0:
        raise SystemExit(f"'{binary} formats' exited {proc.returncode}: {proc.stderr.strip()[:300]}")
    return tuple(json.loads(proc.stdout))


def load_formats(binary=None):
    """Every format in record order, each a dict with `name`, `topic`, `platform` and `headers`."""
    return [dict(f) for f in _load(binary_path(binary))]


def format_names(binary=None):
    """The format names in record order."""
    return [f["name"] for f in load_formats(binary)]


def output_topics(binary=None, dead_letter_topic="push.dlq"):
    """The default topic of every format in record order, then the dead-letter topic."""
    return [f["topic"] for f in load_formats(binary)] + [dead_letter_topic]


def names_for_platform(platform, binary=None):
    """The names of the formats that reach `platform` (`ios`, `android`), in record order."""
    return [f["name"] for f in load_formats(binary) if f["platform"] == platform]
