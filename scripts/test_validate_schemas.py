#!/usr/bin/env python3
"""Tests for validate_schemas.py: python3 -m unittest scripts/test_validate_schemas.py (or run this file).

Builds throw-away roots (Schemas/ symlinked to the repository's, golden files written to a temp dir) and checks
that good goldens pass and that each kind of broken golden is reported."""
from __future__ import annotations

import base64
import contextlib
import io
import json
import sys
import tempfile
import unittest
from decimal import Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import validate_schemas as vs  # noqa: E402

REPO = HERE.parent


def run(root: Path) -> tuple[int, str]:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = vs.main(["--root", str(root)])
    return rc, buf.getvalue()


def out_line(fmt: str, headers: list, value_text: str, topic: str = "push.x") -> str:
    return ('{"topic":%s,"format":%s,"key":null,"headers":%s,"value":%s}'
            % (json.dumps(topic), json.dumps(fmt), json.dumps(headers, separators=(",", ":")), value_text))


def dl_line(headers: list, raw: bytes) -> str:
    return ('{"topic":"push.dlq","format":null,"key":null,"headers":%s,"value":%s,"value_base64":%s}'
            % (json.dumps(headers, separators=(",", ":")), json.dumps(raw.decode("utf-8", "replace")),
               json.dumps(base64.b64encode(raw).decode())))


def apns_headers(offset: int = 0, fmt: str = "apns") -> list:
    h = [["pushgate-id", f"push.unified:0:{offset}"], ["pushgate-format", fmt],
         ["pushgate-source", f"push.unified:0:{offset}"]]
    if fmt != "android-expandable":
        h += [["apns-push-type", "alert"], ["apns-priority", "5"], ["apns-expiration", "0"]]
    return h


def dl_headers(stage: str, errors: list, offset: int = 0, fmt: str | None = None) -> list:
    first = errors[0]
    h = [["__connect.errors.topic", "push.unified"], ["__connect.errors.partition", "0"],
         ["__connect.errors.offset", str(offset)], ["__connect.errors.stage", stage],
         ["__connect.errors.exception.class.name", first["code"]],
         ["__connect.errors.exception.message", f'{first["path"]}: {first["message"]}'],
         ["pushgate-id", f"push.unified:0:{offset}"]]
    if fmt:
        h.append(["pushgate-format", fmt])
    return h + [["pushgate-errors", json.dumps(errors, separators=(",", ":"))]]


class GoldenRoot:
    def __init__(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name)
        (self.root / "Schemas").symlink_to(REPO / "Schemas")
        self.golden = self.root / "Tests" / "PushTranslationTests" / "Golden"
        self.golden.mkdir(parents=True)

    def case(self, name: str, lines: list[str], input_text: str | bytes | None = None, args: str | None = None):
        (self.golden / f"{name}.expected.jsonl").write_text("".join(l + "\n" for l in lines))
        if input_text is not None:
            p = self.golden / f"{name}.input.json"
            p.write_bytes(input_text if isinstance(input_text, bytes) else input_text.encode())
        if args is not None:
            (self.golden / f"{name}.args").write_text(args)

    def close(self) -> None:
        self.tmp.cleanup()


class HelperTests(unittest.TestCase):
    def test_dollar_is_end_of_input_only(self):
        self.assertIsNone(vs.compiled("^[0-9]+$").search("12\n"))
        self.assertIsNotNone(vs.compiled("^[0-9]+$").search("12"))
        self.assertIsNotNone(vs.compiled("^a[$]").search("a$"))

    def test_digit_class_is_ascii(self):
        self.assertIsNone(vs.compiled(r"^\d+$").search("٣"))

    def test_loads_keeps_integer_lexical_form(self):
        doc = vs.loads('{"a": 3, "b": 3.0, "c": 3e0}')
        self.assertIsInstance(doc["a"], int)
        self.assertIsInstance(doc["b"], Decimal)
        self.assertIsInstance(doc["c"], Decimal)

    def test_loads_rejects_duplicates_and_nan(self):
        with self.assertRaises(vs.LoadError):
            vs.loads('{"a": 1, "a": 2}')
        with self.assertRaises(vs.LoadError):
            vs.loads('{"a": NaN}')

    def test_unified_extras(self):
        self.assertTrue(vs.unified_extra_problems({"collapse_id": "€" * 22}))
        self.assertFalse(vs.unified_extra_problems({"collapse_id": "€" * 21}))
        deep: object = 1
        for _ in range(62):
            deep = [deep]
        # object at depth 1, 62 arrays at depths 2..63, the scalar at 64: allowed; one more level is too_deep
        self.assertFalse(vs.unified_extra_problems({"data": deep}))
        self.assertTrue(vs.unified_extra_problems({"data": [deep]}))


class RepositoryTests(unittest.TestCase):
    def test_repository_schemas_and_examples_pass(self):
        rc, out = run(REPO)
        self.assertEqual(rc, 0, out)
        self.assertRegex(out.splitlines()[-1], r"^\d+ passed, 0 failed$")


