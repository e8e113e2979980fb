#!/usr/bin/env python3
"""Tests of check_deploy.py: the deploy files pass; broken copies of them, in a temp git clone, fail.

    python3 -m unittest discover -s deploy -p 'test_*.py'     (from the repository root)

A fake `pushgate` printing a fixed `pushgate run --help` keeps these independent of the build; one test
also runs the real binary when it exists.
"""

from __future__ import annotations

import json
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
PUSHGATE_PARTITIONS, PUSHGATE_MAX_IN_FLIGHT, PUSHGATE_LOG_LEVEL, PUSHGATE_ANDROID_FORMATS,
PUSHGATE_SHUTDOWN_TIMEOUT.

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
  --android-formats <FORMATS>
                          Formats for payloads routed to Android (default:
                          android-expandable).
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
  --shutdown-timeout <DURATION>
                          How long SIGTERM may take to stop in all.
  -h, --help              Show help information.
"""

DELIVER_HELP = """\
OVERVIEW: Read the output topics and post each record to its devices' push
service; write receipts.

Every option has an environment variable, used when the option is not given:
PUSHGATE_BOOTSTRAP_SERVERS, PUSHGATE_GROUP_ID, PUSHGATE_PLATFORMS,
PUSHGATE_TOPICS, PUSHGATE_DEVICES_TOPIC, PUSHGATE_RECEIPTS_TOPIC, PUSHGATE_RECEIPTS,
PUSHGATE_APNS_KEY_FILE, PUSHGATE_APNS_KEY_ID, PUSHGATE_APNS_TEAM_ID,
PUSHGATE_APNS_BUNDLE_ID, PUSHGATE_APNS_ENDPOINT, PUSHGATE_APNS_SANDBOX_ENDPOINT,
PUSHGATE_FCM_CREDENTIALS, PUSHGATE_FCM_ENDPOINT, PUSHGATE_VAPID_KEYS, PUSHGATE_VAPID_SUBJECT,
PUSHGATE_WEBPUSH_ALLOW_HOST, PUSHGATE_CA_FILE, PUSHGATE_REQUEST_TIMEOUT, PUSHGATE_GIVE_UP_AFTER,
PUSHGATE_MAX_IN_FLIGHT_REQUESTS, PUSHGATE_X, PUSHGATE_METRICS_PORT,
PUSHGATE_LOG_LEVEL, PUSHGATE_LOG_FORMAT, PUSHGATE_SHUTDOWN_TIMEOUT.

USAGE: pushgate deliver <options>

