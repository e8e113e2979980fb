#!/usr/bin/env python3
"""Counts the `@unchecked Sendable` conformances in the Swift code under Sources/ (or the directory given)
and fails when there are more than the bound: each one is a promise the compiler cannot check, argued in a
comment beside it, and the bound keeps them few (docs/architecture.md, "Unsafe code").

  python3 scripts/check_unchecked_sendable.py [DIRECTORY]

Comments and string literals are not counted (a comment that names `@unchecked Sendable` is not one).
Prints each conformance as FILE:LINE and a final line `N @unchecked Sendable (at most MAX)`; exits 1 above
the bound.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_UNCHECKED = 4
UNCHECKED = re.compile(r"@unchecked\s+(?:Swift\s*\.\s*)?Sendable\b")


def code_only(text):
    """`text` with its comments and string literals blanked (newlines kept, so line numbers hold).

    Handles `//` and nested `/* */` comments, `"..."` and `\"\"\"...\"\"\"` strings with escapes, and raw
    strings (`#"..."#`); string interpolation is blanked with its string, which is enough to count
    declarations.
    """
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
            hashes = len(text[i:]) - len(text[i:].lstrip("#"))
            j = i + hashes
            quotes = '"""' if text.startswith('"""', j) else '"'
            closing = quotes + "#" * hashes
            j += len(quotes)
            while j < n and not text.startswith(closing, j):
                j += 2 if text[j] == "\\" and not hashes else 1
            j = min(n, j + len(closing))
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def unchecked_conformances(directory):
    """(path, line number) of every `@unchecked Sendable` in the Swift files under `directory`."""
    found = []
    for path in sorted(Path(directory).rglob("*.swift")):
        code = code_only(path.read_text(encoding="utf-8"))
        for match in UNCHECKED.finditer(code):
            found.append((path, code.count("\n", 0, match.start()) + 1))
    return found


def main(argv):
    directory = Path(argv[1]) if len(argv) > 1 else ROOT / "Sources"
    found = unchecked_conformances(directory)
    for path, line in found:
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"{shown}:{line}")
    print(f"{len(found)} @unchecked Sendable (at most {MAX_UNCHECKED})")
    if len(found) > MAX_UNCHECKED:
        print(
            f"more than {MAX_UNCHECKED}: make the new type checked Sendable (let properties of Sendable types, "
            "Mutex or Atomic from Synchronization for what changes), or remove the need for another",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