class GoldenTests(unittest.TestCase):
    def setUp(self):
        self.g = GoldenRoot()

    def tearDown(self):
        self.g.close()

    def test_no_golden_dir(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        (Path(tmp.name) / "Schemas").symlink_to(REPO / "Schemas")
        rc, out = run(Path(tmp.name))
        self.assertEqual(rc, 0, out)
        self.assertIn("0 goldens", out)

    def test_good_cases_pass(self):
        inp = '{"message":{"title":"t","body":"b"},"targets":["apns","android-expandable"]}'
        self.g.case("ok", [out_line("apns", apns_headers(), '{"aps":{"alert":{"title":"t","body":"b"}}}'),
                           out_line("android-expandable", apns_headers(fmt="android-expandable"),
                                    '{"alert":{"subject":"t","message":"b"}}')], inp)
        bad_input = b'{"message":{"body":"\xff"}}'
        self.g.case("parse", [dl_line(dl_headers("parse", [{"code": "invalid_utf8", "path": "",
                                                            "message": "invalid UTF-8 at byte 20"}]), bad_input)],
                    bad_input)
        self.g.case("lenient", [out_line("apns", apns_headers(), '{"aps":{"alert":"b"}}')],
                    '{"message":{"body":"b"},"extra":1}', args="--lenient")
        self.g.case("lines", [out_line("apns", apns_headers(7), '{"aps":{"alert":"b"}}'),
                              dl_line(dl_headers("parse", [{"code": "invalid_json", "path": "",
                                                            "message": "empty input"}], offset=8), b"")],
                    b'{"message":{"body":"b"}}\n\n', args="--lines --record-offset 7")
        rc, out = run(self.g.root)
        self.assertEqual(rc, 0, out)
        self.assertIn("4 golden case(s), 6 golden record(s)", out)

    def expect_failure(self, *needles: str) -> str:
        rc, out = run(self.g.root)
        self.assertEqual(rc, 1, out)
        for n in needles:
            self.assertIn(n, out)
        self.assertRegex(out.splitlines()[-1], r"^\d+ passed, [1-9]\d* failed$")
        return out

    def test_value_against_format_schema(self):
        self.g.case("c", [out_line("fb-card", apns_headers(fmt="fb-card"),
                                   '{"aps":{"alert":"b"},"fb_push_card":{"version":"1.0","size":"small"}}')],
                    '{"message":{"body":"b"},"card":{"size":"small"}}')
        self.expect_failure("c.expected.jsonl:1 /value/fb_push_card: 'backdropColor' is a required property")

    def test_output_headers(self):
        h = apns_headers()
        h[4] = ["apns-priority", "7"]
        self.g.case("c", [out_line("apns", h, '{"aps":{"alert":"b"}}')], '{"message":{"body":"b"}}')
        self.expect_failure("/headers/apns-priority")

    def webpush_case(self, headers: list, value_text: str) -> None:
        inp = '{"platform":{"ios":false,"android":false,"web":true},"message":{"title":"T"},' \
              '"web":{"navigate":"https://a.example/"}}'
        self.g.case("w", [out_line("webpush", headers, value_text)], inp)

    def test_webpush_headers_and_limit(self):
        own = [["pushgate-id", "push.unified:0:0"], ["pushgate-format", "webpush"],
               ["pushgate-source", "push.unified:0:0"]]
        value = '{"web_push":8030,"notification":{"title":"T","navigate":"https://a.example/"}}'
        self.webpush_case(own + [["webpush-ttl", "60"], ["webpush-urgency", "normal"]], value)
        rc, out = run(self.g.root)
        self.assertEqual(rc, 0, out)
        self.webpush_case(own + [["webpush-ttl", "60"]], value)
        self.expect_failure("'webpush-urgency' is a required property")
        self.webpush_case(own + [["webpush-ttl", "60"], ["webpush-urgency", "normal"], ["apns-priority", "5"]],
                          value)
        self.expect_failure("/headers")
        self.webpush_case(own + [["webpush-urgency", "normal"], ["webpush-ttl", "60"]], value)
        self.expect_failure("webpush-ttl")
        padded = value[:-1] + " " * (3994 - len(value)) + "}"
        self.webpush_case(own + [["webpush-ttl", "60"], ["webpush-urgency", "normal"]], padded)
        self.expect_failure("3994 bytes (SPEC 5: at most 3993")

    def test_dead_letter_headers_and_consistency(self):
        errors = [{"code": "unknown_field", "path": "/z", "message": "m"},
                  {"code": "wrong_type", "path": "/a", "message": "m"}]
        h = dl_headers("validate", errors)
        self.g.case("c", [dl_line(h, b'{"z":1,"a":2}')], '{"z":1,"a":2}')
        self.expect_failure("errors are not sorted")

    def test_emit_dead_letter_needs_format(self):
        h = dl_headers("emit", [{"code": "reserved_key", "path": "/data/aps", "message": "m"}])
        self.g.case("c", [dl_line(h, b"{}")], "{}")
        self.expect_failure("'pushgate-format' is a required property")

    def test_input_must_validate_when_output_produced(self):
        self.g.case("c", [out_line("apns", apns_headers(), '{"aps":{"alert":"b"}}')],
                    '{"message":{"body":"b","ttl":60.0}}')
        self.expect_failure("c.input.json:- /message/ttl: 60.0 is not an integer")

    def test_missing_input(self):
        self.g.case("c", [out_line("apns", apns_headers(), '{"aps":{"alert":"b"}}')])
        self.expect_failure("c.input.json:- (root): missing")

    def test_record_order(self):
        self.g.case("c", [out_line("android-expandable", apns_headers(fmt="android-expandable"),
                                   '{"alert":{"message":"b"}}'),
                          out_line("apns", apns_headers(), '{"aps":{"alert":"b"}}')],
                    '{"message":{"body":"b"},"targets":["android-expandable","apns"]}')
        self.expect_failure("out of SPEC order")


if __name__ == "__main__":
    unittest.main()
