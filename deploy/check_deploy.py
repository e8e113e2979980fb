#!/usr/bin/env python3
"""Static checks of pushgate's deployment files (deploy/), without Docker or a cluster.

    python3 deploy/check_deploy.py [--pushgate .build/debug/pushgate] [--deploy-dir deploy] [-v]
    python3 deploy/check_deploy.py --self-test      # the checker's own tests

Parses every YAML file under the deploy directory (all documents) and the Dockerfile, checks what the
compose file, the Kubernetes manifests and the image must have (see deploy/README.md), and checks that
every command line and every PUSHGATE_* variable they give pushgate is one that `pushgate run --help`
lists: the options and variables are read from the built binary, not from a copy. Prints one line per
failure (all checks with -v) and ends with exactly `N passed, M failed`; exit status 1 on any failure.
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

TOPICS = ["push.unified", "push.apns", "push.adobe.carousel", "push.fb.card", "push.android.expandable", "push.dlq"]
FORMATS = {"apns", "adobe-carousel", "fb-card", "android-expandable"}
LOG_LEVELS = {"trace", "debug", "info", "notice", "warning", "error", "critical"}
BOOL_TEXTS = {"true", "false", "1", "0", "yes", "no", "on", "off"}
INT_VARS = {"PUSHGATE_MAX_PAYLOAD_BYTES", "PUSHGATE_METRICS_PORT", "PUSHGATE_PARTITIONS", "PUSHGATE_MAX_IN_FLIGHT"}
DEFAULT_GROUP = "pushgate"
DEFAULT_INPUT = "push.unified"


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


# ---------------------------------------------------------------------------------------------------------
# What `pushgate run` accepts


class RunHelp:
    """Options and environment variables of `pushgate run`, read from its --help text."""

    def __init__(self, text: str):
        self.text = text
        self.value_options: set[str] = set()  # take a value: --group-id X, -X K=V
        self.flag_options: set[str] = set()  # take none: --lenient, --no-lenient, -h, --help
        in_options = False
        for line in text.splitlines():
            if re.match(r"^[A-Z][A-Z ]*:", line):
                in_options = line.startswith("OPTIONS:")
                continue
            if not in_options:
                continue
            m = re.match(r"^  (-\S.*?)(?:\s{2,}|$)", line)
            if not m:
                continue
            spec = m.group(1)
            takes_value = "<" in spec
            for name in re.findall(r"(?<![\w-])(--[a-z0-9][a-z0-9-]*|-[A-Za-z])(?![\w-])", spec):
                (self.value_options if takes_value else self.flag_options).add(name)
        self.env_vars = set(re.findall(r"\bPUSHGATE_[A-Z0-9_]+\b", text))

    @property
    def options(self) -> set[str]:
        return self.value_options | self.flag_options


def load_run_help(binary: str) -> tuple[RunHelp | None, str]:
    try:
        proc = subprocess.run([binary, "run", "--help"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, f"cannot run '{binary} run --help': {error}"
    if proc.returncode != 0:
        return None, f"'{binary} run --help' exited {proc.returncode}: {proc.stderr.strip()[:200]}"
    help_ = RunHelp(proc.stdout)
    if not help_.options or not help_.env_vars:
        return None, f"'{binary} run --help' lists no options or no PUSHGATE_* variables"
    return help_, ""


def check_run_argv(c: Checker, help_: RunHelp | None, argv: list[str], where: str) -> dict[str, list[str]]:
    """Checks a full command line (argv[0] is the program). Returns the options given, name -> values."""
    given: dict[str, list[str]] = {}
    if not c.check(bool(argv) and os.path.basename(argv[0]) == "pushgate",
                   f"{where}: runs pushgate", f"the command is {argv!r}, which cannot be verified"):
        return given
    if not c.check(len(argv) >= 2 and argv[1] == "run", f"{where}: subcommand is `run`",
                   f"arguments are {argv[1:]!r}"):
        return given
    if help_ is None:
        c.check(False, f"{where}: flags verified against `pushgate run --help`", "no help text (see above)")
        return given
    bad: list[str] = []
    i, args = 0, argv[2:]
    while i < len(args):
        token = args[i]
        i += 1
        if token.startswith("--") and token != "--":
            name, eq, value = token.partition("=")
            if name in help_.value_options:
                if not eq:
                    if i >= len(args):
                        bad.append(f"{name} needs a value")
                        continue
                    value = args[i]
                    i += 1
                given.setdefault(name, []).append(value)
            elif name in help_.flag_options:
                if eq:
                    bad.append(f"{name} takes no value")
                given.setdefault(name, []).append("")
            else:
                bad.append(f"unknown option {name}")
        elif token.startswith("-") and len(token) >= 2 and token != "--":
            name, attached = token[:2], token[2:]
            if name in help_.value_options:
                if attached:
                    value = attached  # -Xkey=value
                else:
                    if i >= len(args):
                        bad.append(f"{name} needs a value")
                        continue
                    value = args[i]
                    i += 1
                given.setdefault(name, []).append(value)
            elif name in help_.flag_options and not attached:
                given.setdefault(name, []).append("")
            else:
                bad.append(f"unknown option {token}")
        else:
            bad.append(f"unexpected argument {token!r} (`pushgate run` takes no arguments)")
    for value in given.get("-X", []):
        if "=" not in value or value.startswith("="):
            bad.append(f"-X {value!r} is not KEY=VALUE")
    for value in given.get("--topic", []):
        fmt, eq, name = value.partition("=")
        if not eq or fmt not in FORMATS or not name:
            bad.append(f"--topic {value!r} is not FORMAT=NAME with FORMAT one of {sorted(FORMATS)}")
    for name in ("--metrics-port", "--max-payload-bytes", "--max-in-flight", "--partitions"):
        for value in given.get(name, []):
            if not re.fullmatch(r"\d+", value):
                bad.append(f"{name} {value!r} is not an integer")
    for value in given.get("--log-level", []):
        if value.lower() not in LOG_LEVELS:
            bad.append(f"--log-level {value!r} is not one of {sorted(LOG_LEVELS)}")
    c.check(not bad, f"{where}: only `pushgate run` flags ({' '.join(argv[1:])})", "; ".join(bad))
    return given


def check_env(c: Checker, help_: RunHelp | None, env: dict[str, str], where: str) -> None:
    """Every PUSHGATE_* variable is one `pushgate run --help` names, with a value pushgate can read."""
    names = sorted(n for n in env if n.startswith("PUSHGATE_"))
    if help_ is None:
        if names:
            c.check(False, f"{where}: PUSHGATE_* variables verified against `pushgate run --help`", "no help text")
        return
    unknown = [n for n in names if n not in help_.env_vars]
    c.check(not unknown, f"{where}: PUSHGATE_* variables are ones `pushgate run --help` names",
            f"unknown: {', '.join(unknown)}")
    bad = []
    for name in names:
        value = str(env[name])
        if "$(" in value or "${" in value:
            continue  # expanded by Kubernetes / compose; checked elsewhere
        if name in INT_VARS and not re.fullmatch(r"\s*\d+\s*", value):
            bad.append(f"{name}={value!r} is not an integer")
        elif name == "PUSHGATE_LENIENT" and value.lower() not in BOOL_TEXTS:
            bad.append(f"{name}={value!r} is not true/false")
        elif name == "PUSHGATE_LOG_LEVEL" and value.lower() not in LOG_LEVELS:
            bad.append(f"{name}={value!r} is not a log level")
        elif name == "PUSHGATE_X":
            for entry in filter(None, (e.strip() for e in re.split(r"[;\n]", value))):
                if "=" not in entry or entry.startswith("="):
                    bad.append(f"PUSHGATE_X entry {entry!r} is not key=value")
        elif name == "PUSHGATE_TOPICS":
            for entry in filter(None, (e.strip() for e in re.split(r"[,;\n]", value))):
                fmt, eq, topic = entry.partition("=")
                if not eq or fmt not in FORMATS or not topic:
                    bad.append(f"PUSHGATE_TOPICS entry {entry!r} is not FORMAT=NAME")
    if names:
        c.check(not bad, f"{where}: PUSHGATE_* values are readable", "; ".join(bad))


def setting(given: dict[str, list[str]], env: dict[str, str], flag: str, var: str, default=None):
    """The effective value of a setting: the last flag, else the variable, else the default."""
    if given.get(flag):
        return given[flag][-1]
    value = env.get(var)
    return str(value) if value not in (None, "") else default


# ---------------------------------------------------------------------------------------------------------
# Dockerfile


class Dockerfile:
    def __init__(self, text: str):
        self.stages: list[dict] = []  # {"image", "name", "instructions": [(KEYWORD, args)]}
        self.global_args: dict[str, str] = {}
        logical, current = [], ""
        for raw in text.splitlines():
            stripped = raw.strip()
            if stripped.startswith("#") or (not stripped and not current):
                continue
            if stripped.endswith("\\"):
                current += stripped[:-1] + " "
                continue
            current += stripped
            if current.strip():
                logical.append(current.strip())
            current = ""
        if current.strip():
            logical.append(current.strip())
        for line in logical:
            keyword, _, rest = line.partition(" ")
            keyword, rest = keyword.upper(), rest.strip()
            if keyword == "FROM":
                parts = [p for p in rest.split() if not p.startswith("--")]
                image = self.substitute(parts[0]) if parts else ""
                name = parts[2] if len(parts) >= 3 and parts[1].upper() == "AS" else None
                self.stages.append({"image": image, "name": name, "instructions": []})
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

    def last(self, stage: dict, keyword: str) -> str | None:
        found = [args for kw, args in stage["instructions"] if kw == keyword]
        return found[-1] if found else None

    def env(self, stage: dict) -> dict[str, str]:
        env = {}
        for kw, args in stage["instructions"]:
            if kw != "ENV":
                continue
            for token in shlex.split(args):
                key, eq, value = token.partition("=")
                if eq:
                    env[key] = value
        return env


def check_dockerfile(c: Checker, help_: RunHelp | None, path: Path, repo: Path) -> dict:
    """Returns what the rest needs to know of the image: entrypoint, cmd, env, healthcheck."""
    info = {"entrypoint": [], "cmd": [], "env": {}, "ok": False}
    if not c.check(path.is_file(), "Dockerfile exists", str(path)):
        return info
    df = Dockerfile(path.read_text())
    c.check(len(df.stages) >= 2, "Dockerfile: multi-stage (2 or more FROM)", f"{len(df.stages)} FROM")
    if not df.stages:
        return info
    build, runtime = df.stages[0], df.stages[-1]
    c.check(re.fullmatch(r"(docker\.io/(library/)?)?swift:6\.\d+(\.\d+)?-bookworm", build["image"]) is not None,
            "Dockerfile: build stage on the official swift:6.x-bookworm image", build["image"])
    build_runs = " ".join(args for kw, args in build["instructions"] if kw == "RUN")
    c.check(re.search(r"apt-get install[^&;]*\blibrdkafka-dev\b", build_runs) is not None,
            "Dockerfile: build stage installs librdkafka-dev with apt")
    swift_build = re.search(r"swift build\b[^&;]*", build_runs)
    sb = swift_build.group(0) if swift_build else ""
    c.check(all(part in sb for part in ("-c release", "--product pushgate", "--static-swift-stdlib")),
            "Dockerfile: swift build -c release --product pushgate --static-swift-stdlib", sb or "no swift build")
    c.check(runtime["image"] == "debian:bookworm-slim", "Dockerfile: runtime stage is debian:bookworm-slim",
            runtime["image"])
    runtime_runs = " ".join(args for kw, args in runtime["instructions"] if kw == "RUN")
    installs = re.findall(r"apt-get install((?:\s+[^\s&;|]+)+)", runtime_runs)
    packages = {p for group in installs for p in group.split() if not p.startswith("-")}
    c.check({"librdkafka1", "ca-certificates"} <= packages,
            "Dockerfile: runtime installs librdkafka1 and ca-certificates", f"installs {sorted(packages)}")
    c.check(not any(p.endswith("-dev") or p in {"build-essential", "swiftlang"} for p in packages),
            "Dockerfile: runtime installs no build packages", f"installs {sorted(packages)}")
    user = df.last(runtime, "USER")
    c.check(user is not None and user.split(":")[0] not in ("root", "0"),
            "Dockerfile: runtime runs as a non-root USER", f"USER {user}")
    c.check(user is not None and re.fullmatch(r"\d+(:\d+)?", user.strip()) is not None,
            "Dockerfile: USER is numeric (so Kubernetes runAsNonRoot can verify it)", f"USER {user}")
    health = df.last(runtime, "HEALTHCHECK") or ""
    c.check("/health" in health, "Dockerfile: HEALTHCHECK calls /health", health or "no HEALTHCHECK")
    # Files the HEALTHCHECK needs: whatever COPY brings from the context must exist in the repository.
    for kw, args in runtime["instructions"] + build["instructions"]:
        if kw not in ("COPY", "ADD") or "--from=" in args:
            continue
        parts = [p for p in shlex.split(args) if not p.startswith("--")]
        for source in parts[:-1]:
            c.check((repo / source).exists(), f"Dockerfile: COPY source {source} exists", str(repo / source))
    entrypoint = df.last(runtime, "ENTRYPOINT")
    cmd = df.last(runtime, "CMD")
    info["entrypoint"] = df.exec_form(entrypoint) if entrypoint else []
    info["cmd"] = df.exec_form(cmd) if cmd else []
    c.check(info["entrypoint"] == ["pushgate"], "Dockerfile: ENTRYPOINT [\"pushgate\"]", str(entrypoint))
    c.check(info["cmd"] == ["run"], "Dockerfile: CMD [\"run\"]", str(cmd))
    info["env"] = df.env(runtime)
    exposed = {p.split("/")[0] for kw, args in runtime["instructions"] if kw == "EXPOSE" for p in args.split()}
    port = info["env"].get("PUSHGATE_METRICS_PORT")
    c.check(port is not None and port in exposed, "Dockerfile: EXPOSEs the metrics port it sets (PUSHGATE_METRICS_PORT)",
            f"PUSHGATE_METRICS_PORT={port}, EXPOSE {sorted(exposed)}")
    check_env(c, help_, info["env"], "Dockerfile ENV")
    check_run_argv(c, help_, info["entrypoint"] + info["cmd"], "Dockerfile ENTRYPOINT+CMD")
    info["ok"] = True
    return info


# ---------------------------------------------------------------------------------------------------------
# YAML


def load_yaml_files(c: Checker, deploy: Path) -> dict[Path, list]:
    docs: dict[Path, list] = {}
    for path in sorted(list(deploy.rglob("*.yml")) + list(deploy.rglob("*.yaml"))):
        try:
            with path.open() as f:
                loaded = [d for d in yaml.safe_load_all(f) if d is not None]
            c.check(bool(loaded), f"{path.relative_to(deploy)}: parses", "no documents")
            docs[path] = loaded
        except yaml.YAMLError as error:
            c.check(False, f"{path.relative_to(deploy)}: parses", str(error).replace("\n", " "))
    return docs


def env_dict(environment) -> dict[str, str]:
    """A compose `environment` (mapping or list of KEY=VALUE) as a dict."""
    if isinstance(environment, dict):
        return {str(k): "" if v is None else str(v) for k, v in environment.items()}
    out = {}
    for item in environment or []:
        key, _, value = str(item).partition("=")
        out[key] = value
    return out


def as_argv(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [str(v) for v in value]
    return shlex.split(str(value))


def topic_in(text: str, topic: str) -> bool:
    return re.search(r"(?<![\w.])" + re.escape(topic) + r"(?![\w.])", text) is not None


# ---------------------------------------------------------------------------------------------------------
# docker-compose


def check_compose(c: Checker, help_: RunHelp | None, path: Path, docs: dict[Path, list], image: dict,
                  deploy: Path) -> dict:
    result = {"partitions": None}
    if not c.check(path in docs and docs[path] and isinstance(docs[path][0], dict),
                   "docker-compose.yml: present and a mapping", str(path)):
        return result
    services = docs[path][0].get("services") or {}
    kafka = services.get("kafka")
    if c.check(isinstance(kafka, dict), "compose: service kafka"):
        c.check(str(kafka.get("image", "")).startswith("apache/kafka"), "compose: kafka uses the apache/kafka image",
                str(kafka.get("image")))
        env = env_dict(kafka.get("environment"))
        roles = {r.strip() for r in env.get("KAFKA_PROCESS_ROLES", "").split(",")}
        c.check(roles == {"broker", "controller"}, "compose: kafka is KRaft broker+controller (KAFKA_PROCESS_ROLES)",
                env.get("KAFKA_PROCESS_ROLES", "unset"))
        missing = [k for k in ("KAFKA_NODE_ID", "KAFKA_CONTROLLER_QUORUM_VOTERS", "KAFKA_CONTROLLER_LISTENER_NAMES",
                               "KAFKA_LISTENERS", "KAFKA_ADVERTISED_LISTENERS", "KAFKA_LISTENER_SECURITY_PROTOCOL_MAP")
                   if not env.get(k)]
        c.check(not missing, "compose: kafka has the KRaft settings", f"missing {missing}")
        node = env.get("KAFKA_NODE_ID", "")
        c.check(env.get("KAFKA_CONTROLLER_QUORUM_VOTERS", "").startswith(f"{node}@"),
                "compose: the quorum voter is the node itself", env.get("KAFKA_CONTROLLER_QUORUM_VOTERS", ""))
        c.check("CONTROLLER://" in env.get("KAFKA_LISTENERS", "") and "PLAINTEXT://" in env.get("KAFKA_LISTENERS", ""),
                "compose: kafka listens on PLAINTEXT and CONTROLLER", env.get("KAFKA_LISTENERS", ""))
        c.check(bool(kafka.get("healthcheck")), "compose: kafka has a healthcheck")

    init = services.get("kafka-init")
    if c.check(isinstance(init, dict), "compose: service kafka-init"):
        c.check(kafka is not None and init.get("image") == kafka.get("image"),
                "compose: kafka-init uses the kafka image", str(init.get("image")))
        text = " ".join(as_argv(init.get("entrypoint")) + as_argv(init.get("command")))
        c.check("kafka-topics.sh" in text and "--create" in text and "--if-not-exists" in text,
                "compose: kafka-init runs kafka-topics.sh --create --if-not-exists")
        missing = [t for t in TOPICS if not topic_in(text, t)]
        c.check(not missing, "compose: kafka-init creates every SPEC topic", f"missing {missing}")
        parts = re.findall(r"--partitions[ =](\d+)", text)
        if c.check(len(set(parts)) == 1, "compose: kafka-init gives one partition count", f"found {parts}"):
            result["partitions"] = int(parts[0])
        dep = init.get("depends_on") or {}
        c.check(isinstance(dep, dict) and (dep.get("kafka") or {}).get("condition") == "service_healthy",
                "compose: kafka-init waits for kafka to be healthy")

    workers = {name: s for name, s in services.items() if isinstance(s, dict) and is_pushgate_service(s)}
    replicas = sum(int(((s.get("deploy") or {}).get("replicas")) or 1) for s in workers.values())
    c.check(replicas >= 2, "compose: at least 2 pushgate replicas", f"{replicas} in {sorted(workers)}")
    groups, metrics_ports = set(), {}
    for name, service in workers.items():
        where = f"compose service {name}"
        env = dict(image.get("env", {}))
        env.update(env_dict(service.get("environment")))
        check_env(c, help_, env_dict(service.get("environment")), where)
        entry = as_argv(service["entrypoint"]) if "entrypoint" in service else image.get("entrypoint", [])
        cmd = as_argv(service["command"]) if "command" in service else (
            image.get("cmd", []) if "entrypoint" not in service else [])
        given = check_run_argv(c, help_, entry + cmd, where)
        groups.add(setting(given, env, "--group-id", "PUSHGATE_GROUP_ID", DEFAULT_GROUP))
        c.check(setting(given, env, "--bootstrap-servers", "PUSHGATE_BOOTSTRAP_SERVERS") is not None,
                f"{where}: bootstrap servers set (else pushgate starts its own embedded broker)")
        metrics_ports[name] = setting(given, env, "--metrics-port", "PUSHGATE_METRICS_PORT")
        c.check(metrics_ports[name] is not None, f"{where}: metrics port set")
        dep = service.get("depends_on") or {}
        c.check(isinstance(dep, dict) and (dep.get("kafka-init") or {}).get("condition")
                == "service_completed_successfully", f"{where}: waits for kafka-init to complete")
        c.check(bool(service.get("healthcheck")), f"{where}: has a healthcheck")
    c.check(len(groups) == 1, "compose: all pushgate replicas are in one consumer group", f"groups {sorted(groups)}")

    prom = next((s for s in services.values() if isinstance(s, dict)
                 and str(s.get("image", "")).startswith("prom/prometheus")), None)
    if c.check(prom is not None, "compose: a prom/prometheus service"):
        config = prometheus_config_path(prom, path.parent)
        if c.check(config is not None and config.is_file(), "compose: prometheus mounts an existing config",
                   str(config)):
            c.check(config.resolve().is_relative_to(deploy.resolve()), "compose: the prometheus config is in deploy/")
            check_prometheus(c, config, docs.get(config) or docs.get(config.resolve()), workers, metrics_ports)
    return result


def is_pushgate_service(service: dict) -> bool:
    build = service.get("build")
    dockerfile = build.get("dockerfile", "") if isinstance(build, dict) else ""
    return "pushgate" in str(service.get("image", "")) or dockerfile.endswith("deploy/Dockerfile")


def prometheus_config_path(prom: dict, base: Path) -> Path | None:
    target = "/etc/prometheus/prometheus.yml"
    for arg in as_argv(prom.get("command")):
        if arg.startswith("--config.file="):
            target = arg.split("=", 1)[1]
    for volume in prom.get("volumes") or []:
        if isinstance(volume, dict):
            source, dest = volume.get("source"), volume.get("target")
        else:
            source, _, rest = str(volume).partition(":")
            dest = rest.split(":")[0]
        if dest == target and source and source.startswith("."):
            return (base / source).resolve()
    return None


def check_prometheus(c: Checker, path: Path, docs, workers: dict, ports: dict) -> None:
    config = docs[0] if docs else None
    if not c.check(isinstance(config, dict) and config.get("scrape_configs"), "prometheus.yml: has scrape_configs"):
        return
    covered: set[str] = set()
    for job in config["scrape_configs"]:
        if job.get("metrics_path", "/metrics") != "/metrics":
            continue
        for static in job.get("static_configs") or []:
            for target in static.get("targets") or []:
                host, _, port = str(target).partition(":")
                for name, service in workers.items():
                    if host in (name, service.get("container_name"), service.get("hostname")) and port == ports.get(name):
                        covered.add(name)
        for sd in job.get("dns_sd_configs") or []:
            for name in workers:
                if name in (sd.get("names") or []) and str(sd.get("port")) == ports.get(name):
                    covered.add(name)
    missing = sorted(set(workers) - covered)
    c.check(bool(workers) and not missing, "prometheus.yml: scrapes /metrics of every pushgate service on its metrics port",
            f"not scraped: {missing}")


# ---------------------------------------------------------------------------------------------------------
# Kubernetes


def check_kubernetes(c: Checker, help_: RunHelp | None, k8s: Path, docs: dict[Path, list], image: dict,
                     compose_partitions: int | None) -> None:
    if not c.check(k8s.is_dir(), "kubernetes/ exists", str(k8s)):
        return
    objects: list[tuple[Path, dict]] = []
    kustomization = None
    for path, documents in docs.items():
        if not path.resolve().is_relative_to(k8s.resolve()):
            continue
        for doc in documents:
            if not isinstance(doc, dict):
                c.check(False, f"{path.name}: every document is a mapping")
                continue
            if doc.get("kind") == "Kustomization":
                kustomization = (path, doc)
                continue
            ok = all(doc.get(k) for k in ("apiVersion", "kind")) and (doc.get("metadata") or {}).get("name")
            c.check(bool(ok), f"{path.name}: {doc.get('kind')} has apiVersion, kind, metadata.name")
            objects.append((path, doc))

    def of_kind(kind):
        return [d for _, d in objects if d.get("kind") == kind]

    if c.check(kustomization is not None, "kubernetes: kustomization.yaml"):
        kpath, kdoc = kustomization
        resources = kdoc.get("resources") or []
        missing = [r for r in resources if not (kpath.parent / r).exists()]
        c.check(not missing, "kustomization: every listed resource exists", f"missing {missing}")
        manifests = {p.name for p, _ in objects if p.parent == kpath.parent}
        unlisted = sorted(manifests - {str(r) for r in resources})
        c.check(not unlisted, "kustomization: lists every manifest", f"not listed: {unlisted}")

    configmaps = {d["metadata"]["name"]: d for d in of_kind("ConfigMap")}
    secrets = {d["metadata"]["name"]: d for d in of_kind("Secret")}
    for name, cm in configmaps.items():
        check_env(c, help_, {str(k): str(v) for k, v in (cm.get("data") or {}).items()}, f"ConfigMap {name}")
    for name, secret in secrets.items():
        keys = set((secret.get("data") or {})) | set((secret.get("stringData") or {}))
        c.check({"username", "password"} <= keys, f"Secret {name}: has username and password", f"keys {sorted(keys)}")
        check_env(c, help_, {k: "" for k in keys if k.startswith("PUSHGATE_")}, f"Secret {name}")

    deployments = [d for d in of_kind("Deployment") if pushgate_containers(d)]
    if not c.check(len(deployments) == 1, "kubernetes: one Deployment running pushgate", f"{len(deployments)}"):
        return
    dep = deployments[0]
    dep_name = dep["metadata"]["name"]
    spec = dep.get("spec") or {}
    pod = (spec.get("template") or {}).get("spec") or {}
    pod_labels = ((spec.get("template") or {}).get("metadata") or {}).get("labels") or {}
    selector = (spec.get("selector") or {}).get("matchLabels") or {}
    c.check(bool(selector) and selector.items() <= pod_labels.items(), "Deployment: selector matches its pod labels")
    grace = pod.get("terminationGracePeriodSeconds")
    c.check(isinstance(grace, int) and grace >= 30,
            "Deployment: terminationGracePeriodSeconds set, at least 30 s, for the graceful drain", str(grace))
    pod_sc = pod.get("securityContext") or {}
    container = pushgate_containers(dep)[0]
    where = f"Deployment {dep_name} container {container.get('name')}"
    sc = container.get("securityContext") or {}

    def effective(key):
        return sc.get(key, pod_sc.get(key))

    c.check(effective("runAsNonRoot") is True and effective("runAsUser") not in (0, "0"),
            f"{where}: runs as non-root", f"runAsNonRoot={effective('runAsNonRoot')} runAsUser={effective('runAsUser')}")
    c.check(sc.get("readOnlyRootFilesystem") is True, f"{where}: read-only root filesystem")
    c.check(sc.get("allowPrivilegeEscalation") is False, f"{where}: allowPrivilegeEscalation false")
    resources = container.get("resources") or {}
    c.check(bool(resources.get("requests")) and bool((resources.get("limits") or {}).get("memory")),
            f"{where}: resource requests and a memory limit")

    # The environment pushgate sees: image ENV, envFrom ConfigMaps/Secrets, env.
    env: dict[str, str] = dict(image.get("env", {}))
    defined = set(env)
    for source in container.get("envFrom") or []:
        ref = source.get("configMapRef") or source.get("secretRef")
        kind = "ConfigMap" if "configMapRef" in source else "Secret"
        table = configmaps if kind == "ConfigMap" else secrets
        name = (ref or {}).get("name")
        if c.check(name in table, f"{where}: envFrom {kind} {name} exists"):
            data = dict(table[name].get("data") or {})
            data.update(table[name].get("stringData") or {})
            env.update({str(k): str(v) for k, v in data.items()})
            defined |= {str(k) for k in data}
    container_env = {}
    bad_refs = []
    for item in container.get("env") or []:
        name = item.get("name")
        value = item.get("value")
        if value is not None:
            bad_refs += [f"{name} uses $({r}) before it is defined" for r in re.findall(r"\$\((\w+)\)", str(value))
                         if r not in defined]
        ref = (item.get("valueFrom") or {}).get("secretKeyRef") or (item.get("valueFrom") or {}).get("configMapKeyRef")
        if ref:
            table = secrets if "secretKeyRef" in item["valueFrom"] else configmaps
            obj = table.get(ref.get("name")) or {}
            keys = set(obj.get("data") or {}) | set(obj.get("stringData") or {})
            c.check(ref.get("key") in keys, f"{where}: env {name} refers to an existing key",
                    f"{ref.get('name')}/{ref.get('key')}")
        container_env[name] = "" if value is None else str(value)
        defined.add(name)
    env.update(container_env)
    check_env(c, help_, container_env, f"{where} env")

    command = container.get("command")
    args = container.get("args")
    argv = [str(a) for a in command] if command is not None else list(image.get("entrypoint", []))
    if args is not None:
        argv += [str(a) for a in args]
    elif command is None:
        argv += image.get("cmd", [])
    bad_refs += [f"args use $({r}), which is not defined" for a in argv for r in re.findall(r"\$\((\w+)\)", a)
                 if r not in defined]
    c.check(not bad_refs, f"{where}: every $(VAR) refers to a defined variable", "; ".join(bad_refs))
    given = check_run_argv(c, help_, argv, where)

    c.check(setting(given, env, "--bootstrap-servers", "PUSHGATE_BOOTSTRAP_SERVERS") is not None,
            f"{where}: bootstrap servers set (else pushgate starts its own embedded broker)")
    metrics_port = setting(given, env, "--metrics-port", "PUSHGATE_METRICS_PORT")
    ports = {p.get("name"): p.get("containerPort") for p in container.get("ports") or []}
    c.check(metrics_port is not None and metrics_port.isdigit() and int(metrics_port) in ports.values(),
            f"{where}: the metrics port ({metrics_port}) is a containerPort", f"ports {ports}")

    def probe_port(probe):
        port = ((probe or {}).get("httpGet") or {}).get("port")
        return ports.get(port) if isinstance(port, str) else port

    for kind, path in (("livenessProbe", "/health"), ("readinessProbe", "/ready")):
        probe = container.get(kind)
        got = ((probe or {}).get("httpGet") or {}).get("path")
        c.check(got == path, f"{where}: {kind} is GET {path}", f"path {got}")
        c.check(metrics_port is not None and str(probe_port(probe)) == str(metrics_port),
                f"{where}: {kind} on the metrics port {metrics_port}", f"port {probe_port(probe)}")
    if container.get("startupProbe"):
        c.check(str(probe_port(container["startupProbe"])) == str(metrics_port), f"{where}: startupProbe on the metrics port")

    group = setting(given, env, "--group-id", "PUSHGATE_GROUP_ID", DEFAULT_GROUP)
    input_topic = setting(given, env, "--input-topic", "PUSHGATE_INPUT_TOPIC", DEFAULT_INPUT)

    # PodDisruptionBudget
    pdbs = of_kind("PodDisruptionBudget")
    if c.check(len(pdbs) >= 1, "kubernetes: a PodDisruptionBudget"):
        for pdb in pdbs:
            match = ((pdb.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
            c.check(bool(match) and match.items() <= pod_labels.items(),
                    f"PodDisruptionBudget {pdb['metadata']['name']}: selects the Deployment's pods", str(match))
            s = pdb.get("spec") or {}
            c.check(("minAvailable" in s) != ("maxUnavailable" in s),
                    f"PodDisruptionBudget {pdb['metadata']['name']}: one of minAvailable / maxUnavailable")

    # KEDA
    partitions = [int(v) for cm in configmaps.values()
                  for k, v in ((cm.get("metadata") or {}).get("annotations") or {}).items()
                  if k.endswith("input-topic-partitions") and str(v).isdigit()]
    if compose_partitions is not None:
        partitions.append(compose_partitions)
    scaled = of_kind("ScaledObject")
    if c.check(len(scaled) == 1, "kubernetes: one KEDA ScaledObject", f"{len(scaled)}"):
        so = scaled[0]
        s = so.get("spec") or {}
        target = s.get("scaleTargetRef") or {}
        c.check(target.get("name") == dep_name and target.get("kind", "Deployment") == "Deployment",
                "ScaledObject: targets the pushgate Deployment", str(target))
        max_r, min_r = s.get("maxReplicaCount"), s.get("minReplicaCount", 0)
        c.check(bool(partitions), "ScaledObject: a partition count to compare with (ConfigMap annotation or compose)")
        c.check(isinstance(max_r, int) and all(max_r <= p for p in partitions),
                "ScaledObject: maxReplicaCount <= partitions of the input topic",
                f"maxReplicaCount {max_r}, partitions {partitions}")
        c.check(isinstance(min_r, int) and isinstance(max_r, int) and 0 <= min_r <= max_r,
                "ScaledObject: minReplicaCount <= maxReplicaCount", f"{min_r}..{max_r}")
        kafka = [t for t in s.get("triggers") or [] if t.get("type") == "kafka"]
        if c.check(len(kafka) == 1, "ScaledObject: one kafka trigger"):
            meta = kafka[0].get("metadata") or {}
            c.check(bool(meta.get("bootstrapServers")), "ScaledObject: kafka trigger has bootstrapServers")
            c.check(meta.get("consumerGroup") == group, "ScaledObject: consumerGroup is the worker's group",
                    f"{meta.get('consumerGroup')} vs {group}")
            c.check(meta.get("topic") == input_topic, "ScaledObject: topic is the worker's input topic",
                    f"{meta.get('topic')} vs {input_topic}")
            c.check(str(meta.get("lagThreshold", "")).isdigit(), "ScaledObject: lagThreshold set")
            auth = (kafka[0].get("authenticationRef") or {}).get("name")
            if auth:
                trig = {d["metadata"]["name"]: d for d in of_kind("TriggerAuthentication")}
                if c.check(auth in trig, f"ScaledObject: TriggerAuthentication {auth} exists"):
                    bad = [f"{r.get('name')}/{r.get('key')}" for r in (trig[auth].get("spec") or {}).get("secretTargetRef") or []
                           if r.get("key") not in set((secrets.get(r.get("name")) or {}).get("stringData") or {})
                           | set((secrets.get(r.get("name")) or {}).get("data") or {})]
                    c.check(not bad, f"TriggerAuthentication {auth}: every secret key exists", f"missing {bad}")


def pushgate_containers(deployment: dict) -> list[dict]:
    pod = (((deployment.get("spec") or {}).get("template") or {}).get("spec") or {})
    return [ct for ct in pod.get("containers") or [] if "pushgate" in str(ct.get("image", ""))]


# ---------------------------------------------------------------------------------------------------------
# Command lines in deploy/README.md


def check_readme(c: Checker, help_: RunHelp | None, path: Path) -> None:
    if not c.check(path.is_file(), "README.md exists"):
        return
    blocks = re.findall(r"```[^\n]*\n(.*?)```", path.read_text(), re.S)
    for block in blocks:
        for line in block.replace("\\\n", " ").splitlines():
            try:
                tokens = shlex.split(line, comments=True)
            except ValueError:
                continue
            for i in range(len(tokens) - 1):
                # `pushgate run ...`, `.build/debug/pushgate run ...`, `docker run IMAGE:TAG run ...`
                if re.fullmatch(r"(.*/)?pushgate(:[\w.-]+)?", tokens[i]) and tokens[i + 1] == "run" and tokens[i + 2:]:
                    check_run_argv(c, help_, ["pushgate"] + tokens[i + 1:], f"README.md `{line.strip()[:60]}`")
                    break


# ---------------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pushgate", default=".build/debug/pushgate", help="the pushgate binary (default: %(default)s)")
    parser.add_argument("--deploy-dir", default=str(here), help="the deploy directory (default: this script's)")
    parser.add_argument("--repo", default=None, help="the Docker build context (default: the deploy dir's parent)")
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
    binary = options.pushgate
    if not os.path.exists(binary) and not os.path.isabs(binary) and (repo / binary).exists():
        binary = str(repo / binary)

    c = Checker(options.verbose)
    help_, why = load_run_help(binary)
    c.check(help_ is not None, "`pushgate run --help` lists options and PUSHGATE_* variables", why)
    docs = load_yaml_files(c, deploy)
    image = check_dockerfile(c, help_, deploy / "Dockerfile", repo)
    compose_path = next((p for p in (deploy / "docker-compose.yml", deploy / "compose.yaml", deploy / "docker-compose.yaml")
                         if p.exists()), deploy / "docker-compose.yml")
    compose = check_compose(c, help_, compose_path, docs, image, deploy)
    check_kubernetes(c, help_, deploy / "kubernetes", docs, image, compose["partitions"])
    check_readme(c, help_, deploy / "README.md")
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
