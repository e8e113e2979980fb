#!/usr/bin/env python3
"""What no general-purpose validator of deploy/ can know: pushgate's own flags, variables and topics.

    python3 deploy/check_deploy.py [--pushgate .build/debug/pushgate] [--spec docs/spec.md] [-v]
    python3 deploy/check_deploy.py --self-test      # the checker's own tests

The files' syntax and schemas are checked by the field's tools (`make deploy-lint`: hadolint, docker
compose config, kubernetes-validate, and KEDA's CRD schema through deploy/validate_keda.py). This checks
only what those cannot know:

- every flag and every PUSHGATE_* variable given to pushgate (Dockerfile ENTRYPOINT/CMD/ENV, compose
  services, the Kubernetes Deployments and their ConfigMaps/Secrets, command lines in deploy/README.md) is
  one that `pushgate run --help` or `pushgate deliver --help` (as the command is) of the built binary
  lists, with a value pushgate can read;
- every COPY source of the Dockerfile is in a fresh clone (`git ls-files`) and not excluded by the
  Dockerfile's .dockerignore, or comes from an earlier stage (`COPY --from=STAGE`);
- every SwiftPM resource bundle beside the built binary (`PACKAGE_TARGET.resources`, read by pushgate
  from beside its binary) is installed by the Dockerfile;
- topics: the input and dead-letter topics of SPEC section 1 and each format's topic as the binary lists it
  (`pushgate formats`): kafka-init creates all of them and every topic the workers use, `--topic` and
  PUSHGATE_TOPICS name formats of the binary, KEDA's trigger watches the workers' input topic and group;
  for `deliver` (SPEC 10): kafka-init creates its devices topic compacted and its receipts topic, KEDA's
  triggers watch exactly the topics of the platforms it delivers to, in its group, and each credential
  file of those platforms (the APNs key, the FCM service accounts, the VAPID keys) is a file of a Secret,
  mounted read-only;
- the grace period before SIGKILL (the Deployment's terminationGracePeriodSeconds, compose's
  stop_grace_period) exceeds the workers' --shutdown-timeout (SPEC 7; deliver's default is 10 s).

Prints one line per failure (all checks with -v) and ends with exactly `N passed, M failed`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import yaml

from deploy_files import Dockerfile, RunHelp, as_argv, dockerignore_excludes, env_dict, spec_topics


class Checker:
    def __init__(self, verbose: bool = False):
        self.passed = 0
        self.failed = 0
        self.verbose = verbose

    def check(self, ok: bool, what: str, why: str = "") -> bool:
        if ok:
            self.passed += 1
            if self.verbose:
                print(f"ok   {what}")
        else:
            self.failed += 1
            print(f"FAIL {what}" + (f": {why}" if why else ""))
        return ok


# The subcommands deployed, and what differs between them.
COMMANDS = ("run", "deliver")
DEFAULT_SHUTDOWN_TIMEOUT = {"run": "30s", "deliver": "10s"}
DEFAULT_GROUP = {"run": "pushgate", "deliver": "pushgate-deliver"}
# deliver's own topics (SPEC 10): the device directory (compacted) and the receipts.
DELIVER_TOPICS = {"devices": ("--devices-topic", "PUSHGATE_DEVICES_TOPIC", "push.devices"),
                  "receipts": ("--receipts-topic", "PUSHGATE_RECEIPTS_TOPIC", "push.receipts")}
# The delivery platform (SPEC 10.2) of a format of `pushgate formats`: its `platform` ios is posted to APNs;
# the formats fcm and webpush to FCM and to browsers' push services; android-expandable to none.
APNS_FORMAT_PLATFORM = "ios"
DELIVERY_PLATFORMS = ("apns", "fcm", "webpush")
# Each platform's credential files (SPEC 10.3 to 10.5): flag, variable, and how a value names its file.
CREDENTIAL_FILES = {
    "apns": ("--apns-key-file", "PUSHGATE_APNS_KEY_FILE", "APNs key file"),
    "fcm": ("--fcm-credentials", "PUSHGATE_FCM_CREDENTIALS", "FCM service-account file"),
    "webpush": ("--vapid-key", "PUSHGATE_VAPID_KEYS", "VAPID key file"),
}
INTEGER_OPTIONS = ("--metrics-port", "--max-payload-bytes", "--max-in-flight", "--partitions", "--connect-timeout",
                   "--max-in-flight-requests")
DURATION_OPTIONS = ("--shutdown-timeout", "--request-timeout", "--give-up-after")


class Context:
    """What every check needs: the checker, the help texts of `pushgate run` and `pushgate deliver`, and
    SPEC's topics."""

    def __init__(self, c: Checker, helps: dict[str, RunHelp | None], topics: dict[str, str],
                 platforms: dict[str, str] | None = None):
        self.c, self.helps, self.topics = c, helps, topics  # topics: format (or "input"/"dead-letter") -> name
        self.platforms = platforms or {}  # format -> platform, from `pushgate formats`

    @property
    def help(self) -> RunHelp | None:
        return self.helps.get("run")

    @property
    def formats(self) -> set[str]:
        return set(self.topics) - {"input", "dead-letter"}

    def delivery_platform(self, fmt: str) -> str | None:
        """The platform `deliver` posts a format's records to, or None (SPEC 10.2)."""
        if self.platforms.get(fmt) == APNS_FORMAT_PLATFORM:
            return "apns"
        return fmt if fmt in ("fcm", "webpush") else None

    def command_formats(self, command: str, platforms: set[str] | None = None) -> set[str]:
        """The formats a command may name in --topic: every one for run; for deliver, those it can post
        (of `platforms` only, when given)."""
        if command == "deliver":
            return {f for f in self.formats if self.delivery_platform(f) in (platforms or DELIVERY_PLATFORMS)}
        return self.formats


