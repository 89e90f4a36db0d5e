"""The report renders its Chinese anywhere: it embeds the glyphs it shows (a WOFF2 subset of
the committed Noto Sans CJK SC pre-subset), marks Chinese runs ``lang="zh-Hans"`` in an
English page, and shows players words, not the replay's or the audit's internals.

The browser test hides every system CJK font from headless Chromium (a private fontconfig
that knows only DejaVu) and asks Chromium which font drew the Chinese.
"""

from __future__ import annotations

import base64
import io
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from paipu.report import FONT_MARK, mark_chinese, render_report
from paipu.report.fonts import CJK, FAMILY, covered, font_bytes
from paipu.report.fonts.make_font import paipu_characters
from schema.reader import read_games

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_logs"
LONGEST = max(SAMPLES.rglob("*.jsonl"), key=lambda p: p.stat().st_size)


def _page(path: Path) -> tuple[str, dict]:
    (log,), _ = read_games([str(path)])
    return render_report(log)


def _embedded(page: str) -> TTFont:
    m = re.search(r"src: url\(data:font/woff2;base64,([A-Za-z0-9+/=]+)\)", page)
    assert m, "no embedded font"
    return TTFont(io.BytesIO(base64.b64decode(m.group(1))))


class _Text(HTMLParser):
    """The page's text runs outside scripts, styles and the title, each with its nearest lang."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, str]] = []
        self.runs: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        lang = dict(attrs).get("lang") or (self.stack[-1][1] if self.stack else "")
        if tag not in ("meta", "link", "br", "input", "img", "hr", "wbr"):
            self.stack.append((tag, lang))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if data.strip() and not any(t in ("script", "style", "title") for t, _ in self.stack):
            self.runs.append((data, self.stack[-1][1] if self.stack else ""))


# --- the committed font and each page's subset ------------------------------------------------


def test_the_committed_font_covers_every_chinese_character_of_paipus_texts():
    missing = paipu_characters() - covered()
    assert not missing, f"rerun python -m paipu.report.fonts.make_font: {''.join(sorted(missing))}"
    assert len(font_bytes()) < 120_000  # a pre-subset, not the whole font


def test_a_page_embeds_only_the_glyphs_it_shows():
    page, _ = _page(SAMPLES / "faulty" / "dianji_wrong_amount.jsonl")
    font = _embedded(page)
    assert font.flavor == "woff2" and f"font-family: '{FAMILY}'" in page and FONT_MARK not in page
    have = {chr(c) for c in font.getBestCmap()}
    shown = set(CJK.findall(page))  # the page's text and its script (the frames' words)
    data = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S).group(1)
    shown |= {chr(int(h, 16)) for h in re.findall(r"\\u([0-9a-fA-F]{4})", data) if CJK.match(chr(int(h, 16)))}
    assert shown & covered() <= have  # every character the page shows that paipu has a glyph for
    assert have <= shown and len(have) < len(covered())  # and no other
    assert "Adobe" in font["name"].getDebugName(0) and "Open Font License" in font["name"].getDebugName(13)


def test_the_longest_samples_report_stays_under_a_megabyte():
    page, _ = _page(LONGEST)
    assert len(page.encode("utf-8")) < 1_000_000


# --- lang and words ----------------------------------------------------------------------------


def test_chinese_runs_are_marked_and_the_page_is_english():
    page, _ = _page(SAMPLES / "faulty" / "dianji_wrong_amount.jsonl")
    assert re.search(r'<html lang="en">', page)
    parser = _Text()
    parser.feed(page)
    chinese = [(t, lang) for t, lang in parser.runs if CJK.search(t)]
    assert chinese and all(lang == "zh-Hans" for _, lang in chinese)
    english = [(t, lang) for t, lang in parser.runs if re.search("[A-Za-z]{3}", t) and not CJK.search(t)]
    assert english and all(lang == "en" for _, lang in english)
    # near miss: a run left unmarked is seen
    assert mark_chinese("<p>Rule: 点鸡 chickens</p>") == '<p>Rule: <span lang="zh-Hans">点鸡</span> chickens</p>'
    assert mark_chinese("<script>var a = '东';</script>") == "<script>var a = '东';</script>"


def _visible(page: str) -> str:
    body = re.sub(r"<script.*?</script>|<style.*?</style>|<svg.*?</svg>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def test_the_page_speaks_to_players_not_in_internals():
    page, model = _page(SAMPLES / "faulty" / "dianji_wrong_amount.jsonl")
    text = _visible(page)
    assert "nets per seat" not in text and "->" not in text and "between_hands" not in text
    (f,) = model["findings"]
    players = [p["name"] for p in model["room"]["players"]]
    assert f["expected"].startswith(f"{players[0]} ") and all(p in f["expected"] for p in players)
    # the phase of every replayed moment has words in the page's script
    js = (ROOT / "paipu" / "report" / "templates" / "report.js").read_text(encoding="utf-8")
    phases = set(re.findall(r'\.phase = "([a-z_]+)"', "".join(p.read_text() for p in (ROOT / "replay").glob("*.py"))))
    words = dict(re.findall(r"(\w+): '([^']+)'", re.search(r"var PHASE = \{(.*?)\};", js, re.S).group(1)))
    assert phases and phases <= set(words) and not any("_" in w for w in words.values())


def test_a_sichuan_room_reads_only_its_own_rule_sentence():
    page, model = _page(SAMPLES / "faulty" / "sichuan_kong_payment_wrong.jsonl")
    (f,) = model["findings"]
    assert f["code"] == "KONG_PAYMENT_MISMATCH" and "Guangdong" not in _visible(page)
    assert "刮风下雨" in f["rule"] and "->" not in (f["expected"] + f["actual"])
    # near miss: the catalogue's sentence carries the Guangdong note, and a Guangdong room keeps it
    from audits.catalogue import CATALOGUE
    from paipu.report.model import room_rule

    rule = CATALOGUE["KONG_PAYMENT_MISMATCH"].rule
    assert "Guangdong" in rule and "Sichuan" in rule and "Guangdong" not in room_rule(rule, "sichuan")
    assert "Guangdong" in room_rule(rule, "guangdong") and "Sichuan" not in room_rule(rule, "guangdong")


# --- in a browser with no CJK font of its own ---------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
_FONTS_CONF = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>{dejavu}</dir>
  <cachedir>{cache}</cachedir>
</fontconfig>
"""


