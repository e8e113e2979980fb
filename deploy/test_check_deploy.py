#!/usr/bin/env python3
"""Tests of check_deploy.py: the deploy files pass; broken copies of them, in a temp dir, fail.

    python3 -m unittest discover -s deploy -p 'test_*.py'     (from the repository root)

A fake `pushgate` printing a fixed `pushgate run --help` keeps these independent of the build; one test
also runs the real binary when it exists.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CHECKER = HERE / "check_deploy.py"

RUN_HELP = """\
OVERVIEW: Consume unified payloads, translate them and produce every format and
dead letter.

Every option has an environment variable, used when the option is not given:
PUSHGATE_BOOTSTRAP_SERVERS, PUSHGATE_GROUP_ID, PUSHGATE_INPUT_TOPIC,
PUSHGATE_TOPICS (FORMAT=NAME entries separated by ',', ';' or newlines),
PUSHGATE_DEAD_LETTER_TOPIC, PUSHGATE_LENIENT (true/false),
PUSHGATE_MAX_PAYLOAD_BYTES, PUSHGATE_X (key=value entries separated by ';' or
newlines; a -X flag wins for the same key), PUSHGATE_METRICS_PORT,
PUSHGATE_PARTITIONS, PUSHGATE_MAX_IN_FLIGHT, PUSHGATE_LOG_LEVEL.

USAGE: pushgate run <options>

OPTIONS:
  --bootstrap-servers <bootstrap-servers>
                          Kafka bootstrap servers (host:port,...).
  --group-id <group-id>   The consumer group (default: pushgate).
  --input-topic <input-topic>
                          The input topic (default: push.unified).
  --topic <FORMAT=NAME>   Output topic of a format (repeatable).
  --dead-letter-topic <dead-letter-topic>
                          The dead-letter topic (default: push.dlq).
  --lenient/--no-lenient  Unknown fields are warnings instead of errors
                          (default: off).
  --max-payload-bytes <max-payload-bytes>
                          Largest payload in bytes.
  -X <KEY=VALUE>          A librdkafka property for consumer and producer
                          (repeatable).
  --metrics-port <metrics-port>
                          Port of the metrics endpoint.
  --partitions <partitions>
                          Partitions per topic of the embedded broker.
  --max-in-flight <max-in-flight>
                          Most input records in flight.
  --log-level <log-level> Log level.
  -h, --help              Show help information.