def load_run_help(binary: str, command: str = "run") -> tuple[RunHelp | None, str]:
    """The options and variables of `pushgate COMMAND --help`, or None and why not."""
    try:
        proc = subprocess.run([binary, command, "--help"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, f"cannot run '{binary} {command} --help': {error}"
    if proc.returncode != 0:
        return None, f"'{binary} {command} --help' exited {proc.returncode}: {proc.stderr.strip()[:200]}"
    help_ = RunHelp(proc.stdout)
    if not help_.options or not help_.env_vars:
        return None, f"'{binary} {command} --help' lists no options or no PUSHGATE_* variables"
    return help_, ""


def load_formats(binary: str) -> tuple[list[dict] | None, str]:
    """The binary's formats (`pushgate formats`: name, topic, platform), or None and why not."""
    try:
        proc = subprocess.run([binary, "formats"], capture_output=True, text=True, timeout=60)
        listed = json.loads(proc.stdout) if proc.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError) as error:
        return None, f"cannot read '{binary} formats': {error}"
    if not isinstance(listed, list) or not listed:
        return None, f"'{binary} formats' exited {proc.returncode} or listed no formats"
    return listed, ""


def command_of(argv: list[str]) -> str | None:
    """`run` or `deliver` when argv runs `pushgate run` or `pushgate deliver`, else None."""
    ok = len(argv) >= 2 and os.path.basename(argv[0]) == "pushgate" and argv[1] in COMMANDS
    return argv[1] if ok else None


def check_run_argv(x: Context, argv: list[str], where: str, commands: tuple[str, ...] = ("run",)) -> dict[str, list[str]]:
    """Checks a full command line (argv[0] is the program) of one of COMMANDS. Returns the options given,
    name -> values."""
    command = command_of(argv)
    names = " or ".join(f"`pushgate {c}`" for c in commands)
    if not x.c.check(command in commands, f"{where}: runs {names}", f"the command is {argv!r}"):
        return {}
    help_ = x.helps.get(command)
    if help_ is None:
        x.c.check(False, f"{where}: flags verified against `pushgate {command} --help`", "no help text (see above)")
        return {}
    given, bad = help_.parse(argv[2:])
    formats = x.command_formats(command)
    for value in given.get("-X", []):
        if "=" not in value or value.startswith("="):
            bad.append(f"-X {value!r} is not KEY=VALUE")
    for value in given.get("--topic", []):
        fmt, eq, name = value.partition("=")
        if not eq or fmt not in formats or not name:
            bad.append(f"--topic {value!r} is not FORMAT=NAME with FORMAT one of {sorted(formats)}")
    for name in INTEGER_OPTIONS:
        bad += [f"{name} {v!r} is not an integer" for v in given.get(name, []) if not re.fullmatch(r"\d+", v)]
    for name in DURATION_OPTIONS:
        bad += [f"{name} {v!r} is not a duration" for v in given.get(name, []) if duration_seconds(v) is None]
    x.c.check(not bad, f"{where}: only `pushgate {command}` flags ({' '.join(argv[1:])})", "; ".join(bad))
    return given


def check_env(x: Context, env: dict[str, str], where: str, command: str = "run") -> None:
    """Every PUSHGATE_* variable is one `pushgate COMMAND --help` names, with a value pushgate can read."""
    names = sorted(n for n in env if n.startswith("PUSHGATE_"))
    if not names:
        return
    help_ = x.helps.get(command)
    if help_ is None:
        x.c.check(False, f"{where}: PUSHGATE_* variables verified against `pushgate {command} --help`", "no help text")
        return
    unknown = [n for n in names if n not in help_.env_vars]
    x.c.check(not unknown, f"{where}: PUSHGATE_* variables are ones `pushgate {command} --help` names",
              f"unknown: {', '.join(unknown)}")
    formats = x.command_formats(command)
    bad = []
    for name in names:
        value = str(env[name])
        if "$(" in value or "${" in value:
            continue  # expanded by Kubernetes or compose
        if name in ("PUSHGATE_MAX_PAYLOAD_BYTES", "PUSHGATE_METRICS_PORT", "PUSHGATE_PARTITIONS",
                    "PUSHGATE_MAX_IN_FLIGHT", "PUSHGATE_CONNECT_TIMEOUT",
                    "PUSHGATE_MAX_IN_FLIGHT_REQUESTS") and not re.fullmatch(r"\s*\d+\s*", value):
            bad.append(f"{name}={value!r} is not an integer")
        elif name in ("PUSHGATE_SHUTDOWN_TIMEOUT", "PUSHGATE_REQUEST_TIMEOUT", "PUSHGATE_GIVE_UP_AFTER") \
                and duration_seconds(value.strip()) is None:
            bad.append(f"{name}={value!r} is not a duration (a whole number with ms, s, m or h)")
        elif name == "PUSHGATE_LENIENT" and value.strip().lower() not in {"true", "false", "1", "0", "yes", "no"}:
            bad.append(f"{name}={value!r} is not true/false")
        elif name == "PUSHGATE_RECEIPTS" and value.strip() not in {"failures", "all", "none"}:
            bad.append(f"{name}={value!r} is not failures, all or none")
        elif name == "PUSHGATE_X":
            bad += [f"PUSHGATE_X entry {e!r} is not key=value" for e in filter(None, (e.strip() for e in re.split(r"[;\n]", value)))
                    if "=" not in e or e.startswith("=")]
        elif name == "PUSHGATE_TOPICS":
            for entry in filter(None, (e.strip() for e in re.split(r"[,;\n]", value))):
                fmt, eq, topic = entry.partition("=")
                if not eq or fmt not in formats or not topic:
                    bad.append(f"PUSHGATE_TOPICS entry {entry!r} is not FORMAT=NAME with a format of `pushgate formats`"
                               + (" that deliver posts" if command == "deliver" else ""))
        elif name == "PUSHGATE_PLATFORMS" and command == "deliver":
            listed = [p.strip() for p in value.split(",")]
            bad += [f"PUSHGATE_PLATFORMS entry {p!r} is not one of {', '.join(DELIVERY_PLATFORMS)}"
                    for p in listed if p not in DELIVERY_PLATFORMS]
    x.c.check(not bad, f"{where}: PUSHGATE_* values are readable", "; ".join(bad))


def credential_files(given: dict[str, list[str]], env: dict[str, str], platform: str) -> list[str]:
    """The credential files deliver reads for `platform`: every flag given, else the variable's list
    (entries separated by `;` or newlines; a VAPID key is NAME=FILE)."""
    flag, var, _ = CREDENTIAL_FILES[platform]
    values = given.get(flag) or [v for v in (e.strip() for e in re.split(r"[;\n]", env.get(var, ""))) if v]
    return [v.partition("=")[2] if platform == "webpush" else v for v in values]


def delivered_platforms(given: dict[str, list[str]], env: dict[str, str]) -> set[str]:
    """The platforms deliver posts to: --platforms (or PUSHGATE_PLATFORMS), else those whose credentials
    are given (SPEC 10.8)."""
    listed = setting(given, env, "--platforms", "PUSHGATE_PLATFORMS")
    if listed:
        return {p.strip() for p in listed.split(",") if p.strip()}
    return {p for p in DELIVERY_PLATFORMS if credential_files(given, env, p)}


def worker_topics(x: Context, given: dict[str, list[str]], env: dict[str, str], command: str = "run") -> dict[str, str]:
    """The topics a worker uses with these flags and variables: SPEC's names unless renamed. run: the
    input, every format and the dead letters; deliver: the formats of its platforms, the devices and the
    receipts."""
    topics = dict(x.topics)
    entries = [e for e in re.split(r"[,;\n]", env.get("PUSHGATE_TOPICS", "")) if "=" in e] + given.get("--topic", [])
    for entry in entries:
        fmt, _, name = entry.strip().partition("=")
        topics[fmt] = name
    if command == "deliver":
        platforms = delivered_platforms(given, env)
        used = {f: topics[f] for f in x.command_formats("deliver", platforms) if f in topics}
        for key, (flag, var, default) in DELIVER_TOPICS.items():
            used[key] = setting(given, env, flag, var) or default
        return used
    topics["input"] = setting(given, env, "--input-topic", "PUSHGATE_INPUT_TOPIC") or topics["input"]
    topics["dead-letter"] = setting(given, env, "--dead-letter-topic", "PUSHGATE_DEAD_LETTER_TOPIC") or topics["dead-letter"]
    return topics


def setting(given: dict[str, list[str]], env: dict[str, str], flag: str, var: str) -> str | None:
    """The effective value of a setting: the last flag, else the variable (the file is not used here)."""
    if given.get(flag):
        return given[flag][-1]
    value = env.get(var)
    return str(value) if value not in (None, "") else None


def duration_seconds(text: str) -> float | None:
    """A duration in seconds: pushgate's (`500ms`, `30s`, `2m`, `1h`, a bare number being seconds) or a
    compose one (Go's, `1m30s`); None when it is neither."""
    if re.fullmatch(r"\d+", text):
        return float(text)
    parts = re.findall(r"(\d+)(ms|h|m|s)", text)
    if not parts or "".join(number + unit for number, unit in parts) != text:
        return None
    return sum(int(number) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600}[unit] for number, unit in parts)