@pytest.fixture(scope="module")
def latin_only_browser(tmp_path_factory):
    """Headless Chromium whose fontconfig knows DejaVu only: no system font has a CJK glyph."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (pip install -e '.[test]')")
    if not CHROMIUM or not DRIVER:
        if os.environ.get("PAIPU_REQUIRE_BROWSER") or os.environ.get("CI"):
            pytest.fail("the font test needs headless Chromium (apt-get install chromium chromium-driver)")
        pytest.skip("chromium and chromedriver are not installed")
    dejavu = next((d for d in ("/usr/share/fonts/truetype/dejavu",) if os.path.isdir(d)), None)
    if dejavu is None:
        pytest.skip("DejaVu fonts are not installed (the Latin font of the private fontconfig)")
    d = tmp_path_factory.mktemp("fontconfig")
    conf = d / "fonts.conf"
    conf.write_text(_FONTS_CONF.format(dejavu=dejavu, cache=d / "cache"), encoding="utf-8")
    env = {**os.environ, "FONTCONFIG_FILE": str(conf)}
    opts = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,1200"):
        opts.add_argument(arg)
    opts.binary_location = CHROMIUM
    driver = webdriver.Chrome(service=Service(DRIVER, env=env), options=opts)
    yield driver
    driver.quit()


def _fonts_of_chinese(driver, path: Path) -> list[dict]:
    """For each ``lang="zh-Hans"`` run of the verdict card: the fonts Chromium drew it with."""
    driver.get(path.as_uri())
    driver.execute_script("return document.fonts.ready.then(function () { return true; })")
    driver.execute_cdp_cmd("DOM.enable", {})
    driver.execute_cdp_cmd("CSS.enable", {})
    root = driver.execute_cdp_cmd("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    nodes = driver.execute_cdp_cmd("DOM.querySelectorAll", {"nodeId": root,
                                                            "selector": '#verdict [lang="zh-Hans"]'})["nodeIds"]
    assert nodes
    return [font for n in nodes for font in driver.execute_cdp_cmd("CSS.getPlatformFontsForNode",
                                                                       {"nodeId": n})["fonts"]]


def test_the_chinese_renders_with_the_embedded_font_where_no_system_font_has_it(latin_only_browser, tmp_path):
    page, _ = _page(SAMPLES / "faulty" / "dianji_wrong_amount.jsonl")
    with_font = tmp_path / "with.html"
    with_font.write_text(page, encoding="utf-8")
    fonts = _fonts_of_chinese(latin_only_browser, with_font)
    assert fonts and all(f["isCustomFont"] and f["familyName"].startswith("Noto Sans CJK") for f in fonts), fonts
    # near miss: the same page without the embedded font has nothing to draw the Chinese with
    bare = tmp_path / "bare.html"
    bare.write_text(re.sub(r"@font-face \{[^}]*\}", "", page), encoding="utf-8")
    fonts = _fonts_of_chinese(latin_only_browser, bare)
    assert not any(f["isCustomFont"] or "CJK" in f["familyName"] for f in fonts), fonts


def test_the_font_subset_is_the_same_bytes_each_time_it_is_made(tmp_path, monkeypatch):
    """``make_font`` keeps the source face's timestamp, so regenerating the subset for the same
    characters an hour later leaves the committed file unchanged (no diff without a change)."""
    from fontTools.ttLib.tables import _h_e_a_d

    from paipu.report.fonts import make_font

    if not os.path.exists(make_font.SOURCE):
        pytest.skip(f"the source face is not installed ({make_font.SOURCE})")
    a, b = tmp_path / "a.woff2", tmp_path / "b.woff2"
    now = _h_e_a_d.timestampNow()
    monkeypatch.setattr(_h_e_a_d, "timestampNow", lambda: now)
    make_font.build(out=str(a))
    monkeypatch.setattr(_h_e_a_d, "timestampNow", lambda: now + 3600)  # the clock an hour on
    make_font.build(out=str(b))
    assert a.read_bytes() == b.read_bytes()
