"""The playground page in headless Chromium (Selenium): `pushgate playground --port 0` driven with one payload
per format and invalid ones; previews and problem lists checked against the output bytes and `pushgate
translate`; screenshots in .build/playground-screenshots/. Usage: test_playground.py [--pushgate PATH]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time
import unittest

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

PUSHGATE = ".build/debug/pushgate"
SHOTS = ".build/playground-screenshots"


def raw_values(jsonl):
    """The exact `value` text of each line of `pushgate translate` (dead letters: None). Every string before
    "value" is JSON-escaped, so the first unescaped ,"value": is the member."""
    return [None if '"format":null' in line else line[line.index(',"value":') + len(',"value":'):-1]
            for line in jsonl.splitlines()]


class PlaygroundPageTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = subprocess.Popen([PUSHGATE, "playground", "--port", "0"], stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True)
        line = cls.server.stdout.readline()
        match = re.search(r"port (\d+)", line)
        if not match:
            cls.server.kill()
            raise RuntimeError("pushgate playground did not print its port: %r" % line)
        cls.url = "http://127.0.0.1:%s/" % match.group(1)
        options = webdriver.ChromeOptions()
        for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--window-size=1400,1000", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]:
            options.add_argument(arg)
        if os.path.exists("/usr/bin/chromium"):
            options.binary_location = "/usr/bin/chromium"
        driver_path = "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None
        cls.driver = webdriver.Chrome(service=Service(driver_path) if driver_path else Service(), options=options)
        cls.driver.set_page_load_timeout(20)
        cls.driver.set_script_timeout(20)
        cls.driver.get(cls.url)
        cls.wait_rendered(cls)
        os.makedirs(SHOTS, exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.terminate()
        cls.server.wait(timeout=10)

    def wait_rendered(self):
        """Waits until the page shows the answer to what is in the editor and options now."""
        WebDriverWait(self.driver, 15).until(lambda d: d.execute_script(
            "return typeof request === 'function' && window.renderedRequest === JSON.stringify(request())"))

    def set_payload(self, text, fcm=False, lenient=False):
        d = self.driver
        for box, wanted in (("fmt-fcm", fcm), ("lenient", lenient)):
            if d.find_element(By.ID, box).is_selected() != wanted:
                d.find_element(By.ID, box).click()
        d.execute_script("const e = document.getElementById('payload'); e.value = arguments[0];"
                         "e.dispatchEvent(new Event('input'))", text)
        self.wait_rendered()

    def pick_example(self, example_id, fcm=False):
        d = self.driver
        if d.find_element(By.ID, "fmt-fcm").is_selected() != fcm:
            d.find_element(By.ID, "fmt-fcm").click()
        d.execute_script("const s = document.getElementById('example');"
                         "s.value = [...s.options].find(o => o.textContent === arguments[0]).value;"
                         "s.dispatchEvent(new Event('change'))", example_id)
        self.wait_rendered()

    def texts(self, css, root=None):
        return [e.text for e in (root or self.driver).find_elements(By.CSS_SELECTOR, css)]

    def record(self, fmt):
        found = self.driver.find_elements(By.CSS_SELECTOR, 'article.record[data-format="%s"]' % fmt)
        self.assertEqual(len(found), 1, "one %s record" % fmt)
        return found[0]

    def shown_value(self, fmt):
        return json.loads(self.record(fmt).find_element(By.CSS_SELECTOR, "pre.value").text)

    def fact(self, root, name):
        facts = root.find_elements(By.CSS_SELECTOR, '[data-fact="%s"]' % name)
        return facts[0].text.split(" ", len(name.split(" ")))[-1] if facts else None

    def assert_same_as_translate(self, fcm=False, lenient=False):
        """The value bytes on the page are those `pushgate translate` writes for the editor's text."""
        text = self.driver.execute_script("return document.getElementById('payload').value")
        args = [PUSHGATE, "translate", "--android-formats", "android-expandable,fcm" if fcm else "android-expandable"]
        timestamp = self.driver.execute_script("return document.getElementById('timestamp').value").strip()
        if timestamp:
            args.append("--record-timestamp=" + timestamp)
        out = subprocess.run(args + (["--lenient"] if lenient else []), input=text, capture_output=True,
                             text=True, timeout=20).stdout
        shown = [None if "dead-letter" in e.get_attribute("class") else e.find_element(By.CSS_SELECTOR, "pre.value").text
                 for e in self.driver.find_elements(By.CSS_SELECTOR, "article.record")]
        self.assertEqual(shown, raw_values(out))

    def shot(self, name):
        self.driver.save_screenshot(os.path.join(SHOTS, name + ".png"))

    def test_apns_banner_from_the_output(self):
        self.pick_example("order-2")
        self.shot("apns")
        apns = self.record("apns")
        value = self.shown_value("apns")
        alert = value["aps"]["alert"]
        self.assertEqual(self.texts(".preview-apns .banner .title", apns), [alert["title"]])
        self.assertEqual(self.texts(".preview-apns .banner .text", apns), [alert["body"]])
        self.assertEqual(self.texts(".preview-apns .buttons .button", apns),
                         [a["name"] for a in value["category-actions"]])
        self.assertEqual(self.texts(".preview-apns .buttons .button", apns), ["Track", "Call us"])
        self.assertEqual(self.fact(apns, "thread"), "orders")
        self.assertIn(["apns-collapse-id", "order-1234"],
                      [[c.text for c in r.find_elements(By.TAG_NAME, "td")] for r in apns.find_elements(By.CSS_SELECTOR, "table.headers tr")])
        self.pick_example("welcome-1")
        apns = self.record("apns")
        self.assertEqual(self.texts(".badge-count", apns), ["1"])
        self.assertEqual(self.fact(apns, "sound"), "default")
        self.assert_same_as_translate()

    def test_adobe_carousel_items_in_order(self):
        self.pick_example("sale-3")
        self.shot("adobe-carousel")
        car = self.record("adobe-carousel")
        value = self.shown_value("adobe-carousel")
        items = car.find_elements(By.CSS_SELECTOR, ".strip .item")
        self.assertEqual([i.find_element(By.CSS_SELECTOR, ".txt").text for i in items],
                         [item.get("txt", "") for item in value["adb_items"]])
        self.assertEqual([i.find_element(By.CSS_SELECTOR, ".txt").text for i in items], ["Lisbon", "Nice", ""])
        # Offline the images cannot load: each placeholder names its URL, in order.
        self.assertEqual(self.texts(".strip .img-ph", car), ["image: " + item["img"] for item in value["adb_items"]])
        self.assertEqual(self.fact(car, "mode"), "manual")
        self.assertEqual(self.fact(car, "layout"), "default")
        bg = car.find_element(By.CSS_SELECTOR, ".carousel").value_of_css_property("background-color")
        self.assertEqual(bg, "rgba(250, 250, 250, 1)")
        self.assert_same_as_translate()

    def test_facebook_card_styles_from_the_output(self):
        self.pick_example("promo-4")
        self.shot("fb-card")
        card = self.record("fb-card")
        value = self.shown_value("fb-card")["fb_push_card"]
        box = card.find_element(By.CSS_SELECTOR, ".fb-card")
        self.assertEqual(box.get_attribute("data-size"), value["size"])
        self.assertEqual(box.value_of_css_property("border-top-left-radius"), "16px")
        buttons = card.find_elements(By.CSS_SELECTOR, ".fb-button")
        self.assertEqual([b.text for b in buttons], [a["content"]["text"] for a in value["actions"]["actions"]])
        self.assertEqual(buttons[0].value_of_css_property("background-color"), "rgba(105, 2, 0, 1)")
        self.assertEqual(buttons[1].find_element(By.CSS_SELECTOR, ".styled").value_of_css_property("color"), "rgba(0, 0, 0, 1)")
        body = card.find_element(By.CSS_SELECTOR, ".fb-body .styled")
        self.assertEqual(body.text, value["body"]["content"]["text"])
        self.assertEqual(body.value_of_css_property("color"), "rgba(51, 37, 31, 1)")
        self.assertEqual(body.value_of_css_property("font-size"), "14px")
        self.assertEqual(body.value_of_css_property("text-align"), "left")
        backdrop = card.find_element(By.CSS_SELECTOR, ".fb-backdrop").value_of_css_property("background-color")
        self.assertEqual(backdrop, "rgba(51, 45, 45, 0.94)")
        self.assertEqual(self.fact(card, "campaign"), "3")
        self.assert_same_as_translate()

    def test_android_expandable_and_fcm(self):
        self.pick_example("order-2", fcm=True)
        self.shot("android-expandable")
        android = self.record("android-expandable")
        alert = self.shown_value("android-expandable")["alert"]
        self.assertEqual(self.texts(".expanded .title", android), [alert["subject"]])
        self.assertEqual(self.texts(".expanded .bigtext", android), [alert["expandable"]["value"]])
        self.assertEqual(self.texts(".expanded .action", android), ["TRACK", "CALL US"])
        self.assert_same_as_translate(fcm=True)
        self.pick_example("android-8", fcm=True)
        self.shot("fcm")
        fcm = self.record("fcm")
        n = self.shown_value("fcm")["message"]["android"]["notification"]
        self.assertEqual(self.texts(".title", fcm), [n["title"]])
        self.assertEqual(self.texts(".shade .text", fcm), [n["body"]])
        self.assertEqual(self.fact(fcm, "channel"), "orders")
        self.assertEqual(self.fact(fcm, "icon"), "ic_stat_order")
        self.assertEqual(self.fact(fcm, "LED"), "rgb(255, 128, 0)")
        self.assert_same_as_translate(fcm=True)

    def iso(self, seconds):
        return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(seconds))

    def set_timestamp(self, text):
        self.driver.execute_script("const e = document.getElementById('timestamp'); e.value = arguments[0];"
                                   "e.dispatchEvent(new Event('input'))", text)
        self.wait_rendered()

    def test_live_activity_on_the_lock_screen_from_the_output(self):
        self.pick_example("match-9")
        # The record's time is the activity's default timestamp: fixed, to compare with `pushgate translate`.
        self.set_timestamp("1798758000000")
        self.addCleanup(self.set_timestamp, "")
        apns = self.record("apns")
        aps = self.shown_value("apns")["aps"]
        headers = dict([c.text for c in r.find_elements(By.TAG_NAME, "td")]
                       for r in apns.find_elements(By.CSS_SELECTOR, "table.headers tr"))
        self.assertEqual(headers["apns-push-type"], "liveactivity")
        preview = apns.find_element(By.CSS_SELECTOR, ".preview-live-activity")
        self.assertEqual(self.texts(".la-alert .title", preview), [aps["alert"]["title"]])
        self.assertEqual(self.texts(".la-alert .text", preview), [aps["alert"]["body"]])
        self.assertEqual(self.fact(preview, "sound"), aps["alert"]["sound"])
        self.assertEqual(self.texts(".la-event", preview), ["updated"])
        rows = preview.find_elements(By.CSS_SELECTOR, '.la-fields[data-kind="content-state"] tr')
        self.assertEqual([r.get_attribute("data-name") for r in rows], list(aps["content-state"]))
        self.assertEqual([r.find_elements(By.TAG_NAME, "td")[1].text for r in rows],
                         ["2", "1", "78", "\u201cGoal\u201d", "\u201cOkafor\u201d"])
        self.assertEqual(self.fact(preview, "stale"), self.iso(aps["stale-date"]))
        self.assertEqual(self.fact(preview, "timestamp"), self.iso(1798758000))
        self.assertEqual(self.fact(preview, "relevance"), "75")
        self.assertEqual(self.texts(".preview-apns", apns), [])
        apns.screenshot(os.path.join(SHOTS, "live-activity.png"))
        self.assert_same_as_translate()

    def test_live_activity_start_and_end(self):
        self.set_payload('{"platform":{"android":false},"message":{"title":"Kick-off","body":"Lions vs Tigers"},'
                         '"live_activity":{"event":"start","timestamp":1798758000,"content_state":{"minute":0},'
                         '"attributes_type":"MatchAttributes","attributes":{"homeTeam":"Lions"},"input_push_token":true}}')
        preview = self.record("apns").find_element(By.CSS_SELECTOR, ".preview-live-activity")
        self.assertEqual(self.texts(".la-event", preview), ["started"])
        self.assertEqual(self.texts(".la-activity .app span", preview)[0], "MatchAttributes")
        self.assertEqual(self.texts('.la-fields[data-kind="attributes"] td', preview), ["homeTeam", "\u201cLions\u201d"])
        self.assertEqual(self.fact(preview, "asks for push token"), "yes")
        self.set_payload('{"platform":{"android":false},"live_activity":{"event":"end","timestamp":1798758000,'
                         '"stale_date":1798758000,"dismissal_date":1798761600}}')
        preview = self.record("apns").find_element(By.CSS_SELECTOR, ".preview-live-activity")
        self.assertEqual(self.texts(".la-event", preview), ["ended"])
        self.assertEqual(self.texts(".la-no-alert", preview), ["no alert: the activity changes quietly"])
        self.assertEqual(self.texts(".la-ending", preview), ["leaves the lock screen at " + self.iso(1798761600)])
        self.assertEqual(self.texts(".la-stale", preview), ["shown as out of date"])
        self.assertEqual(self.fact(preview, "dismissal"), self.iso(1798761600))
    def test_webpush_browser_notification_from_the_output(self):
        self.pick_example("web-9")
        self.shot("webpush")
        web = self.record("webpush")
        value = self.shown_value("webpush")
        n = value["notification"]
        self.assertEqual(value["web_push"], 8030)
        self.assertEqual(self.texts(".web-notification .title", web), [n["title"]])
        self.assertEqual(self.texts(".web-notification .text", web), [n["body"]])
        self.assertEqual(self.texts(".web-site", web), ["shop.example"])
        self.assertEqual(self.texts(".web-opens", web), ["opens " + n["navigate"]])
        self.assertEqual(self.texts(".web-action", web), [a["title"] for a in n["actions"]])
        self.assertEqual(self.texts(".web-action", web), ["View jacket", "My list"])
        self.assertEqual([e.get_attribute("data-navigate") for e in web.find_elements(By.CSS_SELECTOR, ".web-action")],
                         [a["navigate"] for a in n["actions"]])
        self.assertEqual(self.texts(".web-icon .img-ph", web), ["image: " + n["icon"]])
        self.assertEqual(self.texts(".web-badge", web), ["1"])
        self.assertEqual(web.find_element(By.CSS_SELECTOR, ".web-notification .title").get_attribute("lang"), "en")
        self.assertEqual(self.fact(web, "tag"), "price-drop-17")
        self.assertIn(["webpush-topic", "jacket-17-price"],
                      [[c.text for c in r.find_elements(By.TAG_NAME, "td")] for r in web.find_elements(By.CSS_SELECTOR, "table.headers tr")])
        self.assert_same_as_translate()
        self.set_payload('{"platform":{"web":true,"android":false},"message":{"title":"T","body":"B"},'
                         '"web":{"navigate":"https://news.example/a","dir":"rtl"},'
                         '"actions":[{"type":"dial","name":"Call","value":"1"}]}')
        web = self.record("webpush")
        self.assertEqual(self.texts(".web-site", web), ["news.example"])
        self.assertEqual(self.texts(".web-action", web), [])
        self.assertEqual(web.find_element(By.CSS_SELECTOR, ".web-notification .text").get_attribute("dir"), "rtl")
        self.assertIn("unsupported_action", web.text)
        self.assert_same_as_translate()

    def test_big_picture_and_image_placeholders(self):
        self.set_payload('{"platform":{"ios":false},"message":{"title":"T","body":"B"},"expandable":{"type":"image",'
                         '"value":"https://img.example.com/p.jpg"},"actions":[{"type":"openApp","name":"Open"}]}')
        android = self.record("android-expandable")
        self.assertEqual(self.texts(".expanded .bigpic .img-ph", android), ["image: https://img.example.com/p.jpg"])
        self.assertEqual(self.texts(".expanded .action", android), ["OPEN"])

    def test_dead_letter_problems_link_to_the_editor(self):
        self.pick_example("broken-6")
        self.assertEqual(self.texts("article.record .badge"), ["dead letter"])
        problems = self.driver.find_elements(By.CSS_SELECTOR, "ul.problems li.problem")
        self.assertEqual([(p.get_attribute("data-code"), p.get_attribute("data-path")) for p in problems], [
            ("invalid_color", "/custom/android_led_color"), ("out_of_range", "/custom/ios_badge"),
            ("out_of_range", "/message/body"), ("wrong_type", "/message/ttl")])
        for problem, marked in zip(problems, ['"red"', "-1", '""', '"soon"']):
            problem.find_element(By.CSS_SELECTOR, "a.path").click()
            info = self.driver.find_element(By.ID, "highlight-info")
            self.assertEqual(info.get_attribute("data-pointer"), problem.get_attribute("data-path"))
            self.assertEqual(self.texts("#backdrop mark"), [marked])
            selected = self.driver.execute_script(
                "const e = document.getElementById('payload'); return e.value.slice(e.selectionStart, e.selectionEnd)")
            self.assertEqual(selected, marked)
        problems[1].find_element(By.CSS_SELECTOR, "a.path").click()
        self.shot("dead-letter")
        self.assert_same_as_translate()

    def test_typed_payload_is_translated_and_warnings_link_too(self):
        editor = self.driver.find_element(By.ID, "payload")
        self.set_payload("")
        editor.send_keys('{"message":{"body":"typed here"},"extra":{"deep":[1,2]}}')
        self.wait_rendered()
        dead = self.driver.find_elements(By.CSS_SELECTOR, "article.dead-letter li.problem")
        self.assertEqual([p.get_attribute("data-code") for p in dead], ["unknown_field"])
        self.assertEqual(self.texts("article.dead-letter li.problem .message"),
                         ["unknown field in the payload; remove it or check its spelling"])
        self.set_payload(editor.get_attribute("value"), lenient=True)
        warnings = self.driver.find_elements(By.CSS_SELECTOR, 'article[data-format="apns"] li.warning')
        self.assertEqual([(w.get_attribute("data-code"), w.get_attribute("data-path")) for w in warnings],
                         [("unknown_field", "/extra")])
        warnings[0].click()
        self.assertEqual(self.texts("#backdrop mark.warning"), ['{"deep":[1,2]}'])
        self.assertEqual(self.texts(".preview-apns .banner .text"), ["typed here"])
        self.shot("warning")
        self.assert_same_as_translate(lenient=True)

    def test_version_4_topic_and_port_problems_point_into_the_editor(self):
        self.set_payload('{"platform":{"web":true,"ios":false,"android":false},"message":{"title":"T"},'
                         '"web":{"navigate":"https://shop.example.com:99999/p","topic":"spike"}}')
        problems = self.driver.find_elements(By.CSS_SELECTOR, "article.dead-letter li.problem")
        self.assertEqual([(p.get_attribute("data-code"), p.get_attribute("data-path")) for p in problems],
                         [("invalid_url", "/web/navigate"), ("invalid_value", "/web/topic")])
        for problem, marked in zip(problems, ['"https://shop.example.com:99999/p"', '"spike"']):
            problem.find_element(By.CSS_SELECTOR, "a.path").click()
            self.assertEqual(self.driver.find_element(By.ID, "highlight-info").get_attribute("data-pointer"),
                             problem.get_attribute("data-path"))
            self.assertEqual(self.texts("#backdrop mark"), [marked])
        self.assert_same_as_translate()

    def test_refused_request_shows_the_message(self):
        self.set_payload('{"message":{"body":"x"}}')
        offset = self.driver.find_element(By.ID, "offset")
        offset.clear()
        offset.send_keys("-3")
        self.wait_rendered()
        error = self.driver.find_element(By.ID, "request-error")
        self.assertTrue(error.is_displayed())
        self.assertEqual(error.text, "HTTP 400: record.offset must be 0 or more")
        self.assertEqual(self.texts("article.record"), [])
        offset.clear()
        offset.send_keys("7")
        self.wait_rendered()
        self.assertFalse(error.is_displayed())
        headers = [[c.text for c in r.find_elements(By.TAG_NAME, "td")]
                   for r in self.record("apns").find_elements(By.CSS_SELECTOR, "table.headers tr")]
        self.assertIn(["pushgate-source", "push.unified:0:7"], headers)

    def test_emit_dead_letter_names_its_format(self):
        self.set_payload('{"message":{"title":"T","body":"B"},"data":{"aps":1}}')
        self.assertEqual(self.texts("article.record .badge"), ["android-expandable", "dead letter"])
        self.assertEqual(self.texts("article.dead-letter .dead-format"), ["stage emit, format apns"])
        problem = self.driver.find_element(By.CSS_SELECTOR, "article.dead-letter li.problem")
        self.assertEqual((problem.get_attribute("data-code"), problem.get_attribute("data-path")), ("reserved_key", "/data/aps"))
        problem.click()
        self.assertEqual(self.texts("#backdrop mark"), ["1"])

    def test_missing_member_highlights_its_object_and_invalid_json_the_whole_text(self):
        self.set_payload('{"message":{"title":"no body"},"carousel":{"items":[{"image":"https://x.example/a.jpg"}]}}')
        paths = [p.get_attribute("data-path") for p in self.driver.find_elements(By.CSS_SELECTOR, "li.problem")]
        self.assertIn("/carousel/items", paths)
        self.driver.find_element(By.CSS_SELECTOR, 'li.problem[data-path="/carousel/items"] a.path').click()
        self.assertEqual(self.texts("#backdrop mark"), ['[{"image":"https://x.example/a.jpg"}]'])
        self.set_payload('{"message": {"body": "duplicate", "body": "keys"}}')
        problem = self.driver.find_element(By.CSS_SELECTOR, "li.problem")
        self.assertEqual(problem.get_attribute("data-code"), "invalid_json")
        self.assertIn("at byte 34", problem.get_attribute("data-message"))
        problem.click()
        # A whole-payload problem naming a byte marks the token there: the duplicate member name.
        self.assertEqual(self.texts("#backdrop mark"), ['"body"'])
        self.assertEqual(self.driver.execute_script("return document.getElementById('payload').selectionStart"), 34)
        self.set_payload('{"é": [1, }')
        problem = self.driver.find_element(By.CSS_SELECTOR, "li.problem")
        self.assertIn("at byte 11", problem.get_attribute("data-message"))
        problem.click()
        self.assertEqual(self.texts("#backdrop mark"), ["}"])
        self.set_payload('[1]')
        problem = self.driver.find_element(By.CSS_SELECTOR, "li.problem")
        self.assertEqual(problem.get_attribute("data-code"), "not_an_object")
        problem.click()
        self.assertEqual(self.texts("#backdrop mark"), ["[1]"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--pushgate", default=PUSHGATE)
    args, rest = parser.parse_known_args()
    PUSHGATE = os.path.abspath(args.pushgate)
    started = time.time()
    result = unittest.main(argv=[sys.argv[0]] + rest, exit=False).result
    print("playground browser tests: %.1f s, screenshots in %s" % (time.time() - started, SHOTS))
    sys.exit(0 if result.wasSuccessful() else 1)
