"""The dispute report in a real browser: headless Chromium driven by selenium.

Opens the reports of a clean and a faulty sample and checks: no console error, no
network request (the browser's own request log and resource timing), the arrow
keys step through events, clicking a finding shows its event with the offending
tile marked, and the ledger table matches the audit's JSON.  Screenshots of those
states go to the test's tmp folder; with ``PAIPU_WRITE_DOCS=1`` the README's
screenshot ``docs/report.png`` is rewritten from the faulty report.

Needs Debian's ``chromium`` and ``chromium-driver``.  Without them the tests are
skipped locally and fail in CI (``.ci/run`` sets ``PAIPU_REQUIRE_BROWSER=1``
after installing them).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import msgspec
import pytest
import typer
from typer.testing import CliRunner

from paipu import audit_cmd, report_cmd

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
DOCS = Path(__file__).resolve().parents[2] / "docs"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver")


def _no_browser(why: str) -> None:
    if os.environ.get("PAIPU_REQUIRE_BROWSER") or os.environ.get("CI"):
        pytest.fail(f"the browser test needs headless Chromium: {why}", pytrace=False)
    pytest.skip(why)


@pytest.fixture(scope="module")
def browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _no_browser("selenium is not installed (pip install -e '.[test]')")
    if not CHROMIUM or not DRIVER:
        _no_browser("chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
    opts = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,1700", "--hide-scrollbars"):
        opts.add_argument(arg)
    opts.binary_location = CHROMIUM
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
    yield driver
    driver.quit()


def _app() -> typer.Typer:
    app = typer.Typer()
    report_cmd.register(app)
    audit_cmd.register(app)
    return app


runner = CliRunner()


def _report(log: Path, out: Path) -> Path:
    r = runner.invoke(_app(), ["report", str(log), "-o", str(out)])
    assert r.exit_code in (0, 1), r.output
    return out


def _summary(log: Path) -> dict:
    r = runner.invoke(_app(), ["audit", str(log), "--format", "json"])
    (s,) = [x for x in map(msgspec.json.decode, r.stdout.splitlines()) if x.get("record") == "summary"]
    return s


def _open(driver, page: Path) -> None:
    driver.get_log("browser")  # drop what earlier pages logged
    driver.get_log("performance")
    driver.get(page.as_uri())


def _requests(driver) -> list[str]:
    urls = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    return urls


def _assert_quiet(driver, page: Path) -> None:
    """No console error, and nothing loaded but the page itself (and its embedded font, a data: URL)."""
    errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]
    assert errors == []
    assert driver.execute_script("return performance.getEntriesByType('resource').length") == 0
    assert [u for u in _requests(driver) if u != page.as_uri() and not u.startswith("data:font/woff2;base64,")] == []


def _frame(driver) -> int:
    return int(driver.find_element("id", "viewer").get_attribute("data-frame"))


def _ledger_table(driver) -> list[dict]:
    rows = []
    for tr in driver.find_elements("css selector", "#ledger tbody tr[data-hand]"):
        rows.append({"hand": int(tr.get_attribute("data-hand")),
                     "logged": [int(td.text) for td in tr.find_elements("css selector", "td.logged")],
                     "corrected": [int(td.text) for td in tr.find_elements("css selector", "td.corrected")]})
    return rows


def _press(driver, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def test_a_clean_report_steps_with_the_arrow_keys_and_loads_nothing(browser, tmp_path):
    from selenium.webdriver.common.keys import Keys

    log = SAMPLES / "clean" / "xiaoji_dianji.jsonl"
    page = _report(log, tmp_path / "clean.html")
    _open(browser, page)
    assert browser.find_element("id", "verdict").get_attribute("data-clean") == "true"
    assert _frame(browser) == 0
    browser.execute_script("document.activeElement && document.activeElement.blur()")  # keys go to the page
    _press(browser, Keys.ARROW_RIGHT)
    _press(browser, Keys.ARROW_RIGHT)
    assert _frame(browser) == 2
    text_two = browser.find_element("id", "event").text
    _press(browser, Keys.ARROW_LEFT)
    assert _frame(browser) == 1 and browser.find_element("id", "event").text != text_two
    # down: the first event of the next hand
    _press(browser, Keys.ARROW_DOWN)
    hands = browser.execute_script("return JSON.parse(document.getElementById('report-data').textContent).hands")
    assert len(hands) >= 2 and _frame(browser) == hands[1]["first"]
    assert browser.find_element("css selector", ".hand-tab.current").get_attribute("data-hand") == str(hands[1]["hand"])
    # the four hands are drawn as tile pictures
    for _ in range(20):
        _press(browser, Keys.ARROW_RIGHT)
    tiles = browser.find_elements("css selector", "#seats td.concealed .tile svg use")
    assert len(tiles) >= 4 * 10
    browser.save_screenshot(str(tmp_path / "clean-stepped.png"))
    assert _ledger_table(browser) == [{k: r[k] for k in ("hand", "logged", "corrected")} for r in _summary(log)["ledger"]]
    assert browser.find_element("css selector", "#owes li.none").is_displayed()
    _assert_quiet(browser, page)


def test_clicking_a_finding_shows_its_event_with_the_offending_tile_marked(browser, tmp_path):
    log = SAMPLES / "faulty" / "wrong_fan.jsonl"
    page = _report(log, tmp_path / "faulty.html")
    _open(browser, page)
    browser.save_screenshot(str(tmp_path / "faulty-verdict.png"))
    finding = browser.find_element("css selector", "#finding-0")
    assert finding.get_attribute("data-code") == "FAN_MISMATCH"
    finding.find_element("css selector", "button.goto").click()
    viewer = browser.find_element("id", "viewer")
    assert viewer.get_attribute("data-seq") == finding.get_attribute("data-seq") == "78"
    assert "bad" in browser.find_element("id", "event").get_attribute("class")
    marked = browser.find_elements("css selector", "#seats .tile.bad")
    assert len(marked) == 1 and marked[0].is_displayed()
    # the winning tile of the disputed win, in the discarder's river
    row = marked[0].find_element("xpath", "./ancestor::tr")
    assert row.get_attribute("data-seat") == "2" and marked[0].get_attribute("data-tile") == "5m"
    assert "FAN_MISMATCH" in browser.find_element("id", "frame-findings").text
    browser.save_screenshot(str(tmp_path / "faulty-finding.png"))
    summary = _summary(log)
    assert _ledger_table(browser) == [{k: r[k] for k in ("hand", "logged", "corrected")} for r in summary["ledger"]]
    owes = [(li.get_attribute("data-from"), li.get_attribute("data-to"), li.get_attribute("data-amount"))
            for li in browser.find_elements("css selector", "#owes li.owe")]
    assert owes == [(str(o["from_seat"]), str(o["to_seat"]), str(o["amount"])) for o in summary["owes"]]
    _assert_quiet(browser, page)


def test_a_claim_finding_marks_the_offending_meld(browser, tmp_path):
    log = SAMPLES / "faulty" / "chicken_wild_in_pong.jsonl"
    page = _report(log, tmp_path / "pong.html")
    _open(browser, page)
    browser.find_element("css selector", "li[data-code='CLAIM_WILD_IN_PONG'] button.goto").click()
    meld = browser.find_elements("css selector", "#seats .meld.bad")
    assert len(meld) == 1 and meld[0].get_attribute("data-kind") == "pong"
    assert "1s" in [t.get_attribute("data-tile") for t in meld[0].find_elements("css selector", ".tile")]
    browser.save_screenshot(str(tmp_path / "pong-finding.png"))
    _assert_quiet(browser, page)


def test_a_broken_game_shows_where_it_broke(browser, tmp_path):
    log = SAMPLES / "faulty" / "tiles_not_in_hand.jsonl"
    page = _report(log, tmp_path / "broken.html")
    _open(browser, page)
    banner = browser.find_element("id", "broken")
    assert banner.is_displayed() and "seq 97" in banner.text
    browser.save_screenshot(str(tmp_path / "broken.png"))
    _assert_quiet(browser, page)


def test_the_readme_screenshot(browser, tmp_path, monkeypatch):
    """The README's picture: the faulty sample with players named as a support desk sees them."""
    lines = (SAMPLES / "faulty" / "wrong_fan.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["seats"] = ["老张", "美玲", "阿丽", "小王"]
    (tmp_path / "disputed.jsonl").write_text("\n".join([json.dumps(first, ensure_ascii=False), *lines[1:]]) + "\n",
                                             encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    page = _report(Path("disputed.jsonl"), tmp_path / "named.html")
    _open(browser, page)
    assert "小王 owes 阿丽 2" in browser.find_element("css selector", "#owes").text
    browser.find_element("css selector", "#finding-0 button.goto").click()
    browser.execute_script("window.scrollTo(0, 0)")
    shot = tmp_path / "report.png"
    browser.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    _assert_quiet(browser, page)
    if os.environ.get("PAIPU_WRITE_DOCS"):
        shutil.copy(shot, DOCS / "report.png")


def test_a_xuzhou_page_shows_the_indicator_and_the_pei(browser, tmp_path):
    """A hand's particulars (the family's rows: indicator, 配子, 白板 standing in, dead 配子
    discards) beside its settlement, and the hand's 配子 marked wild on the table."""
    from selenium.webdriver.common.keys import Keys

    log = SAMPLES / "xuzhou" / "clean" / "xz_ex10_dead_pei.jsonl"
    page = _report(log, tmp_path / "xuzhou.html")
    _open(browser, page)
    rows = browser.find_elements("css selector", "#hand-1 dl.particulars dt")
    labels = [dt.text for dt in rows]
    assert labels[:3] == ["indicator 翻牌", "配子 wild", "白板 stands in"] and labels[3].startswith("配子 discarded")
    shown = {dt.text: [t.get_attribute("data-tile") for t in
                       dt.find_element("xpath", "following-sibling::dd[1]").find_elements("css selector", ".tile")]
             for dt in rows}
    assert shown["indicator 翻牌"] == ["4p"] and shown["配子 wild"] == ["5p"] and shown["白板 stands in"] == ["5z"]
    assert rows[0].is_displayed()
    # the table after the deal: the hand's 配子 (5p) are marked wild, no other tile is
    browser.execute_script("document.activeElement && document.activeElement.blur()")
    for _ in range(3):
        _press(browser, Keys.ARROW_RIGHT)
    wild = browser.find_elements("css selector", "#seats .tile.wild")
    assert wild and {t.get_attribute("data-tile") for t in wild} == {"5p"}
    browser.save_screenshot(str(tmp_path / "xuzhou-particulars.png"))
    _assert_quiet(browser, page)
