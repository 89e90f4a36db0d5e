"""The CJK font the report embeds, so its Chinese renders on a machine without one.

``cjk-subset.woff2`` is Noto Sans CJK SC Regular (SIL Open Font License 1.1, see
``OFL.txt``) cut down to the Chinese characters paipu's own texts can show — the
catalogue, fan and tile names, transfer labels, report templates — by
:mod:`paipu.report.fonts.make_font` (rerun it when a new character enters those
texts; ``tests/paipu/test_report_font.py`` fails until then).  Each report embeds a
further subset of it: only the characters that page shows (:func:`page_font`),
as WOFF2 in a ``data:`` URL.  Characters outside it (a player's Chinese name, say)
fall back to the system's fonts.
"""

from __future__ import annotations

import base64
import io
import re
from functools import lru_cache
from importlib.resources import files
from typing import Iterable, Optional

#: The file of the pre-subset font, beside this module.
FONT_FILE = "cjk-subset.woff2"
#: The family name the page's CSS gives the embedded font.
FAMILY = "paipu CJK"

#: Characters drawn from the embedded font: CJK punctuation, ideographs, full-width forms.
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


@lru_cache(maxsize=1)
def font_bytes() -> bytes:
    """The committed pre-subset WOFF2."""
    return files("paipu.report.fonts").joinpath(FONT_FILE).read_bytes()


@lru_cache(maxsize=1)
def covered() -> frozenset[str]:
    """The characters the pre-subset font has glyphs for."""
    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(font_bytes()))
    return frozenset(chr(c) for c in font.getBestCmap())


def cjk_characters(text: str) -> set[str]:
    """The CJK characters in ``text``."""
    return set(CJK.findall(text))


def subset_woff2(chars: Iterable[str]) -> Optional[bytes]:
    """A WOFF2 with the glyphs of ``chars`` the pre-subset covers (None when none is covered)."""
    from fontTools import subset

    wanted = sorted(set(chars) & covered())
    if not wanted:
        return None
    options = subset.Options()
    options.flavor = "woff2"
    options.name_IDs = ["*"]  # keep the copyright and licence records (OFL)
    options.layout_features = ["*"]
    options.hinting = False
    options.desubroutinize = True
    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(font_bytes()))
    sub = subset.Subsetter(options)
    sub.populate(text="".join(wanted))
    sub.subset(font)
    out = io.BytesIO()
    font.flavor = "woff2"
    font.save(out)
    return out.getvalue()


def page_font(text: str) -> str:
    """The ``@font-face`` rule for a page whose visible text is ``text`` (empty: no CJK in it)."""
    data = subset_woff2(cjk_characters(text))
    if data is None:
        return ""
    url = "data:font/woff2;base64," + base64.b64encode(data).decode("ascii")
    return (f"@font-face {{ font-family: '{FAMILY}'; src: url({url}) format('woff2'); "
            "font-weight: 100 900; font-display: block; }")


__all__ = ["CJK", "FAMILY", "FONT_FILE", "cjk_characters", "covered", "font_bytes", "page_font", "subset_woff2"]