def check_grace_period(x: Context, grace: float | None, given: dict[str, list[str]], env: dict[str, str],
                       where: str, command: str = "run") -> None:
    """SPEC 7 and 10.8: pushgate ends a shutdown within --shutdown-timeout (default 30 s for run, 10 s for
    deliver); the orchestrator's grace period must exceed it, or its SIGKILL comes first."""
    text = setting(given, env, "--shutdown-timeout", "PUSHGATE_SHUTDOWN_TIMEOUT") or DEFAULT_SHUTDOWN_TIMEOUT[command]
    timeout = duration_seconds(text.strip())
    if timeout is None or "$" in text:
        return  # unreadable values fail check_env; expanded ones are not known here
    x.c.check(grace is not None and grace > timeout,
              f"{where}: the grace period exceeds pushgate's --shutdown-timeout ({text.strip()})",
              f"grace period {grace} s")


def check_dockerfile(x: Context, path: Path, repo: Path, tracked: set[str] | None) -> dict:
    """COPY sources, and the flags and variables of the image. Returns the image's entrypoint, cmd and env."""
    info = {"entrypoint": [], "cmd": [], "env": {}}
    if not x.c.check(path.is_file(), "Dockerfile exists", str(path)):
        return info
    df = Dockerfile(path.read_text())
    ignore = path.with_name(path.name + ".dockerignore")
    ignore_lines = ignore.read_text().splitlines() if ignore.is_file() else []
    x.c.check(tracked is not None, "the build context is a git repository (`git ls-files`)", str(repo))
    for index, stage in enumerate(df.stages):
        earlier = {s["name"] for s in df.stages[:index] if s["name"]} | {str(i) for i in range(index)}
        for keyword, args in stage["instructions"]:
            if keyword not in ("COPY", "ADD"):
                continue
            words = shlex.split(args)
            source_stage = next((w.split("=", 1)[1] for w in words if w.startswith("--from=")), None)
            sources = [w for w in words if not w.startswith("--")][:-1]
            if source_stage is not None:
                x.c.check(source_stage in earlier, f"Dockerfile: COPY --from={source_stage} names an earlier stage",
                          f"earlier stages: {sorted(earlier)}")
                continue
            for source in sources:
                clean = source.rstrip("/").removeprefix("./")
                in_clone = tracked is not None and any(f == clean or f.startswith(clean + "/") for f in tracked)
                x.c.check(in_clone, f"Dockerfile: COPY source {source} is in a fresh clone (git ls-files)",
                          "not tracked: a clean clone has no such file")
                x.c.check(not dockerignore_excludes(ignore_lines, clean),
                          f"Dockerfile: COPY source {source} is sent in the build context", f"excluded by {ignore.name}")
    if not df.stages:
        return info
    runtime = df.stages[-1]
    entrypoint, cmd = df.last(runtime, "ENTRYPOINT"), df.last(runtime, "CMD")
    info["entrypoint"] = df.exec_form(entrypoint) if entrypoint else []
    info["cmd"] = df.exec_form(cmd) if cmd else []
    info["env"] = df.env(runtime)
    check_env(x, info["env"], "Dockerfile ENV")
    check_run_argv(x, info["entrypoint"] + info["cmd"], "Dockerfile ENTRYPOINT+CMD")
    return info


