#!/usr/bin/env python3
"""Check pushgate's JSON Schemas, their examples, and the golden translation files.

Usage: python3 scripts/validate_schemas.py [--root DIR]

What is checked (each item is one "check", counted in the final "N passed, M failed" line):

1. Every ``Schemas/*.schema.json`` is a valid JSON Schema 2020-12 document (``check_schema``).
2. Every ``Schemas/examples/<schema>.example-N.json`` validates against ``Schemas/<schema>.schema.json``;
   every ``Schemas/examples/<schema>.invalid-N.json`` must NOT validate.
3. Every line of ``Tests/PushTranslationTests/Golden/*.expected.jsonl`` (``pushgate translate`` output):
   - a record with a format: ``value`` against ``Schemas/<format>.schema.json``; its pushgate-*/apns-*/webpush-*
     headers (``pushgate-warnings`` parsed as JSON) against ``Schemas/output-headers.schema.json``;
   - a dead letter (``"format": null``): its ``__connect.errors.*``/``pushgate-*`` headers
     (``pushgate-errors`` parsed as JSON) against ``Schemas/dead-letter.schema.json``;
   - plus the SPEC rules a schema cannot state (see ``golden_consistency``/``dead_letter_consistency``).
4. For every golden case that produced at least one non-dead-letter record and whose ``<case>.args`` does not
   contain ``--lenient``: ``<case>.input.json`` (with ``--lines``: each line that produced an output) must
   validate against ``Schemas/unified-payload.schema.json`` (its payload, after a Schema Registry frame) and pass the checks JSON Schema cannot express
   (duplicate member names, integer lexical form, depth, unpaired surrogates, collapse_id UTF-8 bytes).

Validator details (deliberate):
- ``Draft202012Validator`` with FORMAT ASSERTION OFF. The schemas use no ``format`` keyword: URLs, colors,
  digit strings and pointers are all ``pattern``s, so results do not depend on optional format checkers.
- ``pattern`` is evaluated with ECMA-262 semantics as JSON Schema requires, not Python's: ``$`` matches only
  at the very end (Python's ``$`` also matches before a final newline), ``\\d``/``\\w`` are ASCII-only.
- JSON documents are parsed with non-integer number literals as ``decimal.Decimal``, so that ``3.0`` and
  ``3e0`` are NOT "integer" (SPEC section 2) while staying numbers; duplicate member names, NaN/Infinity and
  invalid UTF-8 are load errors.

Output: one line per problem, ``FAIL <file>:<line> <json-pointer>: <message>`` (line ``-`` when the file
is one JSON document), then ``N passed, M failed`` (checks, not problems). Exit status 1 on any failure.
"""
from __future__ import annotations

import argparse
import base64
import binascii
import json
import re
import shlex
import sys
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

try:
    import jsonschema
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError
except ImportError:  # pragma: no cover
    sys.exit("validate_schemas.py needs the 'jsonschema' package (pip install jsonschema)")

# The formats are the binary's (`pushgate formats`, read through scripts/pushgate_formats.py): main()'s
# --pushgate, else $PUSHGATE, else .build/debug/pushgate.
sys.path.insert(0, str(Path(__file__).resolve().parent))
import pushgate_formats  # noqa: E402

PUSHGATE: str | None = None


def formats() -> list[str]:
    """The format names in record order."""
    return pushgate_formats.format_names(PUSHGATE)


def apns_formats() -> set[str]:
    """The formats delivered by APNs: those whose records carry `apns-push-type`."""
    return {f["name"] for f in pushgate_formats.load_formats(PUSHGATE) if "apns-push-type" in f["headers"]}


OUTPUT_HEADER_ORDER = ["pushgate-id", "pushgate-format", "pushgate-source", "pushgate-dry-run",
                       "pushgate-warnings", "apns-push-type", "apns-priority", "apns-expiration",
                       "apns-collapse-id", "apns-channel-id", "webpush-ttl", "webpush-urgency", "webpush-topic"]
DEAD_LETTER_HEADER_ORDER = ["__connect.errors.topic", "__connect.errors.partition", "__connect.errors.offset",
                            "__connect.errors.stage", "__connect.errors.exception.class.name",
                            "__connect.errors.exception.message", "pushgate-id", "pushgate-format",
                            "pushgate-errors"]
