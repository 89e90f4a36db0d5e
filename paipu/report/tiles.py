"""Tile pictures drawn as inline SVG: one ``<symbol>`` per tile kind, defined once per page.

A page shows a tile as ``<svg viewBox="0 0 30 40"><use href="#t-5m"/></svg>``; the
symbols are plain shapes (circles for 筒, sticks for 条, a bird for 幺鸡, characters
for 万 and the honours), so a report needs no image file and no network request.
"""

from __future__ import annotations

from functools import lru_cache

from schema.tiles import TILE_NAMES

W, H = 30, 40
_FONT = "font-family=\"'paipu CJK','Noto Sans CJK SC','Source Han Sans SC','PingFang SC','Microsoft YaHei'," \
        "'WenQuanYi Zen Hei',sans-serif\""
_NUMERALS = "一二三四五六七八九"
_HONOURS = "东南西北白发中"
_FLOWERS = "春夏秋冬梅兰菊竹"

# dot positions for 筒 (1–9), in a 30×40 face
_DOTS = {
    1: [(15, 20)],
    2: [(15, 11), (15, 29)],
    3: [(8, 9), (15, 20), (22, 31)],
    4: [(9, 11), (21, 11), (9, 29), (21, 29)],
    5: [(9, 10), (21, 10), (15, 20), (9, 30), (21, 30)],
    6: [(10, 8), (20, 8), (10, 20), (20, 20), (10, 32), (20, 32)],
    7: [(7, 7), (15, 11), (23, 15), (10, 24), (20, 24), (10, 33), (20, 33)],
    8: [(10, 6), (20, 6), (10, 15), (20, 15), (10, 25), (20, 25), (10, 34), (20, 34)],
    9: [(7, 8), (15, 8), (23, 8), (7, 20), (15, 20), (23, 20), (7, 32), (15, 32), (23, 32)],
}
# stick centres for 条 (2–9)
_STICKS = {
    2: [(15, 12), (15, 28)],
    3: [(15, 12), (9, 28), (21, 28)],
    4: [(9, 12), (21, 12), (9, 28), (21, 28)],
    5: [(8, 12), (22, 12), (15, 20), (8, 28), (22, 28)],
    6: [(7, 12), (15, 12), (23, 12), (7, 28), (15, 28), (23, 28)],
    7: [(15, 8), (7, 20), (15, 20), (23, 20), (7, 32), (15, 32), (23, 32)],
    8: [(6, 12), (12, 12), (18, 12), (24, 12), (6, 28), (12, 28), (18, 28), (24, 28)],
    9: [(7, 8), (15, 8), (23, 8), (7, 20), (15, 20), (23, 20), (7, 32), (15, 32), (23, 32)],
}


def _face() -> str:
    return ('<rect x="0.75" y="0.75" width="28.5" height="38.5" rx="4" fill="#fbf7ea" stroke="#8c7f66" '
            'stroke-width="1.5"/>')


def _text(x: float, y: float, s: str, size: int, colour: str) -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="middle" fill="{colour}" {_FONT} '
            f'font-weight="700">{s}</text>')


def _dots(n: int) -> str:
    r = 5.5 if n == 1 else 4.2 if n <= 4 else 3.6 if n <= 6 else 3.1
    colours = ("#1d5fa8", "#2e7d32", "#b3261e")
    out = []
    for i, (x, y) in enumerate(_DOTS[n]):
        c = colours[(i + n) % 3] if n > 1 else "#b3261e"
        out.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="none" stroke="{c}" stroke-width="1.6"/>'
                   f'<circle cx="{x}" cy="{y}" r="{r / 2.6:.2f}" fill="{c}"/>')
    return "".join(out)


def _sticks(n: int) -> str:
    h = 12 if n <= 6 else 9
    out = []
    for i, (x, y) in enumerate(_STICKS[n]):
        c = "#b3261e" if (n in (5, 7, 9) and i == (0 if n == 7 else n // 2)) else "#2e7d32"
        out.append(f'<rect x="{x - 1.8}" y="{y - h / 2}" width="3.6" height="{h}" rx="1.6" fill="{c}"/>'
                   f'<line x1="{x - 1.8}" y1="{y}" x2="{x + 1.8}" y2="{y}" stroke="#fbf7ea" stroke-width="0.8"/>')
    return "".join(out)


def _chicken() -> str:
    """幺鸡: a small green bird with a red crest."""
    return ('<ellipse cx="14" cy="24" rx="8" ry="6.5" fill="#2e7d32"/>'
            '<circle cx="20" cy="15" r="4.2" fill="#2e7d32"/>'
            '<polygon points="23.8,14 28,15.5 23.8,17" fill="#e0a100"/>'
            '<path d="M18 10.5 q1.5 -3 3 0 q1.5 -3 2.5 0.5" fill="#b3261e"/>'
            '<circle cx="21" cy="14.2" r="0.9" fill="#fbf7ea"/>'
            '<path d="M6.5 22 l-4 -5 l1.5 6 l-2 2 z" fill="#1d5fa8"/>'
            '<line x1="12" y1="30" x2="11" y2="35" stroke="#8c5a00" stroke-width="1.2"/>'
            '<line x1="16" y1="30" x2="17" y2="35" stroke="#8c5a00" stroke-width="1.2"/>')


def tile_body(name: str) -> str:
    """The SVG shapes of one tile (``"5p"``), face included."""
    n, suit = int(name[0]), name[1]
    body = _face()
    if suit == "m":
        body += _text(15, 17, _NUMERALS[n - 1], 13, "#1a1a1a") + _text(15, 35, "萬", 14, "#b3261e")
    elif suit == "p":
        body += _dots(n)
    elif suit == "s":
        body += _chicken() if n == 1 else _sticks(n)
    elif suit == "f":  # a flower (1f..8f = 春夏秋冬梅兰菊竹)
        body += _text(15, 27, _FLOWERS[n - 1], 18, "#2e7d32")
    elif n == 5:  # 白板: a blue frame
        body += '<rect x="6" y="7" width="18" height="26" rx="2" fill="none" stroke="#1d5fa8" stroke-width="2"/>'
    else:
        colour = {6: "#2e7d32", 7: "#b3261e"}.get(n, "#1a1a1a")
        body += _text(15, 27, _HONOURS[n - 1], 18, colour)
    return body


@lru_cache(maxsize=1)
def symbols() -> str:
    """One hidden ``<svg>`` holding a ``<symbol id="t-XX">`` for every tile kind and the back."""
    # the faces' characters are Chinese (the page embeds their glyphs as the font "paipu CJK")
    parts = ['<svg width="0" height="0" style="position:absolute" aria-hidden="true" lang="zh-Hans"><defs>']
    for name in TILE_NAMES:
        parts.append(f'<symbol id="t-{name}" viewBox="0 0 {W} {H}">{tile_body(name)}</symbol>')
    parts.append(f'<symbol id="t-back" viewBox="0 0 {W} {H}"><rect x="0.75" y="0.75" width="28.5" height="38.5" '
                 'rx="4" fill="#3a6b4f" stroke="#234232" stroke-width="1.5"/></symbol>')
    parts.append("</defs></svg>")
    return "".join(parts)


__all__ = ["symbols", "tile_body"]
