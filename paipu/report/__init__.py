"""The dispute report: one self-contained HTML page per game.

:func:`render_report` turns a :class:`schema.reader.GameLog` into the page: the
model comes from :func:`paipu.report.model.build_model` (the audit, its
derivation records and the replay), and Jinja2 templates under
``paipu/report/templates/`` render it with inline CSS, JavaScript and SVG tile
pictures, so the file loads nothing from anywhere and can be mailed or attached
to a ticket.  Its Chinese renders on any machine: the page embeds the glyphs it
shows (a WOFF2 subset of Noto Sans CJK SC, :mod:`paipu.report.fonts`), and every
Chinese run is marked ``lang="zh-Hans"`` in a page that is ``lang="en"``.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from schema.reader import GameLog

from .fonts import page_font
from .model import build_model
from .tiles import symbols

_TOKEN = re.compile(r"\[([1-9][mpsz])\]")


def _tile_html(name: str) -> str:
    return (f'<span class="tile" data-tile="{name}" title="{name}"><svg viewBox="0 0 30 40">'
            f'<use href="#t-{name}"></use></svg></span>')


def tiles_filter(text: Any) -> Markup:
    """Jinja filter: escape ``text`` and draw its ``[5m]`` tokens as tile pictures."""
    return Markup(_TOKEN.sub(lambda m: _tile_html(m.group(1)), str(escape(str(text)))))


def hand_filter(picture: dict) -> Markup:
    """Jinja filter: a derivation's hand picture (concealed tiles, then melds) as tiles."""
    if not picture.get("tiles") and not picture.get("melds"):
        return Markup(escape(picture.get("text", "")))
    parts = ['<span class="inline">'] + [_tile_html(t) for t in picture["tiles"]]
    for kind, ts in picture["melds"]:
        parts.append(f' <span class="meld" data-kind="{escape(kind)}">' + "".join(_tile_html(t) for t in ts) +
                     f'<span class="kind">{escape(kind.replace("_", " "))}</span></span>')
    parts.append("</span>")
    return Markup("".join(parts))


@lru_cache(maxsize=1)
def _environment():
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    env = Environment(loader=PackageLoader("paipu.report", "templates"),
                      autoescape=select_autoescape(["html", "j2"], default=True),
                      undefined=StrictUndefined, trim_blocks=False, lstrip_blocks=False)
    env.filters["tiles"] = tiles_filter
    env.filters["hand"] = hand_filter
    return env


@lru_cache(maxsize=2)
def _asset(name: str) -> Markup:
    """A stylesheet or script from the templates folder, inlined as is (not a template)."""
    from importlib.resources import files

    return Markup(files("paipu.report").joinpath("templates", name).read_text(encoding="utf-8"))


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("paipu")
    except PackageNotFoundError:  # pragma: no cover - an uninstalled checkout
        return "unknown"


def page_data(model: dict) -> dict:
    """The part of the model the page's script reads (frames, hands, findings, wild tiles)."""
    return {
        "frames": model["frames"],
        # each hand's wild kinds where its family names them (a turned indicator's wild)
        "hands": [{"hand": h["hand"], "first": h["first"], "last": h["last"],
                   "wilds": [t for p in h["particulars"] if p["wild"] for t in p["tiles"]]} for h in model["hands"]],
        "findings": [{k: f[k] for k in ("code", "zh", "en", "rule", "message", "seat", "frame", "seq")}
                     for f in model["findings"]],
        "wilds": model["room"]["wilds"],
    }


def render_html(model: dict) -> str:
    """The page for a model from :func:`build_model`."""
    players = [p["name"] for p in model["room"]["players"]]

    def name(seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(players):
            return players[seat]
        return "?" if seat is None else f"seat {seat}"

    template = _environment().get_template("report.html.j2")
    settled = {h["hand"] for h in model["hands"] if h["settlement"] is not None}
    data = page_data(model)
    page = template.render(**model, data=data, settled=settled, symbols=Markup(symbols()), version=_version(),
                           name=name, css=_asset("report.css"), js=_asset("report.js"))
    page = mark_chinese(page)
    # the glyphs of every Chinese character the page shows, its script's data included
    shown = page + json.dumps(data, ensure_ascii=False)
    return page.replace(FONT_MARK, page_font(shown), 1)


#: Where the page's ``@font-face`` goes (in its stylesheet).
FONT_MARK = "/* paipu: the embedded CJK font */"

_SKIP = re.compile(r"(<script\b.*?</script>|<style\b.*?</style>|<title>.*?</title>|<svg\b.*?</svg>|<[^>]*>)",
                   re.S | re.I)
_HAN = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
#: a Chinese run: Chinese characters, and the spaces, dots and slashes between two of them
_HAN_RUN = re.compile(f"[{_HAN}]+(?:[ ·/]+[{_HAN}]+)*")


def mark_chinese(page: str) -> str:
    """``page`` with each run of Chinese in its text marked ``<span lang="zh-Hans">`` (the page
    itself is ``lang="en"``), outside scripts, styles, the title, pictures and tags."""
    parts = _SKIP.split(page)
    for i in range(0, len(parts), 2):  # the text between tags
        parts[i] = _HAN_RUN.sub(lambda m: f'<span lang="zh-Hans">{m.group(0)}</span>', parts[i])
    return "".join(parts)


def render_report(log: GameLog) -> tuple[str, dict]:
    """One game's report page and the model it shows."""
    model = build_model(log)
    return render_html(model), model


__all__ = ["FONT_MARK", "build_model", "hand_filter", "mark_chinese", "page_data", "render_html", "render_report",
           "tiles_filter"]