def check_resource_bundles(x: Context, binary: str, dockerfile: Path) -> None:
    """SwiftPM puts each target's resources in a folder `PACKAGE_TARGET.resources` beside the binary, and
    pushgate reads them from there at run time: the image must install every one of them beside pushgate."""
    folder = Path(binary).resolve().parent
    if not folder.is_dir() or not dockerfile.is_file():
        return
    stages = Dockerfile(dockerfile.read_text()).stages
    commands = [args for stage in stages for keyword, args in stage["instructions"] if keyword in ("RUN", "COPY")]
    for bundle in sorted(p.name for p in folder.glob("*.resources") if p.is_dir()):
        x.c.check(any(bundle in command for command in commands),
                  f"Dockerfile: installs the resource bundle {bundle} beside pushgate",
                  f"{folder} has it, no RUN or COPY of the Dockerfile names it")


def topic_commands(script: str) -> list[str]:
    """The shell commands of a kafka-init script, one per logical line (continuations joined)."""
    return [line for line in script.replace("\\\n", " ").splitlines() if line.strip()]


def check_compose(x: Context, path: Path, image: dict) -> None:
    if not x.c.check(path.is_file(), "docker-compose.yml exists", str(path)):
        return
    services = (yaml.safe_load(path.read_text()) or {}).get("services") or {}
    init = services.get("kafka-init") or {}
    script = "\n".join(as_argv(init.get("entrypoint")) + as_argv(init.get("command")))
    created = {t for t in re.findall(r"[\w.-]+", script)}
    missing = sorted(set(x.topics.values()) - created)
    x.c.check(bool(init) and not missing, "compose: kafka-init creates the input, dead-letter and every format's topic",
              f"missing {missing}")
    workers = {n: s for n, s in services.items() if isinstance(s, dict) and "pushgate" in str(s.get("image", ""))}
    x.c.check(bool(workers), "compose: a pushgate service")
    for name, service in workers.items():
        where = f"compose service {name}"
        own_env = env_dict(service.get("environment"))
        entry = as_argv(service["entrypoint"]) if "entrypoint" in service else image["entrypoint"]
        cmd = as_argv(service["command"]) if "command" in service else (image["cmd"] if "entrypoint" not in service else [])
        command = command_of(entry + cmd) or "run"
        check_env(x, own_env, where, command)
        given = check_run_argv(x, entry + cmd, where, COMMANDS)
        env = {**image["env"], **own_env}
        used = worker_topics(x, given, env, command)
        unknown = sorted(set(used.values()) - created)
        x.c.check(not unknown, f"{where}: every topic it uses is created by kafka-init", f"not created: {unknown}")
        if command == "deliver":
            devices = used["devices"]
            compacted = any(re.search(rf"(?<![\w.-]){re.escape(devices)}(?![\w.-])", line)
                            and re.search(r"cleanup\.policy=compact(?![\w,])", line) for line in topic_commands(script))
            x.c.check(compacted, f"{where}: kafka-init creates its devices topic {devices} compacted (cleanup.policy=compact)",
                      "no kafka-init command creates it with --config cleanup.policy=compact")
        # Compose's default grace period (before SIGKILL) is 10 s.
        grace = duration_seconds(str(service.get("stop_grace_period", "10s")))
        check_grace_period(x, grace, given, env, where, command)


