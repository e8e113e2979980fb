#!/usr/bin/env python3
"""Checks the relative links of the documentation: every [text](target) and ![alt](target) in README.md,
CHANGELOG.md and docs/*.md (or the files given) must name a file or directory of the repository, and a
#fragment must name a heading of its Markdown file (GitHub's anchors). Links to other sites (http:,
https:, mailto:) are not followed. Links inside code blocks and code spans are ignored.

  python3 scripts/check_doc_links.py [FILE.md ...]

Prints one line per broken link and a final line `N passed, M failed`; exits 1 on any failure.
"""
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def prose_lines(text):
    """(line number, line) of `text` outside fenced code blocks, with code spans blanked."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`", "", heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link in a heading keeps its text
    kept = []
    for char in text.lower():
        category = unicodedata.category(char)
        if char in " -_" or category[0] in "LN" or category == "Mn":
            kept.append("-" if char == " " else char)
    return "".join(kept)


def anchors(path):
    """Every anchor GitHub makes for the headings of the Markdown file at `path`."""
    seen = {}
    result = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    return result


def check(path):
    """The problems of the links in the Markdown file at `path`, and how many links were checked."""
    problems = []
    checked = 0
    for number, line in prose_lines(path.read_text(encoding="utf-8")):
        for match in LINK.finditer(line):
            target = match.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
                continue  # another site, or mailto:
            checked += 1
            where = f"{path.relative_to(ROOT)}:{number}: {target}"
            file_part, _, fragment = target.partition("#")
            destination = (path.parent / file_part).resolve() if file_part else path
            try:
                destination.relative_to(ROOT)
            except ValueError:
                problems.append(f"{where}: points outside the repository")
                continue
            if not destination.exists():
                problems.append(f"{where}: no such file")
            elif fragment and destination.suffix == ".md" and fragment not in anchors(destination):
                problems.append(f"{where}: no heading with anchor #{fragment}")
    return problems, checked


def main(arguments):
    files = [Path(name).resolve() for name in arguments] or (
        [ROOT / "README.md", ROOT / "CHANGELOG.md"] + sorted((ROOT / "docs").glob("*.md")))
    failed = []
    passed = 0
    for path in files:
        if not path.is_file():
            failed.append(f"{path}: no such file")
            continue
        problems, checked = check(path)
        failed += problems
        passed += checked - len(problems)
    for problem in failed:
        print(f"FAIL {problem}")
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
