#!/usr/bin/env python3
"""Run the real-parser model on every emitted record of the golden files.

Usage: python3 Tests/Conformance/check_goldens.py [--root REPO] [--no-notes]
Reads REPO/Tests/PushTranslationTests/Golden/*.expected.jsonl; skips dead letters ("format": null).
A `webpush` record is also checked against its case's input (`NAME.input.json`, one payload): the
notification a browser shows must be what the payload meant (model_webpush.webpush_intent_problems).
Prints `FAIL file:line reason` per problem, `NOTE file:line note` per accepted known difference,
then exactly `N passed, M failed` (records checked). Exit status 1 when any record fails.
"""
import argparse
import glob
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from real_parsers import check_record, webpush_intent_problems  # noqa: E402

DEFAULT_ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def raw_value(line, value):
    """The `value` member's text exactly as written (it is the line's last member)."""
    start = line.find('"value":')
    while start != -1:
        text = line[start + len('"value":'):].rstrip()
        if text.endswith("}"):
            try:
                if json.loads(text[:-1]) == value:
                    return text[:-1]
            except ValueError:
                pass
        start = line.find('"value":', start + 1)
    return None


def case_payload(path):
    """The unified payload of the golden case of `path`, when it is one JSON payload (no `--lines`), read
    past a Schema Registry frame."""
    base = path[:-len(".expected.jsonl")]
    try:
        with open(base + ".args", encoding="utf-8") as handle:
            if "--lines" in handle.read():
                return None
    except FileNotFoundError:
        pass
    try:
        with open(base + ".input.json", "rb") as handle:
            value = handle.read()
        # SPEC 2 (version 4): a Schema Registry frame, 0x00 and a 4-byte schema id, is read past.
        payload = json.loads(value[5:] if value[:1] == b"\x00" else value)
    except (OSError, ValueError):
        return None
    return payload if isinstance(payload, dict) else None


def check_file(path, show_notes):
    """Yield (ok, problems) per emitted record, printing as it goes."""
    name = os.path.basename(path)
    payload = case_payload(path)
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError as error:
                print(f"FAIL {name}:{number} not JSON: {error}")
                yield False
                continue
            if record.get("format") is None:
                continue
            problems, notes = check_record(record["format"], record["value"],
                                           raw_value(line.rstrip("\n"), record["value"]),
                                           headers=dict(record.get("headers") or []))
            if record["format"] == "webpush" and payload is not None:
                problems = problems + webpush_intent_problems(payload, record["value"])
            for problem in problems:
                print(f"FAIL {name}:{number} {problem}")
            if show_notes:
                for note in notes:
                    print(f"NOTE {name}:{number} {note}")
            yield not problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=DEFAULT_ROOT, help="repository root (default: this checkout)")
    parser.add_argument("--no-notes", action="store_true", help="do not print NOTE lines")
    args = parser.parse_args(argv)
    pattern = os.path.join(args.root, "Tests", "PushTranslationTests", "Golden", "*.expected.jsonl")
    files = sorted(glob.glob(pattern))
    if not files:
        print(f"no golden files match {pattern}", file=sys.stderr)
        return 2
    results = [ok for path in files for ok in check_file(path, not args.no_notes)]
    passed, failed = results.count(True), results.count(False)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
