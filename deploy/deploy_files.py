"""Readers of what check_deploy.py looks at: `pushgate run --help`, a Dockerfile, .dockerignore, SPEC's topics."""

from __future__ import annotations

import json
import re
import shlex


class RunHelp:
    """Options and environment variables of `pushgate run`, read from its --help text."""

    def __init__(self, text: str):
        self.value_options: set[str] = set()  # take a value: --group-id X, -X K=V
        self.flag_options: set[str] = set()  # take none: --lenient, --no-lenient, -h, --help
        in_options = False
        for line in text.splitlines():
            if re.match(r"^[A-Z][A-Z ]*:", line):
                in_options = line.startswith("OPTIONS:")
                continue
            m = re.match(r"^  (-\S.*?)(?:\s{2,}|$)", line) if in_options else None
            if not m:
                continue
            target = self.value_options if "<" in m.group(1) else self.flag_options
            target.update(re.findall(r"(?<![\w-])(--[a-z0-9][a-z0-9-]*|-[A-Za-z])(?![\w-])", m.group(1)))
        self.env_vars = set(re.findall(r"\bPUSHGATE_[A-Z0-9_]+\b", text))

    @property
    def options(self) -> set[str]:
        return self.value_options | self.flag_options

    def parse(self, args: list[str]) -> tuple[dict[str, list[str]], list[str]]:
        """The options given (name -> values) and what is wrong with the arguments, as argument-parser reads them."""
        given: dict[str, list[str]] = {}
        bad: list[str] = []
        i = 0
        while i < len(args):
            token = args[i]
            i += 1
            if token.startswith("--") and token != "--":
                name, eq, value = token.partition("=")
            elif token.startswith("-") and len(token) >= 2 and token != "--":
                name, value = token[:2], token[2:]
                eq = "=" if value else ""
            else:
                bad.append(f"unexpected argument {token!r} (`pushgate run` takes no arguments)")
                continue
            if name in self.value_options:
                if not eq:
                    if i >= len(args):
                        bad.append(f"{name} needs a value")
                        continue
                    value, i = args[i], i + 1
                given.setdefault(name, []).append(value)
            elif name in self.flag_options:
                if eq:
                    bad.append(f"{name} takes no value")
                given.setdefault(name, []).append("")
            else:
                bad.append(f"unknown option {name}")
        return given, bad


class Dockerfile:
    """Stages (image, name, instructions) of a Dockerfile, with global ARGs substituted into FROM."""

    def __init__(self, text: str):
        self.stages: list[dict] = []
        self.global_args: dict[str, str] = {}
        logical, current = [], ""
        for raw in text.splitlines():
            stripped = raw.strip()
            if stripped.startswith("#") or (not stripped and not current):
                continue
            if stripped.endswith("\\"):
                current += stripped[:-1] + " "
                continue
            logical.append((current + stripped).strip())
            current = ""
        if current.strip():
            logical.append(current.strip())
        for line in filter(None, logical):
            keyword, _, rest = line.partition(" ")
            keyword, rest = keyword.upper(), rest.strip()
            if keyword == "FROM":
                parts = [p for p in rest.split() if not p.startswith("--")]
                name = parts[2] if len(parts) >= 3 and parts[1].upper() == "AS" else None
                self.stages.append({"image": self.substitute(parts[0]) if parts else "", "name": name, "instructions": []})
            elif not self.stages:
                if keyword == "ARG":
                    key, _, value = rest.partition("=")
                    self.global_args[key.strip()] = value.strip().strip('"')
            else:
                self.stages[-1]["instructions"].append((keyword, rest))

    def substitute(self, text: str) -> str:
        return re.sub(r"\$\{?(\w+)\}?", lambda m: self.global_args.get(m.group(1), m.group(0)), text)

    @staticmethod
    def exec_form(args: str) -> list[str]:
        try:
            value = json.loads(args)
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                return value
        except json.JSONDecodeError:
            pass
        return ["/bin/sh", "-c", args]

    @staticmethod
    def last(stage: dict, keyword: str) -> str | None:
        found = [args for kw, args in stage["instructions"] if kw == keyword]
        return found[-1] if found else None

    @staticmethod
    def env(stage: dict) -> dict[str, str]:
        env = {}
        for kw, args in stage["instructions"]:
            if kw == "ENV":
                for token in shlex.split(args):
                    key, eq, value = token.partition("=")
                    if eq:
                        env[key] = value
        return env


def dockerignore_excludes(lines: list[str], path: str) -> bool:
    """Whether .dockerignore lines exclude PATH from the build context (last matching pattern wins, `!` re-includes)."""
    excluded = False
    for raw in lines:
        pattern = raw.strip()
        if not pattern or pattern.startswith("#"):
            continue
        negate = pattern.startswith("!")
        pattern = pattern.lstrip("!").strip("/")
        regex = "".join(".*" if part == "**" else re.escape(part).replace(r"\*", "[^/]*").replace(r"\?", "[^/]")
                        for part in re.split(r"(\*\*)", pattern))
        # A pattern matching a parent directory matches what is under it.
        if re.fullmatch(regex + "(/.*)?", path):
            excluded = not negate
    return excluded


def spec_topics(spec: str) -> dict[str, str]:
    """SPEC section 1's table: format -> default topic, plus "input" and "dead-letter"."""
    section = spec.split("## 1.", 1)[-1].split("\n## ", 1)[0]
    topics: dict[str, str] = {}
    for name, content in re.findall(r"^\|\s*`([\w.-]+)`\s*\|([^|]*)\|", section, re.M):
        fmt = re.search(r"format `([\w-]+)`", content)
        if fmt:
            topics[fmt.group(1)] = name
        elif "input" in content:
            topics["input"] = name
        elif "dead letter" in content:
            topics["dead-letter"] = name
    return topics


def env_dict(environment) -> dict[str, str]:
    """A compose `environment` (mapping or list of KEY=VALUE) as a dict."""
    if isinstance(environment, dict):
        return {str(k): "" if v is None else str(v) for k, v in environment.items()}
    return {str(item).partition("=")[0]: str(item).partition("=")[2] for item in environment or []}


def as_argv(value) -> list[str]:
    if value is None:
        return []
    return [str(v) for v in value] if isinstance(value, list) else shlex.split(str(value))
