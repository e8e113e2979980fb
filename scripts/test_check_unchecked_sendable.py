"""Tests of scripts/check_unchecked_sendable.py: the bound holds on the repository's Sources/, a fifth
conformance fails it, and comments and strings that name `@unchecked Sendable` are not counted.

  python3 -m unittest scripts/test_check_unchecked_sendable.py
"""
import io
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check_unchecked_sendable as check  # noqa: E402


def run(directory):
    """The checker's exit status and output over `directory`."""
    output = io.StringIO()
    with redirect_stdout(output), redirect_stderr(io.StringIO()):
        status = check.main(["check_unchecked_sendable.py", str(directory)])
    return status, output.getvalue()


def write_conformances(directory, count):
    """`count` types with `@unchecked Sendable`, one file each."""
    for index in range(count):
        Path(directory, f"Type{index}.swift").write_text(
            f"/// Safe because nothing changes.\nfinal class Type{index}: Base, @unchecked Sendable {{}}\n"
        )


class CheckUncheckedSendableTests(unittest.TestCase):
    def test_sources_are_within_the_bound(self):
        status, output = run(check.ROOT / "Sources")
        self.assertEqual(status, 0, output)
        self.assertLessEqual(len(check.unchecked_conformances(check.ROOT / "Sources")), check.MAX_UNCHECKED)

    def test_the_bound_passes_and_one_more_fails(self):
        with tempfile.TemporaryDirectory() as directory:
            write_conformances(directory, check.MAX_UNCHECKED)
            status, output = run(directory)
            self.assertEqual(status, 0, output)
            self.assertIn(f"{check.MAX_UNCHECKED} @unchecked Sendable", output)
            Path(directory, "Extra.swift").write_text(
                "struct Extra: @unchecked Swift.Sendable {\n    let pointer: UnsafeRawPointer\n}\n"
            )
            status, output = run(directory)
            self.assertEqual(status, 1, output)
            self.assertIn("Extra.swift:1", output)

    def test_comments_and_strings_are_not_counted(self):
        with tempfile.TemporaryDirectory() as directory:
            Path(directory, "Quiet.swift").write_text(
                "/// `@unchecked Sendable` is what a subclass declares.\n"
                "// @unchecked Sendable\n"
                "/* outer /* @unchecked Sendable */ still a comment: @unchecked Sendable */\n"
                'let text = "@unchecked Sendable"\n'
                'let raw = #"a \\" @unchecked Sendable"#\n'
                'let lines = """\n    @unchecked Sendable\n    """\n'
                'let url = "https://example.com" // a comment after a string\n'
                "final class Counted: Base, @unchecked Sendable {}\n"
            )
            self.assertEqual(
                check.unchecked_conformances(directory), [(Path(directory, "Quiet.swift"), 10)]
            )


if __name__ == "__main__":
    unittest.main()