"""


class CheckDeployTests(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="check_deploy_"))
        self.addCleanup(shutil.rmtree, self.tmp)
        # A minimal build context: what the Dockerfile COPYs, and a copy of deploy/.
        self.repo = self.tmp / "repo"
        (self.repo / "Sources").mkdir(parents=True)
        (self.repo / "Tests").mkdir()
        for name in ("Package.swift", "Package.resolved"):
            (self.repo / name).write_text("")
        self.deploy = self.repo / "deploy"
        shutil.copytree(HERE, self.deploy, ignore=shutil.ignore_patterns("__pycache__", "test_*.py"))
        self.fake = self.tmp / "pushgate"
        self.fake.write_text(textwrap.dedent(f"""\
            #!{sys.executable}
            import sys
            if sys.argv[1:] == ["run", "--help"]:
                sys.stdout.write({RUN_HELP!r})
            else:
                sys.exit(64)
            """))
        self.fake.chmod(0o755)

    def run_checker(self, binary: Path | str | None = None):
        proc = subprocess.run(
            [sys.executable, str(self.deploy / "check_deploy.py"), "--pushgate", str(binary or self.fake),
             "--deploy-dir", str(self.deploy), "--repo", str(self.repo)],
            capture_output=True, text=True, timeout=120)
        lines = proc.stdout.strip().splitlines()
        self.assertTrue(lines, proc.stderr)
        self.assertRegex(lines[-1], r"^\d+ passed, \d+ failed$")
        return proc.returncode, lines

    def edit(self, relative: str, old: str, new: str, count: int = 1):
        path = self.deploy / relative
        text = path.read_text()
        self.assertIn(old, text, f"{relative} no longer contains {old!r}: update the test")
        path.write_text(text.replace(old, new, count))

    def assert_fails(self, *expected: str):
        rc, lines = self.run_checker()
        failures = [line for line in lines if line.startswith("FAIL ")]
        self.assertEqual(rc, 1, "\n".join(lines))
        self.assertRegex(lines[-1], r"^\d+ passed, [1-9]\d* failed$")
        self.assertEqual(len(failures), int(lines[-1].split()[2]), "one line per failure")
        for text in expected:
            self.assertTrue(any(text in line for line in failures), f"no failure mentions {text!r}:\n" + "\n".join(failures))

    # -- the real files

    def test_deploy_files_pass(self):
        rc, lines = self.run_checker()
        self.assertEqual(rc, 0, "\n".join(lines))
        self.assertRegex(lines[-1], r"^\d+ passed, 0 failed$")

    @unittest.skipUnless((REPO / ".build/debug/pushgate").exists(), "pushgate is not built")
    def test_deploy_files_pass_with_the_real_binary(self):
        rc, lines = self.run_checker(REPO / ".build/debug/pushgate")
        self.assertEqual(rc, 0, "\n".join(lines))

    # -- broken copies

    def test_unknown_flag_in_deployment_args(self):
        self.edit("kubernetes/deployment.yaml", "- --metrics-port=9090", "- --metrics-address=0.0.0.0:9090")
        self.assert_fails("unknown option --metrics-address")

    def test_flag_value_on_a_boolean_flag_in_compose(self):
        self.edit("docker-compose.yml", 'command: ["run", "--metrics-port", "9090"]',
                  'command: ["run", "--metrics-port", "9090", "--lenient=true"]')
        self.assert_fails("--lenient takes no value")

    def test_positional_argument_and_bad_x(self):
        self.edit("kubernetes/deployment.yaml", "- sasl.mechanism=SCRAM-SHA-512", "- sasl.mechanism\n            - extra")
        self.assert_fails("-X 'sasl.mechanism' is not KEY=VALUE", "unexpected argument 'extra'")

    def test_unknown_environment_variable(self):
        self.edit("kubernetes/configmap.yaml", "PUSHGATE_GROUP_ID: pushgate", "PUSHGATE_GROUP: pushgate")
        self.assert_fails("unknown: PUSHGATE_GROUP")

    def test_unreadable_environment_value(self):
        self.edit("docker-compose.yml", 'PUSHGATE_LENIENT: "false"', 'PUSHGATE_LENIENT: "maybe"')
        self.assert_fails("PUSHGATE_LENIENT='maybe' is not true/false")

    def test_more_replicas_than_partitions(self):
        self.edit("kubernetes/scaledobject.yaml", "maxReplicaCount: 12", "maxReplicaCount: 24")
        self.assert_fails("maxReplicaCount <= partitions")

    def test_kafka_init_misses_a_topic(self):
        self.edit("docker-compose.yml", " push.dlq; do", "; do")
        self.assert_fails("kafka-init creates every SPEC topic")

    def test_kafka_not_kraft(self):
        self.edit("docker-compose.yml", "KAFKA_PROCESS_ROLES: broker,controller", "KAFKA_PROCESS_ROLES: broker")
        self.assert_fails("KAFKA_PROCESS_ROLES")

    def test_one_replica_in_compose(self):
        self.edit("docker-compose.yml", "replicas: 2", "replicas: 1")
        self.assert_fails("at least 2 pushgate replicas")

    def test_prometheus_scrapes_the_wrong_port(self):
        self.edit("prometheus.yml", "port: 9090", "port: 8080")
        self.assert_fails("scrapes /metrics of every pushgate service")

    def test_dockerfile_runtime_and_user(self):
        self.edit("Dockerfile", "ARG RUNTIME_IMAGE=debian:bookworm-slim", "ARG RUNTIME_IMAGE=debian:bookworm")
        self.edit("Dockerfile", "USER 10001:10001", "USER root")
        self.edit("Dockerfile", "librdkafka1 ca-certificates", "ca-certificates")
        self.assert_fails("runtime stage is debian:bookworm-slim", "non-root USER", "installs librdkafka1")

    def test_dockerfile_single_stage_without_healthcheck(self):
        text = (self.deploy / "Dockerfile").read_text()
        runtime = text[text.index("FROM ${RUNTIME_IMAGE}"):]
        runtime = re.sub(r"HEALTHCHECK[^\n]*\\\n[^\n]*\n", "", runtime)
        (self.deploy / "Dockerfile").write_text("ARG RUNTIME_IMAGE=debian:bookworm-slim\n" + runtime)
        self.assert_fails("multi-stage", "HEALTHCHECK calls /health")

    def test_readiness_probe_on_health(self):
        self.edit("kubernetes/deployment.yaml", "path: /ready", "path: /health")
        self.assert_fails("readinessProbe is GET /ready")

    def test_root_container(self):
        self.edit("kubernetes/deployment.yaml", "runAsNonRoot: true", "runAsNonRoot: false", count=2)
        self.assert_fails("runs as non-root")

    def test_pdb_selects_other_pods(self):
        self.edit("kubernetes/poddisruptionbudget.yaml", "app.kubernetes.io/component: worker",
                  "app.kubernetes.io/component: api")
        self.assert_fails("selects the Deployment's pods")

    def test_scaled_object_targets_another_deployment(self):
        self.edit("kubernetes/scaledobject.yaml", "    name: pushgate\n  pollingInterval", "    name: other\n  pollingInterval")
        self.assert_fails("targets the pushgate Deployment")

    def test_kustomization_lists_a_missing_file(self):
        self.edit("kubernetes/kustomization.yaml", "  - scaledobject.yaml", "  - scaledobject.yaml\n  - service.yaml")
        self.assert_fails("every listed resource exists")

    def test_undefined_variable_reference(self):
        self.edit("kubernetes/deployment.yaml", "$(KAFKA_SASL_PASSWORD)", "$(KAFKA_PASSWORD)")
        self.assert_fails("$(VAR) refers to a defined variable")

    def test_broken_yaml(self):
        (self.deploy / "kubernetes" / "configmap.yaml").write_text("data: [unclosed\n")
        self.assert_fails("configmap.yaml: parses")

    def test_missing_binary(self):
        rc, lines = self.run_checker(self.tmp / "no-such-pushgate")
        self.assertEqual(rc, 1)
        self.assertTrue(any("pushgate run --help" in line and line.startswith("FAIL") for line in lines), lines)


if __name__ == "__main__":
    unittest.main()