OWN_PREFIXES = ("pushgate-", "apns-", "webpush-", "__connect.errors.")
MAX_DEPTH = 64
MAX_OUTPUT_BYTES = 4096
# SPEC 5.6: a webpush value leaves room for RFC 8291's encryption in a 4096-byte body.
MAX_OUTPUT_BYTES_BY_FORMAT = {"webpush": 3993}


def unframed(value: bytes) -> bytes:
    """The payload of a record value (SPEC 2, version 4): the bytes after a Schema Registry frame (``0x00``
    and a 4-byte schema id) when the value starts with ``0x00``, else the value."""
    return value[5:] if value[:1] == b"\x00" and len(value) >= 5 else value


# --------------------------------------------------------------------------- ECMA-262 "pattern"
def ecma_to_python(pattern: str) -> str:
    """Translate the ECMA-262 subset used in JSON Schema patterns to Python ``re`` syntax."""
    out: list[str] = []
    i, in_class, n = 0, False, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            e = pattern[i + 1]
            ascii_classes = {"d": "0-9", "w": "A-Za-z0-9_"}
            if e in ascii_classes:
                out.append(ascii_classes[e] if in_class else "[" + ascii_classes[e] + "]")
            elif e in ("D", "W"):
                cls = ascii_classes[e.lower()]
                out.append("\\" + e if in_class else "[^" + cls + "]")  # inside a class: rare, keep
            else:
                out.append(c + e)
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
            elif c == "[":
                out.append("\\[")
                i += 1
                continue
            out.append(c)
        elif c == "[":
            in_class = True
            if pattern.startswith("[^]", i):  # ECMA: any character
                out.append(r"[\s\S]")
                in_class = False
                i += 3
                continue
            out.append(c)
            if i + 1 < n and pattern[i + 1] == "^":
                out.append("^")
                i += 1
        elif c == "$":
            out.append(r"(?![\s\S])")  # end of input only
        else:
            out.append(c)
        i += 1
    return "".join(out)


@lru_cache(maxsize=None)
def compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(ecma_to_python(pattern))


def _pattern(validator, patrn, instance, schema):
    if validator.is_type(instance, "string") and not compiled(patrn).search(instance):
        what = schema.get("description") if isinstance(schema, dict) else None
        if what:
            yield ValidationError(f"{instance!r} does not match the pattern: {what}")
        else:
            yield ValidationError(f"{instance!r} does not match {patrn if len(patrn) < 80 else patrn[:77] + '...'}")


def _property_pattern_names(validator, patterns, instance, schema):  # patternProperties, ECMA semantics
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for k, v in instance.items():
            if compiled(pattern).search(k):
                yield from validator.descend(v, subschema, path=k, schema_path=pattern)


Validator = jsonschema.validators.extend(
    Draft202012Validator, {"pattern": _pattern, "patternProperties": _property_pattern_names})


# --------------------------------------------------------------------------- JSON loading
class LoadError(Exception):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for k, v in pairs:
        if k in obj:
            raise LoadError(f"duplicate member name {k!r}")
        obj[k] = v
    return obj


def _no_constant(name: str) -> Any:
    raise LoadError(f"{name} is not JSON (RFC 8259)")


def loads(text: str) -> Any:
    try:
        return json.loads(text, parse_float=Decimal, parse_constant=_no_constant, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as e:
        raise LoadError(f"invalid JSON at line {e.lineno} column {e.colno}: {e.msg}") from None


def load_file(path: Path) -> Any:
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as e:
        raise LoadError(f"invalid UTF-8 at byte {e.start}") from None
    return loads(text)


def to_plain(value: Any) -> Any:
    """Decimal -> float, for json.dumps in messages."""
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_plain(v) for v in value]
    return value


