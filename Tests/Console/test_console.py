"""`pushgate console` in headless Chromium (Selenium), against the embedded broker (`pushgate broker`) and a
running `pushgate run`; every topic is read back with confluent-kafka, an independent client.

- 200 payloads with five kinds of mistakes: the page's counts per code are the dead-letter topic's;
- filter one code, open a letter, fix it in the editor, re-drive it: its `apns` output appears on the page
  and in the topic;
- restart the worker with --lenient, bulk re-drive the `unknown_field` letters: each is translated once, and
  a second click writes nothing;
- records pushgate did not write (a binary value, a large one) are listed as such and open;
- the cluster going away shows a banner, which goes when it returns;
- the token: /api without it is 401; the page with `#token=` works.

Screenshots go to .build/console-screenshots/ (`--screenshots DIR` to put them elsewhere, e.g. docs/images).
Usage: test_console.py [--pushgate PATH] [--screenshots DIR]
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request

from confluent_kafka import Consumer, Producer, TopicPartition

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "Integration"))
import harness  # noqa: E402

PUSHGATE = ".build/debug/pushgate"
SHOTS = ".build/console-screenshots"
GROUP = "console-test"
TOKEN = "console-test-token-7f3a"
PER_KIND = 40


def payload(kind, n):
    """One payload with one mistake of `kind` (its code), as text."""
    title = f"Sale {n}"
    if kind == "unknown_field":
        return json.dumps({"id": f"u-{n}", "message": {"title": title, "body": "Today only"}, "colour": "red"})
    if kind == "invalid_url":
        return json.dumps({"id": f"l-{n}", "message": {"title": title, "body": "Tap"},
                           "action": {"type": "url", "value": "not a url"}})
    if kind == "invalid_json":
        return '{"id":"j-%d","message":{"title":"%s"' % (n, title)
    if kind == "wrong_type":
        return json.dumps({"id": f"w-{n}", "message": {"title": n, "body": "Numbers"}})
    if kind == "invalid_item_count":
        return json.dumps({"id": f"c-{n}", "platform": {"android": False}, "message": {"body": "Look"},
                           "carousel": {"mode": "auto", "items": []}})
    raise ValueError(kind)


KINDS = ["unknown_field", "invalid_url", "invalid_json", "wrong_type", "invalid_item_count"]


def header(record, name):
    for key, value in record.headers() or []:
        if key == name:
            return None if value is None else value.decode("utf-8", "replace")
    return None


def read_topic(address, topic, minimum=0, timeout=60, idle=2.0):
    """Every record of `topic` from the beginning, read with confluent-kafka; waits for `minimum` records,
    then until none came for `idle` seconds."""
    consumer = Consumer(harness.client_config(address, {"group.id": "console-check", "enable.auto.commit": False}))
    metadata = consumer.list_topics(topic, timeout=10)
    partitions = [TopicPartition(topic, p, 0) for p in metadata.topics[topic].partitions]
    consumer.assign(partitions)
    records, deadline, last = [], time.time() + timeout, time.time()
    while time.time() < deadline:
        message = consumer.poll(0.2)
        if message is None:
            if len(records) >= minimum and time.time() - last > idle:
                break
            continue
        if message.error():
            continue
        records.append(message)
        last = time.time()
    consumer.close()
    return records


class ConsolePageTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="console-test-")
        cls.broker = harness.Broker(PUSHGATE, partitions=4, log_path=os.path.join(cls.tmp, "broker.log"))
        cls.worker = cls.start_worker("worker-1")
        token_file = os.path.join(cls.tmp, "token")
        with open(token_file, "w") as handle:
            handle.write(TOKEN + "\n")
        cls.console_log = open(os.path.join(cls.tmp, "console.log"), "w")
        cls.console = subprocess.Popen(
            [PUSHGATE, "console", "--bootstrap-servers", cls.broker.address, "--group-id", GROUP, "--port", "0",
             "--token-file", token_file], stdout=subprocess.PIPE, stderr=cls.console_log, text=True)
        line = cls.console.stdout.readline()
        match = re.search(r"port (\d+)", line)
        if not match:
            raise RuntimeError("pushgate console did not print its port: %r" % line)
        cls.port = int(match.group(1))
        cls.url = "http://127.0.0.1:%d/" % cls.port
        # The inputs: 200 payloads, 40 of each kind, keys user-0..9, one forwarded header.
        producer = Producer({"bootstrap.servers": cls.broker.address, "enable.idempotence": True})
        for n in range(PER_KIND * len(KINDS)):
            kind = KINDS[n % len(KINDS)]
            producer.produce(harness.INPUT_TOPIC, payload(kind, n).encode(), key=f"user-{n % 10}".encode(),
                             headers=[("trace-id", f"t-{n}".encode())])
        assert producer.flush(30) == 0
        cls.letters = read_topic(cls.broker.address, "push.dlq", minimum=PER_KIND * len(KINDS), timeout=90)
        assert len(cls.letters) == PER_KIND * len(KINDS), f"{len(cls.letters)} dead letters"
        options = webdriver.ChromeOptions()
        for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--window-size=1500,1400", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]:
            options.add_argument(arg)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        if os.path.exists("/usr/bin/chromium"):
            options.binary_location = "/usr/bin/chromium"
        driver_path = "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None
        cls.driver = webdriver.Chrome(service=Service(driver_path) if driver_path else Service(), options=options)
        cls.driver.set_page_load_timeout(20)
        cls.driver.get(cls.url + "#token=" + TOKEN)
        os.makedirs(SHOTS, exist_ok=True)

    @classmethod
    def start_worker(cls, name, *extra):
        with open(os.path.join(cls.tmp, name + ".log"), "w") as log:
            return subprocess.Popen([PUSHGATE, "run", "--bootstrap-servers", cls.broker.address, "--group-id", GROUP,
                                     "--log-level", "warning"] + harness.QUICK + list(extra),
                                    stdout=subprocess.DEVNULL, stderr=log)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        for process in (cls.console, cls.worker):
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                process.kill()
        cls.console_log.close()
        cls.console.stdout.close()
        cls.broker.stop()

    # Helpers

    def wait(self, condition, timeout=30, what="the page"):
        return WebDriverWait(self.driver, timeout).until(lambda d: condition(d), message=f"waiting for {what}")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def shot(self, name):
        self.driver.save_screenshot(os.path.join(SHOTS, name + ".png"))

    def show(self, code=None, stage=None):
        """Sets the filters (only code and stage) and waits for the list to answer them."""
        self.js("document.getElementById('filters').reset();"
                "const s = document.getElementById('f-code');"
                "if (arguments[0] && ![...s.options].some(o => o.value === arguments[0]))"
                "  s.append(new Option(arguments[0], arguments[0]));"
                "s.value = arguments[0] || ''; document.getElementById('f-stage').value = arguments[1] || '';"
                "window.renderedLetters = undefined; loadLetters(true);", code or "", stage or "")
        self.wait(lambda d: self.js("return window.renderedLetters !== undefined && "
                                    "window.renderedLetters === (() => { const q = filterQuery(); q.set('limit','50');"
                                    " return q.toString(); })()"), what=f"the letters of {code or stage}")

    def api(self, path, token=TOKEN, body=None):
        request = urllib.request.Request(self.url.rstrip("/") + path, data=body,
                                         headers={"Content-Type": "application/json"})
        if token:
            request.add_header("Authorization", "Bearer " + token)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    # Tests, in order

    def test_1_counts_per_code_are_the_topics(self):
        expected = {}
        for record in self.letters:
            code = header(record, "__connect.errors.exception.class.name")
            expected[code] = expected.get(code, 0) + 1
        self.assertEqual(expected, {kind: PER_KIND for kind in KINDS})
        self.wait(lambda d: d.find_element(By.ID, "summary").get_attribute("data-matching") == str(len(self.letters)),
                  what="200 letters")
        chips = {c.get_attribute("data-code"): int(c.get_attribute("data-count"))
                 for c in self.driver.find_elements(By.CSS_SELECTOR, "#counts .count[data-code]")}
        self.assertEqual(chips, expected)
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, "#letters li")), 50)
        self.driver.find_element(By.ID, "more").click()
        self.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#letters li")) == 100, what="the second page")
        # The live view: the worker's group has read everything, nothing lags.
        self.wait(lambda d: "lag 0" in d.find_element(By.ID, "lag-title").text, what="the group's lag")
        dlq_row = self.driver.find_element(By.CSS_SELECTOR, "#rates tr[data-topic='push.dlq']")
        self.assertIn(str(len(self.letters)), dlq_row.text)
        self.shot("console-dead-letters")

    def test_2_fix_one_letter_and_see_its_apns_output(self):
        self.show(code="invalid_url")
        self.assertEqual(self.driver.find_element(By.ID, "summary").get_attribute("data-matching"), str(PER_KIND))
        first = self.driver.find_element(By.CSS_SELECTOR, "#letters li")
        partition, offset = first.get_attribute("data-partition"), first.get_attribute("data-offset")
        first.click()
        self.wait(lambda d: self.js("return window.openedLetter") == f"{partition}/{offset}", what="the letter")
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#records article"), what="the translation")
        self.assertIn("not a url", self.js("return editor.value"))
        # The problem links to the payload.
        self.driver.find_element(By.CSS_SELECTOR, "#letter-problems li.problem").click()
        self.assertEqual(self.driver.find_element(By.ID, "highlight-info").get_attribute("data-pointer"),
                         "/action/value")
        self.shot("console-letter")
        fixed = self.js("return editor.value").replace("not a url", "https://shop.example.com/sale")
        self.js("editor.value = arguments[0]; editor.dispatchEvent(new Event('input'))", fixed)
        self.wait(lambda d: self.js("return window.renderedRequest === JSON.stringify(request())"), what="the preview")
        self.assertTrue(self.driver.find_elements(By.CSS_SELECTOR, "#records article[data-format='apns']"))
        self.driver.find_element(By.ID, "redrive-edited").click()
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#follow .outcome[data-format='apns']"), timeout=60,
                  what="the apns output of the re-driven record")
        self.shot("console-follow-through")
        source = self.driver.find_element(By.CSS_SELECTOR, "#follow .redrive").get_attribute("data-source")
        # The independent client sees the re-driven record and its apns output.
        inputs = [r for r in read_topic(self.broker.address, harness.INPUT_TOPIC, minimum=201)
                  if header(r, "pushgate-redriven-from") == f"push.dlq:{partition}:{offset}"]
        self.assertEqual(len(inputs), 1)
        self.assertEqual(inputs[0].value().decode(), fixed)
        self.assertEqual(f"{inputs[0].topic()}:{inputs[0].partition()}:{inputs[0].offset()}", source)
        self.assertEqual([k for k, _ in inputs[0].headers()], ["trace-id", "pushgate-redriven-from"])
        outputs = [r for r in read_topic(self.broker.address, "push.apns", minimum=1)
                   if header(r, "pushgate-source") == source]
        self.assertEqual(len(outputs), 1)
        self.assertIn(b"https://shop.example.com/sale", outputs[0].value())

    def test_2b_a_letter_fixed_into_a_live_activity_is_drawn_on_the_lock_screen(self):
        self.show(code="invalid_url")
        second = self.driver.find_elements(By.CSS_SELECTOR, "#letters li")[1]
        partition, offset = second.get_attribute("data-partition"), second.get_attribute("data-offset")
        second.click()
        self.wait(lambda d: self.js("return window.openedLetter") == f"{partition}/{offset}", what="the letter")
        fixed = ('{"platform":{"android":false},"message":{"title":"Goal!","body":"Lions 1 - 0"},"live_activity":'
                 '{"event":"update","content_state":{"home":1,"away":0,"minute":23},"stale_date":1798761600}}')
        self.js("editor.value = arguments[0]; editor.dispatchEvent(new Event('input'))", fixed)
        self.wait(lambda d: self.js("return window.renderedRequest === JSON.stringify(request())"), what="the preview")
        self.assertEqual(len(self.driver.find_elements(
            By.CSS_SELECTOR, "#records article[data-format='apns'] .preview-live-activity")), 1)
        self.driver.find_element(By.ID, "redrive-edited").click()
        drawn = "#follow .outcome[data-format='apns'] .preview-live-activity"
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, drawn), timeout=60,
                  what="the Live Activity the re-driven record became")
        source = self.driver.find_element(By.CSS_SELECTOR, "#follow .redrive").get_attribute("data-source")
        outputs = [r for r in read_topic(self.broker.address, "push.apns", minimum=2)
                   if header(r, "pushgate-source") == source]
        self.assertEqual(len(outputs), 1)
        self.assertEqual(header(outputs[0], "apns-push-type"), "liveactivity")
        aps = json.loads(outputs[0].value())["aps"]
        preview = self.driver.find_element(By.CSS_SELECTOR, drawn)
        rows = preview.find_elements(By.CSS_SELECTOR, '.la-fields[data-kind="content-state"] tr')
        self.assertEqual({r.get_attribute("data-name"): r.find_elements(By.TAG_NAME, "td")[1].text for r in rows},
                         {name: json.dumps(value) for name, value in aps["content-state"].items()})
        self.assertEqual([e.text for e in preview.find_elements(By.CSS_SELECTOR, ".la-alert .title")], ["Goal!"])
        self.assertEqual([e.text for e in preview.find_elements(By.CSS_SELECTOR, ".la-event")], ["updated"])
        self.shot("console-live-activity")
    def test_2c_fix_a_letter_into_a_web_push_and_see_the_browser_notification(self):
        self.show(code="wrong_type")
        first = self.driver.find_element(By.CSS_SELECTOR, "#letters li")
        partition, offset = first.get_attribute("data-partition"), first.get_attribute("data-offset")
        first.click()
        self.wait(lambda d: self.js("return window.openedLetter") == f"{partition}/{offset}", what="the letter")
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#records article"), what="the translation")
        fixed = json.dumps({"id": f"web-{partition}-{offset}", "platform": {"ios": False, "android": False, "web": True},
                            "message": {"title": "Sale today", "body": "Numbers fixed"},
                            "actions": [{"type": "url", "name": "Shop", "value": "https://shop.example.com/sale"}],
                            "web": {"navigate": "https://shop.example.com/", "urgency": "high"}})
        self.js("editor.value = arguments[0]; editor.dispatchEvent(new Event('input'))", fixed)
        self.wait(lambda d: self.js("return window.renderedRequest === JSON.stringify(request())"), what="the preview")
        web = self.driver.find_element(By.CSS_SELECTOR, "#records article[data-format='webpush']")
        self.assertEqual([e.text for e in web.find_elements(By.CSS_SELECTOR, ".web-notification .title")],
                         ["Sale today"])
        self.assertEqual([e.text for e in web.find_elements(By.CSS_SELECTOR, ".web-site")], ["shop.example.com"])
        self.assertEqual([e.text for e in web.find_elements(By.CSS_SELECTOR, ".web-action")], ["Shop"])
        self.shot("console-webpush")
        self.driver.find_element(By.ID, "redrive-edited").click()
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "#follow .outcome[data-format='webpush']"), timeout=60,
                  what="the webpush output of the re-driven record")
        outcome = self.driver.find_element(By.CSS_SELECTOR, "#follow .outcome[data-format='webpush']")
        self.assertEqual(outcome.get_attribute("data-topic"), "push.webpush")
        self.assertEqual([e.text for e in outcome.find_elements(By.CSS_SELECTOR, ".web-notification .title")],
                         ["Sale today"])
        source = self.js("return [...document.querySelectorAll('#follow .redrive')].find(d => "
                         "d.querySelector(\".outcome[data-format='webpush']\")).dataset.source")
        outputs = [r for r in read_topic(self.broker.address, "push.webpush", minimum=1)
                   if header(r, "pushgate-source") == source]
        self.assertEqual(len(outputs), 1)
        self.assertEqual(header(outputs[0], "webpush-urgency"), "high")
        self.assertEqual(json.loads(outputs[0].value())["notification"]["navigate"], "https://shop.example.com/")
        self.wait(lambda d: d.find_elements(By.CSS_SELECTOR, "tr[data-topic='push.webpush']"), timeout=30,
                  what="push.webpush in the topic table")

    def test_3_lenient_worker_bulk_redrive_translates_each_once(self):
        self.worker.send_signal(signal.SIGTERM)
        self.assertEqual(self.worker.wait(timeout=60), 0)
        type(self).worker = self.start_worker("worker-2", "--lenient")
        self.show(code="unknown_field")
        self.js("window.consoleConfirmed = true")
        self.driver.find_element(By.ID, "bulk-redrive").click()
        self.wait(lambda d: d.find_element(By.ID, "bulk-count").get_attribute("data-done") == "true", timeout=60,
                  what="the bulk re-drive")
        self.assertIn(f"{PER_KIND} / {PER_KIND}: {PER_KIND} written, 0 already",
                      self.driver.find_element(By.ID, "bulk-count").text)
        self.wait(lambda d: (d.find_elements(By.ID, "bulk-follow") or [None])[0] is not None and
                  d.find_element(By.ID, "bulk-follow").get_attribute("data-translated") == str(PER_KIND),
                  timeout=120, what="every re-driven letter translated")
        self.wait(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#letters li .tag.redriven")) == PER_KIND,
                  what="every listed letter marked re-driven")
        self.shot("console-bulk")
        # A second click of the same request writes nothing.
        self.js("document.getElementById('bulk-count').dataset.done = ''")
        self.driver.find_element(By.ID, "bulk-redrive").click()
        self.wait(lambda d: d.find_element(By.ID, "bulk-count").get_attribute("data-done") == "true", timeout=60,
                  what="the second bulk re-drive")
        self.assertIn(f"0 written, {PER_KIND} already", self.driver.find_element(By.ID, "bulk-count").text)
        # The independent client: each unknown_field letter re-driven once, each translated once, none dead again.
        letters = {f"push.dlq:{r.partition()}:{r.offset()}" for r in self.letters
                   if header(r, "__connect.errors.exception.class.name") == "unknown_field"}
        inputs = read_topic(self.broker.address, harness.INPUT_TOPIC, minimum=200 + 1 + PER_KIND)
        redriven = [r for r in inputs if header(r, "pushgate-redriven-from") in letters]
        self.assertEqual(sorted(header(r, "pushgate-redriven-from") for r in redriven), sorted(letters))
        sources = {f"{r.topic()}:{r.partition()}:{r.offset()}" for r in redriven}
        apns = [header(r, "pushgate-source") for r in read_topic(self.broker.address, "push.apns", minimum=PER_KIND + 1)]
        self.assertEqual(sorted(s for s in apns if s in sources), sorted(sources))
        dead_again = [r for r in read_topic(self.broker.address, "push.dlq", minimum=len(self.letters))
                      if f"{header(r, '__connect.errors.topic')}:{header(r, '__connect.errors.partition')}:"
                         f"{header(r, '__connect.errors.offset')}" in sources]
        self.assertEqual(dead_again, [])

    def test_4_records_pushgate_did_not_write_are_shown_as_such(self):
        producer = Producer({"bootstrap.servers": self.broker.address})
        producer.produce("push.dlq", b"\xff\xfe\x00binary", key=None, partition=0)
        producer.produce("push.dlq", b"x" * 300_000, key=b"big", partition=1, headers=[("origin", b"elsewhere")])
        assert producer.flush(30) == 0
        self.show(stage="none")
        self.wait(lambda d: d.find_element(By.ID, "summary").get_attribute("data-matching") == "2", timeout=30,
                  what="the two foreign records")
        items = self.driver.find_elements(By.CSS_SELECTOR, "#letters li.foreign")
        self.assertEqual(len(items), 2)
        texts = " ".join(i.text for i in items)
        self.assertIn("binary value", texts)
        self.assertIn("300000 bytes", texts)
        for index in range(2):
            item = self.driver.find_elements(By.CSS_SELECTOR, "#letters li.foreign")[index]
            wanted = f"{item.get_attribute('data-partition')}/{item.get_attribute('data-offset')}"
            large = "300000 bytes" in item.text
            item.click()
            self.wait(lambda d: self.js("return window.openedLetter") == wanted, what="a foreign record")
            self.assertIn("not written by pushgate", self.driver.find_element(By.ID, "letter-facts").text)
            if large:  # the whole value, though the list carries only its first 64 KiB
                self.assertEqual(self.js("return editor.value"), "x" * 300_000)
            else:  # bytes that are not UTF-8, each shown as U+FFFD
                self.assertEqual(self.js("return editor.value"), "\ufffd\ufffd\x00binary")
                self.assertIn("binary value", self.driver.find_element(By.ID, "letter-facts").text)
        severe = [e for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]
        self.assertEqual(severe, [])

    def test_5_the_token_rule(self):
        status, _ = self.api("/api/dead-letters", token=None)
        self.assertEqual(status, 401)
        status, _ = self.api("/api/dead-letters", token=TOKEN[:-1] + "x")
        self.assertEqual(status, 401)
        status, body = self.api("/api/dead-letters?code=wrong_type&limit=5")
        self.assertEqual(status, 200)
        answer = json.loads(body)
        self.assertEqual(answer["counts"]["wrong_type"], PER_KIND)
        self.assertEqual(len(answer["letters"]), 5)
        status, _ = self.api("/api/redrive", token=None, body=b'{"letters":[]}')
        self.assertEqual(status, 401)
        with urllib.request.urlopen(self.url, timeout=10) as page:
            self.assertEqual(page.status, 200)
        refused = subprocess.run([PUSHGATE, "console", "--host", "0.0.0.0", "--bootstrap-servers",
                                  self.broker.address], capture_output=True, text=True, timeout=30)
        self.assertEqual(refused.returncode, 64)
        self.assertIn("give --token-file", refused.stderr)

    def test_7_no_payload_text_in_the_consoles_log(self):
        self.console_log.flush()
        with open(self.console_log.name) as handle:
            log = handle.read()
        self.assertIn("console: http://127.0.0.1:", log)  # the log is the console's, and it was written
        for text in ["not a url", "colour", "Sale 1", "shop.example.com", "Today only", "binary", "xxxxxxxx"]:
            self.assertNotIn(text, log)

    def test_6_a_cluster_that_goes_away_shows_a_banner(self):
        self.broker.control("down 1")
        try:
            self.wait(lambda d: d.find_element(By.ID, "banner").is_displayed(), timeout=30, what="the banner")
            self.assertIn("does not answer", self.driver.find_element(By.ID, "banner").text)
            self.shot("console-cluster-away")
        finally:
            self.broker.control("up 1")
        self.wait(lambda d: not d.find_element(By.ID, "banner").is_displayed(), timeout=60, what="the banner to go")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--pushgate", default=PUSHGATE)
    parser.add_argument("--screenshots", default=SHOTS)
    args, rest = parser.parse_known_args()
    PUSHGATE, SHOTS = args.pushgate, args.screenshots
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
