"""Shared outcome type for the parser models: a payload the real client does not render."""


class Refusal(Exception):
    """The real parser does not render the payload.

    kind: "refused" (rejected, card or template not shown), "not_shown" (accepted but laid out
    at 0x0), "crash" (an exception the SDK does not catch), "hang" (load never completes),
    "fallback" (Adobe: the plain title/body template is shown instead of the carousel).
    rule: the RULES.md rule id that decides it.
    """

    def __init__(self, kind, rule, message):
        super().__init__(f"{rule} [{kind}] {message}")
        self.kind = kind
        self.rule = rule
        self.message = message

    def __repr__(self):
        return f"Refusal({self.kind!r}, {self.rule!r}, {self.message!r})"


def is_refusal(result):
    return isinstance(result, Refusal)


def is_number(value):
    """A JSON number (bool is not a number in JSON)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)