def check_credential_files(x: Context, pod: dict, container: dict, given: dict[str, list[str]], env: dict[str, str],
                           secrets: dict, where: str) -> None:
    """Each platform deliver posts to has its credential files (a listed platform without them is exit 64),
    and each is a file of a Secret volume, mounted read-only (never an environment variable)."""
    for platform in sorted(delivered_platforms(given, env)):
        if platform not in CREDENTIAL_FILES:
            continue
        flag, var, what = CREDENTIAL_FILES[platform]
        paths = credential_files(given, env, platform)
        x.c.check(bool(paths) and all(paths), f"{where}: {platform} has its {what} ({flag} or {var})")
        for path in filter(None, paths):
            check_secret_file(x, pod, container, path, what, secrets, where)


def check_secret_file(x: Context, pod: dict, container: dict, path: str, what: str, secrets: dict, where: str) -> None:
    """The file at `path` lies in a read-only mount of a Secret volume, and the Secret holds it."""
    volumes = {v.get("name"): v for v in pod.get("volumes") or []}
    for mount in container.get("volumeMounts") or []:
        root = str(mount.get("mountPath", "")).rstrip("/")
        if not path.startswith(root + "/"):
            continue
        secret = (volumes.get(mount.get("name")) or {}).get("secret")
        x.c.check(secret is not None, f"{where}: the {what} {path} is in a Secret volume",
                  f"volume {mount.get('name')} is not a Secret")
        x.c.check(mount.get("readOnly") is True, f"{where}: the {what}'s volume ({root}) is mounted readOnly")
        if secret is None:
            return
        relative = path[len(root) + 1:]
        items = secret.get("items")
        keys = {i.get("path"): i.get("key") for i in items} if items else None
        key = keys.get(relative) if keys is not None else relative
        defined = secrets.get(secret.get("secretName"))
        if defined is not None:
            held = set(defined.get("data") or {}) | set(defined.get("stringData") or {})
            x.c.check(key in held, f"{where}: Secret {secret.get('secretName')} holds the {what} {relative}",
                      f"it holds {sorted(held)}")
        return
    x.c.check(False, f"{where}: the {what} {path} is in a Secret volume", "no volumeMount holds it")