# --------------------------------------------------------------------------- helpers
def pointer(parts: Iterable[Any]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def walk_strings(value: Any, path: tuple = ()) -> Iterable[tuple[tuple, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield path + (k,), k
            yield from walk_strings(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk_strings(v, path + (i,))


def max_depth(value: Any, depth: int = 1) -> int:
    if isinstance(value, dict):
        return max([depth] + [max_depth(v, depth + 1) for v in value.values()])
    if isinstance(value, list):
        return max([depth] + [max_depth(v, depth + 1) for v in value])
    return depth


def surrogate_problems(doc: Any) -> list[tuple[str, str]]:
    return [(pointer(p), "unpaired surrogate in a string (SPEC 9: invalid_json)")
            for p, s in walk_strings(doc) if any(0xD800 <= ord(ch) <= 0xDFFF for ch in s)]


def unified_extra_problems(doc: Any) -> list[tuple[str, str]]:
    """SPEC rules for the input that JSON Schema cannot express (the duplicate-name and integer rules are
    enforced by ``loads``)."""
    problems = surrogate_problems(doc)
    depth = max_depth(doc)
    if depth > MAX_DEPTH:
        problems.append(("", f"a value at depth {depth} (SPEC 2: depth 65 or more is too_deep)"))
    if isinstance(doc, dict) and isinstance(doc.get("collapse_id"), str):
        n = len(doc["collapse_id"].encode("utf-8", "surrogatepass"))
        if n > 64:
            problems.append(("/collapse_id", f"{n} UTF-8 bytes (at most 64: out_of_range)"))
    return problems


class Report:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.passed = 0
        self.failed = 0

    def rel(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.root))
        except ValueError:
            return str(path)

    def check(self, path: Path, line: int | None, problems: list[tuple[str, str]]) -> bool:
        """Record one check; ``problems`` is a list of (json pointer, message)."""
        where = f"{self.rel(path)}:{line if line is not None else '-'}"
        if problems:
            self.failed += 1
            for ptr, msg in problems:
                print(f"FAIL {where} {ptr or '(root)'}: {msg}")
            return False
        self.passed += 1
        return True


def _is_type_branch(error: ValidationError) -> bool:
    """An anyOf/oneOf alternative rejected only for its type (e.g. the null of a nullable value): when another
    alternative has the right type, that one says what is wrong."""
    return error.validator == "type" and not error.relative_path


def _describe(error: ValidationError) -> ValidationError:
    """Pick the most useful error: for anyOf/oneOf the best sub-error that is not the null alternative."""
    while error.context:
        candidates = [c for c in error.context if not _is_type_branch(c)] or list(error.context)
        best = jsonschema.exceptions.best_match(candidates)
        if best is None:
            break
        error = best
    return error


def schema_problems(validator: Any, instance: Any, prefix: tuple = ()) -> list[tuple[str, str]]:
    """Every schema error as (JSON pointer into the instance, message)."""
    out = []
    for e in sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.absolute_path]):
        leaf = _describe(e)
        comment = leaf.schema.get("$comment") if isinstance(leaf.schema, dict) else None
        if leaf.validator == "not" and comment:
            msg = f"forbidden by the rule: {comment}"
        elif leaf.validator == "type" and isinstance(leaf.instance, Decimal) and "integer" in leaf.validator_value:
            msg = (f"{leaf.instance} is not an integer: SPEC 2 allows no fraction and no exponent "
                   f"(wrong_type)")
        else:
            msg = leaf.message
        if len(msg) > 300:
            msg = msg[:300] + "..."
        out.append((pointer(prefix + tuple(leaf.absolute_path)), msg))
    return out


# --------------------------------------------------------------------------- schemas & examples
class Schemas:
    def __init__(self, report: Report, schema_dir: Path) -> None:
        self.report = report
        self.dir = schema_dir
        self.validators: dict[str, Any] = {}

    def load_all(self) -> None:
        files = sorted(self.dir.glob("*.schema.json"))
        if not files:
            self.report.check(self.dir, None, [("", "no *.schema.json files")])
        for f in files:
            name = f.name[: -len(".schema.json")]
            problems: list[tuple[str, str]] = []
            try:
                with f.open(encoding="utf-8") as fh:
                    schema = json.load(fh, object_pairs_hook=_no_duplicates)
                if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
                    problems.append(("/$schema", "must be https://json-schema.org/draft/2020-12/schema"))
                Draft202012Validator.check_schema(schema)
                for ptr, pat in find_patterns(schema):
                    try:
                        compiled(pat)
                    except re.error as e:
                        problems.append((ptr, f"pattern does not compile: {e}"))
                if not problems:
                    self.validators[name] = Validator(schema)
            except (LoadError, json.JSONDecodeError, UnicodeDecodeError) as e:
                problems.append(("", f"cannot load: {e}"))
            except jsonschema.exceptions.SchemaError as e:
                problems.append((pointer(e.absolute_path), f"not a valid 2020-12 schema: {e.message}"))
            self.report.check(f, None, problems)

    def get(self, name: str) -> Any | None:
        return self.validators.get(name)

    def check_examples(self) -> None:
        ex_dir = self.dir / "examples"
        files = sorted(ex_dir.glob("*.json")) if ex_dir.is_dir() else []
        rx = re.compile(r"^(?P<schema>.+)\.(?P<kind>example|invalid)-[0-9A-Za-z_-]+\.json$")
        for f in files:
            m = rx.match(f.name)
            if not m:
                self.report.check(f, None, [("", "example names are <schema>.example-N.json or "
                                                 "<schema>.invalid-N.json")])
                continue
            validator = self.get(m["schema"])
            if validator is None:
                self.report.check(f, None, [("", f"no usable schema Schemas/{m['schema']}.schema.json")])
                continue
            try:
                doc = load_file(f)
                load_problem = None
            except LoadError as e:
                doc, load_problem = None, str(e)
            if m["kind"] == "example":
                if load_problem:
                    self.report.check(f, None, [("", load_problem)])
                    continue
                problems = schema_problems(validator, doc)
                if m["schema"] == "unified-payload":
                    problems += unified_extra_problems(doc)
                else:
                    problems += surrogate_problems(doc)
                self.report.check(f, None, problems)
            else:
                rejected = bool(load_problem) or bool(schema_problems(validator, doc)) or (
                    m["schema"] == "unified-payload" and bool(unified_extra_problems(doc)))
                self.report.check(f, None, [] if rejected else [("", f"must be rejected by "
                                                                     f"{m['schema']}.schema.json but is valid")])
        if not files:
            self.report.check(ex_dir, None, [("", "no example files")])


def find_patterns(schema: Any, path: tuple = ()) -> Iterable[tuple[str, str]]:
    if isinstance(schema, dict):
        for k, v in schema.items():
            if k == "pattern" and isinstance(v, str):
                yield pointer(path + (k,)), v
            elif k == "patternProperties" and isinstance(v, dict):
                for p in v:
                    yield pointer(path + (k, p)), p
            if k not in ("const", "enum", "default", "examples"):
                yield from find_patterns(v, path + (k,))
    elif isinstance(schema, list):
        for i, v in enumerate(schema):
            yield from find_patterns(v, path + (i,))


# --------------------------------------------------------------------------- goldens
def raw_members(line: str) -> dict[str, tuple[int, int]]:
    """Spans of the top-level member values of a JSON object line (to see the value's exact bytes)."""
    dec = json.JSONDecoder()
    spans: dict[str, tuple[int, int]] = {}
    i = 0
    ws = " \t\r\n"

    def skip(j: int) -> int:
        while j < len(line) and line[j] in ws:
            j += 1
        return j

    i = skip(i)
    if not line.startswith("{", i):
        return spans
    i = skip(i + 1)
    if line.startswith("}", i):
        return spans
    while True:
        key, i = dec.raw_decode(line, i)
        i = skip(i)
        if not line.startswith(":", i):
            return spans
        start = skip(i + 1)
        _, end = dec.raw_decode(line, start)
        spans[key] = (start, end)
        i = skip(end)
        if line.startswith(",", i):
            i = skip(i + 1)
            continue
        return spans


def parse_header_value(name: str, value: Any) -> tuple[Any, str | None]:
    if name in ("pushgate-errors", "pushgate-warnings") and isinstance(value, str):
        try:
            return loads(value), None
        except LoadError as e:
            return value, f"{name} is not JSON: {e}"
    return value, None


def own_headers(headers: list, prefixes: tuple[str, ...]) -> tuple[dict[str, Any], list[str], list[tuple[str, str]]]:
    """Collect pushgate's own headers (name prefix compared ASCII case-insensitively)."""
    obj: dict[str, Any] = {}
    names: list[str] = []
    problems: list[tuple[str, str]] = []
    for idx, pair in enumerate(headers):
        name = pair[0]
        if not name.lower().startswith(prefixes):
            if names:
                problems.append((f"/headers/{idx}", f"forwarded header {name!r} after pushgate's own headers "
                                                    "(SPEC 1: forwarded headers come first)"))
            continue
        if name in obj:
            problems.append((f"/headers/{idx}", f"header {name!r} appears twice"))
            continue
        value, err = parse_header_value(name, pair[1])
        if err:
            problems.append((f"/headers/{idx}", err))
        obj[name] = value
        names.append(name)
    return obj, names, problems


def order_problems(names: list[str], order: list[str]) -> list[tuple[str, str]]:
    known = [n for n in names if n in order]
    if known != sorted(known, key=order.index):
        return [("/headers", f"headers out of SPEC order: {known} (expected order {order})")]
    return []


def sort_key(problem: Any) -> tuple:
    return (problem.get("path", ""), problem.get("code", "")) if isinstance(problem, dict) else ("", "")


class Goldens:
    def __init__(self, report: Report, schemas: Schemas, golden_dir: Path) -> None:
        self.report = report
        self.schemas = schemas
        self.dir = golden_dir
        self.count = 0

    def run(self) -> None:
        if not self.dir.is_dir():
            print(f"note: {self.report.rel(self.dir)} does not exist: 0 goldens")
            return
        files = sorted(self.dir.glob("*.expected.jsonl"))
        for f in files:
            self.check_case(f)
        print(f"note: {len(files)} golden case(s), {self.count} golden record(s)")

    def check_case(self, path: Path) -> None:
        case = path.name[: -len(".expected.jsonl")]
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as e:
            self.report.check(path, None, [("", f"invalid UTF-8 at byte {e.start}")])
            return
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        produced_offsets: set[str] = set()
        groups: dict[str, list[int]] = {}
        for no, line in enumerate(lines, 1):
            self.count += 1
            problems, source, rank, is_output = self.check_line(line)
            if source is not None and rank is not None:
                prev = groups.setdefault(source, [])
                if prev and prev[-1] >= rank:
                    problems.append(("", f"records of one input out of SPEC order ({', '.join(formats())}, "
                                         "then dead letters in format order)"))
                prev.append(rank)
                if is_output:
                    produced_offsets.add(source)
            self.report.check(path, no, problems)
        if produced_offsets:
            self.check_input(path.parent, case, produced_offsets)

    def check_line(self, line: str) -> tuple[list[tuple[str, str]], str | None, int | None, bool]:
        """Validate one golden line. Returns (problems, input record "TOPIC:PARTITION:OFFSET", order rank,
        whether it is a normal output)."""
        try:
            rec = loads(line)
        except LoadError as e:
            return [("", str(e))], None, None, False
        problems: list[tuple[str, str]] = []
        if not isinstance(rec, dict):
            return [("", "a golden line is a JSON object")], None, None, False
        for key in ("topic", "format", "key", "headers", "value"):
            if key not in rec:
                problems.append(("", f"missing member {key!r}"))
        headers = rec.get("headers")
        if not (isinstance(headers, list) and all(
                isinstance(h, list) and len(h) == 2 and isinstance(h[0], str) and (h[1] is None or isinstance(h[1], str))
                for h in headers)):
            problems.append(("/headers", "headers is an array of [NAME, VALUE] pairs (VALUE a string or null)"))
            headers = []
        if not isinstance(rec.get("topic"), str) or not rec.get("topic"):
            problems.append(("/topic", "topic is a non-empty string"))
        if not (rec.get("key") is None or isinstance(rec.get("key"), str)):
            problems.append(("/key", "key is a string or null"))
        fmt = rec.get("format")
        source: str | None = None
        rank: int | None = None
        if fmt is None:
            problems += self.check_dead_letter(rec, headers)
            hdr = {h[0]: h[1] for h in headers}
            if all(isinstance(hdr.get(f"__connect.errors.{k}"), str) for k in ("topic", "partition", "offset")):
                source = ":".join(hdr[f"__connect.errors.{k}"] for k in ("topic", "partition", "offset"))
            fmt_hdr = hdr.get("pushgate-format")
            rank = len(formats()) + (formats().index(fmt_hdr) if fmt_hdr in formats() else 0)
            return problems, source, rank, False
        if fmt not in formats():
            problems.append(("/format", f"unknown format {fmt!r}"))
            return problems, None, None, False
        rank = formats().index(fmt)
        value = rec.get("value")
        schema_name = value_schema_name(fmt, headers)
        validator = self.schemas.get(schema_name)
        if validator is None:
            problems.append(("/value", f"no usable schema Schemas/{schema_name}.schema.json"))
        else:
            problems += schema_problems(validator, value, ("value",))
        problems += [("/value" + p, m) for p, m in surrogate_problems(value)]
        spans = raw_members(line)
        if "value" in spans:
            raw = line[spans["value"][0]:spans["value"][1]].encode("utf-8", "surrogatepass")
            limit = MAX_OUTPUT_BYTES_BY_FORMAT.get(fmt, MAX_OUTPUT_BYTES)
            if len(raw) > limit:
                problems.append(("/value", f"{len(raw)} bytes (SPEC 5: at most {limit}, "
                                           "else payload_too_large)"))
        if "value_base64" in rec:
            problems.append(("/value_base64", "only dead letters carry value_base64"))
        obj, names, hproblems = own_headers(headers, OWN_PREFIXES)
        problems += hproblems + order_problems(names, OUTPUT_HEADER_ORDER)
        hv = self.schemas.get("output-headers")
        if hv is None:
            problems.append(("/headers", "no usable schema Schemas/output-headers.schema.json"))
        else:
            problems += schema_problems(hv, obj, ("headers",))
        problems += golden_consistency(fmt, value, obj)
        src = obj.get("pushgate-source")
        source = src if isinstance(src, str) else None
        return problems, source, rank, True

    def check_dead_letter(self, rec: dict, headers: list) -> list[tuple[str, str]]:
        problems: list[tuple[str, str]] = []
        value, b64 = rec.get("value"), rec.get("value_base64")
        if not isinstance(value, str):
            problems.append(("/value", "a dead letter's value is the input as text (a string)"))
        if not isinstance(b64, str):
            problems.append(("/value_base64", "a dead letter has value_base64 (a string)"))
        elif isinstance(value, str):
            try:
                raw = base64.b64decode(b64, validate=True)
                if raw.decode("utf-8", "replace") != value:
                    problems.append(("/value", "value is not value_base64 decoded as UTF-8 (U+FFFD per maximal "
                                               "ill-formed subsequence)"))
            except (binascii.Error, ValueError) as e:
                problems.append(("/value_base64", f"not base64: {e}"))
        obj, names, hproblems = own_headers(headers, OWN_PREFIXES)
        problems += hproblems + order_problems(names, DEAD_LETTER_HEADER_ORDER)
        dv = self.schemas.get("dead-letter")
        if dv is None:
            problems.append(("/headers", "no usable schema Schemas/dead-letter.schema.json"))
        else:
            problems += schema_problems(dv, obj, ("headers",))
        problems += dead_letter_consistency(obj)
        return problems

    def check_input(self, directory: Path, case: str, produced: set[str]) -> None:
        args_file = directory / f"{case}.args"
        args: list[str] = []
        if args_file.exists():
            try:
                args = shlex.split(args_file.read_text(encoding="utf-8"))
            except ValueError as e:
                self.report.check(args_file, None, [("", f"cannot split arguments: {e}")])
                return
        if "--lenient" in args:
            return
        input_file = directory / f"{case}.input.json"
        if not input_file.exists():
            self.report.check(input_file, None, [("", "missing: the case produced outputs, so its input "
                                                      "must validate against unified-payload.schema.json")])
            return
        validator = self.schemas.get("unified-payload")
        if validator is None:
            self.report.check(input_file, None, [("", "no usable Schemas/unified-payload.schema.json")])
            return
        if "--lines" not in args:
            self.validate_input(validator, input_file, None, input_file.read_bytes())
            return
        offset, partition, topic = 0, "0", "push.unified"
        for i, a in enumerate(args):
            for opt in ("--record-offset", "--record-partition", "--record-topic"):
                val = None
                if a == opt and i + 1 < len(args):
                    val = args[i + 1]
                elif a.startswith(opt + "="):
                    val = a[len(opt) + 1:]
                if val is not None:
                    if opt == "--record-offset":
                        offset = int(val)
                    elif opt == "--record-partition":
                        partition = val
                    else:
                        topic = val
        data = input_file.read_bytes()
        parts = data.split(b"\n")
        if data.endswith(b"\n"):
            parts.pop()
        for n, part in enumerate(parts):
            if f"{topic}:{partition}:{offset + n}" in produced:
                self.validate_input(validator, input_file, n + 1, part)

    def validate_input(self, validator: Any, path: Path, line: int | None, data: bytes) -> None:
        data = unframed(data)
        try:
            doc = loads(data.decode("utf-8"))
        except UnicodeDecodeError as e:
            self.report.check(path, line, [("", f"invalid UTF-8 at byte {e.start}")])
            return
        except LoadError as e:
            self.report.check(path, line, [("", str(e))])
            return
        self.report.check(path, line, schema_problems(validator, doc) + unified_extra_problems(doc))


def value_schema_name(fmt: str, headers: list) -> str:
    """The schema of a record's value: ``apns-live-activity`` for an ``apns`` record sent as a Live Activity push
    (``apns-push-type: liveactivity``, SPEC 5.1.1), else the format's own."""
    if fmt == "apns" and any(h[0] == "apns-push-type" and h[1] == "liveactivity" for h in headers):
        return "apns-live-activity"
    return fmt


def golden_consistency(fmt: str, value: Any, headers: dict[str, Any]) -> list[tuple[str, str]]:
    """SPEC rules linking an output's value and headers."""
    problems: list[tuple[str, str]] = []
    cid = headers.get("apns-collapse-id")
    if isinstance(cid, str) and len(cid.encode("utf-8", "surrogatepass")) > 64:
        problems.append(("/headers/apns-collapse-id", "more than 64 UTF-8 bytes"))
    if headers.get("pushgate-format") not in (None, fmt):
        problems.append(("/headers/pushgate-format", f"{headers['pushgate-format']!r} but the record's format is "
                                                     f"{fmt!r}"))
    if fmt in apns_formats() and isinstance(value, dict) and isinstance(value.get("aps"), dict):
        aps = value["aps"]
        background = not any(k in aps for k in ("alert", "badge", "sound"))
        want = "liveactivity" if fmt == "apns" and "event" in aps else "background" if background else "alert"
        if headers.get("apns-push-type") not in (None, want):
            problems.append(("/headers/apns-push-type", f"is {headers['apns-push-type']!r}, SPEC 5.1 gives "
                                                        f"{want!r} for this aps"))
    return problems


def dead_letter_consistency(headers: dict[str, Any]) -> list[tuple[str, str]]:
    """SPEC 6/9 rules linking the dead-letter headers to each other."""
    problems: list[tuple[str, str]] = []
    errors = headers.get("pushgate-errors")
    if not (isinstance(errors, list) and errors and all(isinstance(e, dict) for e in errors)):
        return problems
    first = errors[0]
    if headers.get("__connect.errors.exception.class.name") not in (None, first.get("code")):
        problems.append(("/headers/__connect.errors.exception.class.name", "is not the first error's code"))
    msg = f"{first.get('path')}: {first.get('message')}"
    if headers.get("__connect.errors.exception.message") not in (None, msg):
        problems.append(("/headers/__connect.errors.exception.message",
                         f"is not PATH: MESSAGE of the first error ({msg!r})"))
    if errors != sorted(errors, key=sort_key):
        problems.append(("/headers/pushgate-errors", "errors are not sorted by path (code point), then code"))
    return problems


# --------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="repository root (default: the parent of this script's directory)")
    parser.add_argument("--pushgate", default=None,
                        help="the pushgate binary that lists the formats (default: $PUSHGATE or .build/debug/pushgate)")
    args = parser.parse_args(argv)
    global PUSHGATE
    PUSHGATE = args.pushgate
    root = args.root.resolve()
    report = Report(root)
    schemas = Schemas(report, root / "Schemas")
    schemas.load_all()
    schemas.check_examples()
    Goldens(report, schemas, root / "Tests" / "PushTranslationTests" / "Golden").run()
    print(f"{report.passed} passed, {report.failed} failed")
    return 1 if report.failed else 0


if __name__ == "__main__":
    sys.exit(main())