OPTIONS:
  --bootstrap-servers <bootstrap-servers>
                          Kafka bootstrap servers (host:port,...).
  --group-id <group-id>   The consumer group (default: pushgate-deliver).
  --platforms <PLATFORMS> The platforms to deliver to, comma-separated: apns, fcm, webpush.
  --topic <FORMAT=NAME>   Output topic of a format (repeatable).
  --devices-topic <devices-topic>
                          The device directory topic (default: push.devices).
  --receipts-topic <receipts-topic>
                          The receipts topic (default: push.receipts).
  --receipts <receipts>   Which outcomes get a receipt: failures, all, none.
  --apns-key-file <FILE>  The APNs signing key (.p8, PKCS#8 PEM).
  --apns-key-id <apns-key-id>
                          The APNs key's id (JWT kid).
  --apns-team-id <apns-team-id>
                          The Apple developer team id (JWT iss).
  --apns-bundle-id <apns-bundle-id>
                          The bundle id of APNs devices without app.
  --apns-endpoint <URL>   The APNs endpoint of production devices.
  --apns-sandbox-endpoint <URL>
                          The APNs endpoint of development devices.
  --fcm-credentials <FILE>
                          A Firebase service-account file (repeatable).
  --fcm-endpoint <URL>    The FCM endpoint.
  --vapid-key <NAME=FILE> A VAPID private key (repeatable).
  --vapid-subject <URI>   The VAPID subject.
  --webpush-allow-host <HOST>
                          A push service host to allow (repeatable).
  --ca-file <FILE>        Further trusted CA certificates (PEM).
  --request-timeout <DURATION>
                          How long a push service may take to answer.
  --give-up-after <DURATION>
                          How long after its first try a push is expired.
  --max-in-flight-requests <max-in-flight-requests>
                          Most concurrent requests per platform.
  -X <KEY=VALUE>          A librdkafka property (repeatable).
  --metrics-port <metrics-port>
                          Port of the HTTP server.
  --log-level <log-level> Log level.
  --log-format <log-format>
                          text, json.
  --shutdown-timeout <DURATION>
                          How long SIGTERM may take to stop in all (default: 10s).
  -h, --help              Show help information.
"""


FORMATS = [("apns", "push.apns", "ios"), ("adobe-carousel", "push.adobe.carousel", "ios"),
           ("fb-card", "push.fb.card", "ios"), ("android-expandable", "push.android.expandable", "android"),
           ("fcm", "push.fcm", "android"), ("webpush", "push.webpush", "web")]

SPEC_TOPICS = """\
## 1. Topics and records

| topic (default name) | content | renamed with |
|---|---|---|
| `push.unified` | input: unified payloads | `--input-topic` |
| `push.apns` | format `apns` | `--topic apns=NAME` |
| `push.adobe.carousel` | format `adobe-carousel` | `--topic adobe-carousel=NAME` |
| `push.fb.card` | format `fb-card` | `--topic fb-card=NAME` |
| `push.android.expandable` | format `android-expandable` | `--topic android-expandable=NAME` |
| `push.fcm` | format `fcm` (Firebase Cloud Messaging HTTP v1, Android) | `--topic fcm=NAME` |
| `push.webpush` | format `webpush` (Declarative Web Push, version 3) | `--topic webpush=NAME` |
| `push.dlq` | dead letters | `--dead-letter-topic NAME` |

## 2. JSON in and out
"""


class CheckDeployTests(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="check_deploy_"))
        self.addCleanup(shutil.rmtree, self.tmp)
        # A minimal clone: what the Dockerfile COPYs, and a copy of deploy/, committed to git.
        self.repo = self.tmp / "repo"
        for name in ("Package.swift", "Package.resolved", "Sources/pushgate/main.swift", "Tests/T/T.swift"):
            (self.repo / name).parent.mkdir(parents=True, exist_ok=True)
            (self.repo / name).write_text("")
        self.deploy = self.repo / "deploy"
        shutil.copytree(HERE, self.deploy, ignore=shutil.ignore_patterns("__pycache__", "test_*.py"))
        self.spec = self.tmp / "SPEC.md"
        self.spec.write_text(SPEC_TOPICS)
        self.fake = self.tmp / "pushgate"
        self.fake.write_text(textwrap.dedent(f"""\
            #!{sys.executable}
            import sys
            if sys.argv[1:] == ["run", "--help"]:
                sys.stdout.write({RUN_HELP!r})
            elif sys.argv[1:] == ["deliver", "--help"]:
                sys.stdout.write({DELIVER_HELP!r})
            elif sys.argv[1:] == ["formats"]:
                sys.stdout.write(open({str(self.tmp / "formats.json")!r}).read())
            else:
                sys.exit(64)
            """))
        self.fake.chmod(0o755)
        self.formats = [{"name": n, "topic": t, "platform": p, "headers": []} for n, t, p in FORMATS]
        self.write_formats()
        self.git("init", "-q")
        self.git("add", "-A")
        self.git("add", "-f", "Package.resolved")  # committed even where a global ignore file lists it

    def write_formats(self):
        (self.tmp / "formats.json").write_text(json.dumps(self.formats))

    def git(self, *args: str):
        subprocess.run(["git", "-C", str(self.repo), *args], check=True, capture_output=True)

    def run_checker(self, binary: Path | str | None = None):
        proc = subprocess.run(
            [sys.executable, str(self.deploy / "check_deploy.py"), "--pushgate", str(binary or self.fake),
             "--deploy-dir", str(self.deploy), "--repo", str(self.repo), "--spec", str(self.spec)],
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

    # -- flags and variables

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

    def test_unreadable_shutdown_timeout(self):
        self.edit("kubernetes/configmap.yaml", 'PUSHGATE_SHUTDOWN_TIMEOUT: 60s', 'PUSHGATE_SHUTDOWN_TIMEOUT: 1.5m')
        self.assert_fails("PUSHGATE_SHUTDOWN_TIMEOUT='1.5m' is not a duration")

    # -- grace periods (SPEC 7)

    def test_kubernetes_grace_period_not_above_the_shutdown_timeout(self):
        self.edit("kubernetes/deployment.yaml", "terminationGracePeriodSeconds: 90", "terminationGracePeriodSeconds: 60")
        self.assert_fails("Deployment: the grace period exceeds pushgate's --shutdown-timeout (60s)")

    def test_kubernetes_default_grace_period_is_30_seconds(self):
        self.edit("kubernetes/deployment.yaml", "terminationGracePeriodSeconds: 90\n      ", "")
        self.assert_fails("Deployment: the grace period exceeds pushgate's --shutdown-timeout")

    def test_compose_grace_period_below_a_flag_timeout(self):
        self.edit("docker-compose.yml", 'command: ["run", "--metrics-port", "9090"]',
                  'command: ["run", "--metrics-port", "9090", "--shutdown-timeout", "2m"]')
        self.assert_fails("the grace period exceeds pushgate's --shutdown-timeout (2m)")

    def test_image_command_with_an_unknown_flag(self):
        self.edit("Dockerfile", 'CMD ["run"]', 'CMD ["run", "--verbose"]')
        self.assert_fails("Dockerfile ENTRYPOINT+CMD: only `pushgate run` flags")

    # -- COPY sources

    def test_copy_of_an_untracked_file_fails(self):
        # A file that exists on the developer's machine but is not committed is not in a clone.
        self.git("rm", "-q", "--cached", "Package.resolved")
        self.assert_fails("COPY source Package.resolved is in a fresh clone")

    def test_copy_of_a_file_the_dockerignore_excludes_fails(self):
        self.edit("Dockerfile.dockerignore", "!deploy/pushgate-healthcheck", "")
        self.assert_fails("COPY source deploy/pushgate-healthcheck is sent in the build context")

    def test_copy_from_a_stage_that_does_not_exist_fails(self):
        self.edit("Dockerfile", "COPY --from=build /out/ /", "COPY --from=builder /out/ /")
        self.assert_fails("COPY --from=builder names an earlier stage")

    def test_resource_bundle_the_dockerfile_does_not_install_fails(self):
        (self.tmp / "pushgate_Pages.resources").mkdir()
        self.assert_fails("installs the resource bundle pushgate_Pages.resources beside pushgate")

    def test_context_that_is_not_a_clone_fails(self):
        shutil.rmtree(self.repo / ".git")
        self.assert_fails("the build context is a git repository", "COPY source Package.swift is in a fresh clone")

    # -- topics

    def test_kafka_init_misses_a_spec_topic(self):
        self.edit("docker-compose.yml", " push.webpush push.dlq; do", " push.dlq; do")
        self.assert_fails("kafka-init creates the input, dead-letter and every format's topic")

    def test_kafka_init_misses_the_topic_of_a_format_the_binary_lists(self):
        self.formats.append({"name": "mms", "topic": "push.mms", "platform": "android", "headers": []})
        self.write_formats()
        self.assert_fails("kafka-init creates the input, dead-letter and every format's topic")

    def test_binary_that_lists_no_formats_fails(self):
        self.formats = []
        self.write_formats()
        self.assert_fails("`pushgate formats` lists the formats and their topics")

    def test_worker_uses_a_topic_kafka_init_does_not_create(self):
        self.edit("docker-compose.yml", "PUSHGATE_DEAD_LETTER_TOPIC: push.dlq", "PUSHGATE_DEAD_LETTER_TOPIC: push.dead")
        self.assert_fails("every topic it uses is created by kafka-init")

    def test_topic_of_a_format_spec_does_not_have(self):
        self.edit("kubernetes/configmap.yaml", "PUSHGATE_TOPICS: apns=push.apns,", "PUSHGATE_TOPICS: apn=push.apns,")
        self.assert_fails("PUSHGATE_TOPICS entry 'apn=push.apns' is not FORMAT=NAME with a format of `pushgate formats`")

    def test_scaled_object_watches_another_topic(self):
        self.edit("kubernetes/scaledobject.yaml", "topic: push.unified", "topic: push.apns")
        self.assert_fails("ScaledObject: its kafka trigger watches the workers' input topic")

    # -- pushgate deliver (SPEC 10)

    def test_deliver_flag_that_only_run_has(self):
        self.edit("kubernetes/deliver-deployment.yaml", "- deliver\n", "- deliver\n            - --lenient\n")
        self.assert_fails("Deployment pushgate-deliver container deliver: only `pushgate deliver` flags",
                          "unknown option --lenient")

    def test_deliver_variable_that_only_run_has(self):
        self.edit("kubernetes/deliver-configmap.yaml", "PUSHGATE_RECEIPTS: failures", "PUSHGATE_INPUT_TOPIC: push.unified")
        self.assert_fails("ConfigMap pushgate-deliver-config: PUSHGATE_* variables are ones `pushgate deliver --help` names",
                          "unknown: PUSHGATE_INPUT_TOPIC")

    def test_deliver_unreadable_values(self):
        self.edit("docker-compose.yml", "PUSHGATE_RECEIPTS: failures", "PUSHGATE_RECEIPTS: some")
        self.edit("kubernetes/deliver-configmap.yaml", "PUSHGATE_GIVE_UP_AFTER: 24h", "PUSHGATE_GIVE_UP_AFTER: 1d")
        self.assert_fails("PUSHGATE_RECEIPTS='some' is not failures, all or none",
                          "PUSHGATE_GIVE_UP_AFTER='1d' is not a duration")

    def test_deliver_topic_of_a_format_it_does_not_deliver(self):
        self.edit("kubernetes/deliver-configmap.yaml", "PUSHGATE_TOPICS: apns=push.apns,",
                  "PUSHGATE_TOPICS: android-expandable=push.android.expandable,apns=push.apns,")
        self.assert_fails("PUSHGATE_TOPICS entry 'android-expandable=push.android.expandable' is not FORMAT=NAME with a "
                          "format of `pushgate formats` that deliver posts")

    def test_deliver_grace_period_not_above_its_shutdown_timeout(self):
        self.edit("kubernetes/deliver-deployment.yaml", "terminationGracePeriodSeconds: 40", "terminationGracePeriodSeconds: 20")
        self.edit("docker-compose.yml", "stop_grace_period: 40s", "stop_grace_period: 15s")
        self.assert_fails("Deployment pushgate-deliver: the grace period exceeds pushgate's --shutdown-timeout (20s)",
                          "compose service deliver: the grace period exceeds pushgate's --shutdown-timeout (20s)")

    def test_deliver_default_shutdown_timeout_is_10_seconds(self):
        # Without PUSHGATE_SHUTDOWN_TIMEOUT, deliver's 10 s applies (not run's 30 s): compose's default 10 s
        # grace period is then not above it, a 15 s one is.
        self.edit("docker-compose.yml", "      PUSHGATE_SHUTDOWN_TIMEOUT: 20s\n      PUSHGATE_LOG_LEVEL: info\n      PUSHGATE_X: client.id=pushgate-deliver",
                  "      PUSHGATE_LOG_LEVEL: info\n      PUSHGATE_X: client.id=pushgate-deliver")
        self.edit("docker-compose.yml", "stop_grace_period: 40s", "stop_grace_period: 15s")
        rc, lines = self.run_checker()
        self.assertEqual(rc, 0, "\n".join(lines))
        self.edit("docker-compose.yml", "    stop_grace_period: 15s\n", "")
        self.assert_fails("compose service deliver: the grace period exceeds pushgate's --shutdown-timeout (10s)")

    def test_kafka_init_creates_the_devices_topic_not_compacted(self):
        self.edit("docker-compose.yml", "--config cleanup.policy=compact", "--config cleanup.policy=delete")
        self.assert_fails("compose service deliver: kafka-init creates its devices topic push.devices compacted")

    def test_kafka_init_misses_the_receipts_topic(self):
        self.edit("docker-compose.yml", "--topic push.receipts", "--topic push.receipt")
        self.assert_fails("compose service deliver: every topic it uses is created by kafka-init", "push.receipts")

    def test_deliver_key_file_not_read_only_or_not_from_a_secret(self):
        self.edit("kubernetes/deliver-deployment.yaml", "              mountPath: /etc/pushgate/apns\n              readOnly: true\n",
                  "              mountPath: /etc/pushgate/apns\n")
        self.edit("kubernetes/deliver-configmap.yaml", "PUSHGATE_APNS_KEY_FILE: /etc/pushgate/apns/AuthKey.p8",
                  "PUSHGATE_APNS_KEY_FILE: /etc/pushgate/apns/Key.p8")
        self.assert_fails("the APNs key file's volume (/etc/pushgate/apns) is mounted readOnly",
                          "Secret pushgate-apns-key holds the APNs key file Key.p8")

    def test_deliver_key_file_outside_any_mount(self):
        self.edit("kubernetes/deliver-configmap.yaml", "PUSHGATE_APNS_KEY_FILE: /etc/pushgate/apns/AuthKey.p8",
                  "PUSHGATE_APNS_KEY_FILE: /tmp/AuthKey.p8x")
        self.edit("kubernetes/deliver-deployment.yaml", "mountPath: /tmp\n", "mountPath: /scratch\n")
        self.assert_fails("the APNs key file /tmp/AuthKey.p8x is in a Secret volume")

    def test_deliver_scaled_object_misses_an_apns_topic_or_watches_another_group(self):
        self.edit("kubernetes/deliver-scaledobject.yaml", "topic: push.fb.card", "topic: push.android.expandable")
        self.edit("kubernetes/deliver-scaledobject.yaml", "consumerGroup: pushgate-deliver", "consumerGroup: pushgate")
        self.assert_fails("ScaledObject of pushgate-deliver: one kafka trigger per topic deliver reads",
                          "ScaledObject of pushgate-deliver: its kafka trigger watches the workers' group")

    def test_deliver_fcm_and_vapid_files_from_secrets(self):
        self.edit("kubernetes/deliver-configmap.yaml", "PUSHGATE_FCM_CREDENTIALS: /etc/pushgate/fcm/service-account.json",
                  "PUSHGATE_FCM_CREDENTIALS: /etc/pushgate/fcm/service-account.json;/etc/pushgate/firebase/other.json")
        self.edit("kubernetes/deliver-configmap.yaml", "PUSHGATE_VAPID_KEYS: shop=/etc/pushgate/vapid/shop.pem",
                  "PUSHGATE_VAPID_KEYS: shop=/etc/pushgate/vapid/news.pem")
        self.assert_fails("the FCM service-account file /etc/pushgate/firebase/other.json is in a Secret volume",
                          "Secret pushgate-vapid-keys holds the VAPID key file news.pem")

    def test_deliver_platform_listed_without_its_credentials(self):
        self.edit("kubernetes/deliver-configmap.yaml", "  PUSHGATE_VAPID_KEYS: shop=/etc/pushgate/vapid/shop.pem\n", "")
        self.assert_fails("Deployment pushgate-deliver container deliver: webpush has its VAPID key file")

    def test_deliver_unknown_platform(self):
        self.edit("kubernetes/deliver-configmap.yaml", "PUSHGATE_PLATFORMS: apns,fcm,webpush", "PUSHGATE_PLATFORMS: apns,gcm")
        self.assert_fails("PUSHGATE_PLATFORMS entry 'gcm' is not one of apns, fcm, webpush")

    def test_deliver_scaled_object_misses_a_delivered_platforms_topic(self):
        # Without webpush, its trigger watches a topic deliver does not read.
        self.edit("kubernetes/deliver-configmap.yaml", "PUSHGATE_PLATFORMS: apns,fcm,webpush", "PUSHGATE_PLATFORMS: apns,fcm")
        self.assert_fails("ScaledObject of pushgate-deliver: one kafka trigger per topic deliver reads")

    def test_missing_binary(self):
        rc, lines = self.run_checker(self.tmp / "no-such-pushgate")
        self.assertEqual(rc, 1)
        self.assertTrue(any("pushgate run --help" in line and line.startswith("FAIL") for line in lines), lines)


class ValidateKedaTests(unittest.TestCase):
    """deploy/validate_keda.py refuses what KEDA's CRD schema refuses."""

    def run_validator(self, text: str):
        path = Path(tempfile.mkdtemp(prefix="keda_")) / "so.yaml"
        self.addCleanup(shutil.rmtree, path.parent)
        path.write_text(text)
        return subprocess.run([sys.executable, str(HERE / "validate_keda.py"), str(path)],
                              capture_output=True, text=True, timeout=60)

    def test_the_scaled_object_passes(self):
        proc = self.run_validator((HERE / "kubernetes/scaledobject.yaml").read_text())
        self.assertEqual(proc.returncode, 0, proc.stdout)
        self.assertIn("2 passed, 0 failed", proc.stdout)

    def test_the_deliver_scaled_object_passes(self):
        proc = self.run_validator((HERE / "kubernetes/deliver-scaledobject.yaml").read_text())
        self.assertEqual(proc.returncode, 0, proc.stdout)
        self.assertIn("1 passed, 0 failed", proc.stdout)

    def test_misspelt_field_and_wrong_type_fail(self):
        text = (HERE / "kubernetes/scaledobject.yaml").read_text()
        text = text.replace("  pollingInterval: 15", "  pollingIntervall: 15").replace('lagThreshold: "1000"', "lagThreshold: 1000")
        proc = self.run_validator(text)
        self.assertEqual(proc.returncode, 1, proc.stdout)
        self.assertIn("'pollingIntervall' was unexpected", proc.stdout)
        self.assertIn("lagThreshold: 1000 is not of type 'string'", proc.stdout)


if __name__ == "__main__":
    unittest.main()