def check_kubernetes(x: Context, k8s: Path, image: dict) -> None:
    objects = [d for p in sorted(k8s.glob("*.yaml")) for d in yaml.safe_load_all(p.read_text()) if isinstance(d, dict)]

    def named(kind):
        return {(d.get("metadata") or {}).get("name"): d for d in objects if d.get("kind") == kind}

    def pushgate_container(deployment):
        pod = ((deployment.get("spec") or {}).get("template") or {}).get("spec") or {}
        return next((ct for ct in pod.get("containers") or [] if "pushgate" in str(ct.get("image", ""))), None)

    def argv_of(container):
        command, args = container.get("command"), container.get("args")
        argv = [str(a) for a in command] if command is not None else list(image["entrypoint"])
        return argv + ([str(a) for a in args] if args is not None else (image["cmd"] if command is None else []))

    configmaps, secrets = named("ConfigMap"), named("Secret")
    deployments = {name: d for name, d in named("Deployment").items() if pushgate_container(d) is not None}
    commands = {name: command_of(argv_of(pushgate_container(d))) or "run" for name, d in deployments.items()}
    # A ConfigMap or Secret is checked against the help of the commands whose Deployments read it.
    readers: dict[str, set[str]] = {}
    for name, deployment in deployments.items():
        for source in pushgate_container(deployment).get("envFrom") or []:
            ref = (source.get("configMapRef") or source.get("secretRef") or {}).get("name")
            readers.setdefault(ref, set()).add(commands[name])
    for name, cm in configmaps.items():
        for command in sorted(readers.get(name, {"run"})):
            check_env(x, {str(k): str(v) for k, v in (cm.get("data") or {}).items()}, f"ConfigMap {name}", command)
    for name, secret in secrets.items():
        keys = set(secret.get("data") or {}) | set(secret.get("stringData") or {})
        for command in sorted(readers.get(name, {"run"})):
            check_env(x, {k: "" for k in keys if k.startswith("PUSHGATE_")}, f"Secret {name}", command)
    per_command = {c: sorted(n for n in deployments if commands[n] == c) for c in COMMANDS}
    x.c.check(len(per_command["run"]) == 1, "kubernetes: one Deployment running `pushgate run`", f"{per_command['run']}")
    x.c.check(len(per_command["deliver"]) <= 1, "kubernetes: at most one Deployment running `pushgate deliver`",
              f"{per_command['deliver']}")
    scaled = {((so.get("spec") or {}).get("scaleTargetRef") or {}).get("name"): so for so in named("ScaledObject").values()}
    for name, deployment in sorted(deployments.items()):
        command = commands[name]
        pod = deployment["spec"]["template"]["spec"]
        container = pushgate_container(deployment)
        where = f"Deployment {name} container {container.get('name')}" if command == "deliver" \
            else f"Deployment container {container.get('name')}"
        env = dict(image["env"])
        for source in container.get("envFrom") or []:
            table = configmaps if "configMapRef" in source else secrets
            ref = (source.get("configMapRef") or source.get("secretRef") or {}).get("name")
            if x.c.check(ref in table, f"{where}: envFrom {ref} is defined in kubernetes/"):
                env.update({str(k): str(v) for k, v in {**(table[ref].get("data") or {}), **(table[ref].get("stringData") or {})}.items()})
        own = {str(i.get("name")): str(i.get("value", "")) for i in container.get("env") or []}
        check_env(x, own, f"{where} env", command)
        env.update(own)
        given = check_run_argv(x, argv_of(container), where, COMMANDS)
        # Kubernetes' default grace period is 30 s.
        grace = pod.get("terminationGracePeriodSeconds", 30)
        check_grace_period(x, float(grace) if isinstance(grace, (int, float)) else None, given, env,
                           "Deployment" if command == "run" else f"Deployment {name}", command)
        used = worker_topics(x, given, env, command)
        group = setting(given, env, "--group-id", "PUSHGATE_GROUP_ID") or DEFAULT_GROUP[command]
        if command == "deliver":
            check_credential_files(x, pod, container, given, env, secrets, where)
        so = scaled.get(name)
        if so is None:
            continue
        triggers = [t for t in (so.get("spec") or {}).get("triggers") or [] if t.get("type") == "kafka"]
        label = "ScaledObject" if command == "run" else f"ScaledObject of {name}"
        for trigger in triggers:
            meta = trigger.get("metadata") or {}
            if command == "run":
                x.c.check(meta.get("topic") == used["input"], f"{label}: its kafka trigger watches the workers' input topic",
                          f"{meta.get('topic')} vs {used['input']}")
            x.c.check(meta.get("consumerGroup") == group, f"{label}: its kafka trigger watches the workers' group",
                      f"{meta.get('consumerGroup')} vs {group}")
        if command == "deliver":
            watched = sorted(str((t.get("metadata") or {}).get("topic")) for t in triggers)
            delivered = sorted(v for k, v in used.items() if k not in DELIVER_TOPICS)
            x.c.check(watched == delivered, f"{label}: one kafka trigger per topic deliver reads",
                      f"triggers watch {watched}, deliver reads {delivered}")


def check_readme(x: Context, path: Path) -> None:
    if not path.is_file():
        return
    for block in re.findall(r"```[^\n]*\n(.*?)```", path.read_text(), re.S):
        for line in block.replace("\\\n", " ").splitlines():
            try:
                tokens = shlex.split(line, comments=True)
            except ValueError:
                continue
            for i in range(len(tokens) - 2):
                # `pushgate run ...`, `.build/debug/pushgate deliver ...`, `docker run IMAGE:TAG run ...`
                if re.fullmatch(r"(.*/)?pushgate(:[\w.-]+)?", tokens[i]) and tokens[i + 1] in COMMANDS:
                    check_run_argv(x, ["pushgate"] + tokens[i + 1:], f"README.md `{line.strip()[:60]}`", COMMANDS)
                    break


def git_ls_files(repo: Path) -> set[str] | None:
    proc = subprocess.run(["git", "-C", str(repo), "ls-files"], capture_output=True, text=True)
    return set(proc.stdout.splitlines()) if proc.returncode == 0 else None


def main(argv: list[str] | None = None) -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pushgate", default=".build/debug/pushgate", help="the pushgate binary (default: %(default)s)")
    parser.add_argument("--deploy-dir", default=str(here), help="the deploy directory (default: this script's)")
    parser.add_argument("--repo", default=None, help="the Docker build context, a git work tree (default: deploy's parent)")
    parser.add_argument("--spec", default=None, help="the contract (default: docs/spec.md of the repository)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print passing checks too")
    parser.add_argument("--self-test", action="store_true", help="run the checker's own tests (test_check_deploy.py)")
    options = parser.parse_args(argv)
    if options.self_test:
        sys.dont_write_bytecode = True
        import unittest
        suite = unittest.defaultTestLoader.discover(str(here), pattern="test_check_deploy.py")
        return 0 if unittest.TextTestRunner(verbosity=1).run(suite).wasSuccessful() else 1
    deploy = Path(options.deploy_dir).resolve()
    repo = Path(options.repo).resolve() if options.repo else deploy.parent
    spec = Path(options.spec) if options.spec else repo / "docs" / "spec.md"
    binary = options.pushgate
    if not os.path.exists(binary) and not os.path.isabs(binary) and (repo / binary).exists():
        binary = str(repo / binary)

    c = Checker(options.verbose)
    helps = {}
    for command in COMMANDS:
        helps[command], why = load_run_help(binary, command)
        c.check(helps[command] is not None, f"`pushgate {command} --help` lists options and PUSHGATE_* variables", why)
    topics = spec_topics(spec.read_text()) if spec.is_file() else {}
    if not c.check({"input", "dead-letter"} <= set(topics), "SPEC section 1 lists the topics", f"read from {spec}"):
        topics = {"input": "push.unified", "dead-letter": "push.dlq"}
    formats, why = load_formats(binary)
    platforms = {}
    if c.check(formats is not None, "`pushgate formats` lists the formats and their topics", why):
        topics = {"input": topics["input"], "dead-letter": topics["dead-letter"], **{f["name"]: f["topic"] for f in formats}}
        platforms = {f["name"]: f.get("platform", "") for f in formats}
    x = Context(c, helps, topics, platforms)
    image = check_dockerfile(x, deploy / "Dockerfile", repo, git_ls_files(repo))
    check_resource_bundles(x, binary, deploy / "Dockerfile")
    check_compose(x, deploy / "docker-compose.yml", image)
    check_kubernetes(x, deploy / "kubernetes", image)
    check_readme(x, deploy / "README.md")
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
