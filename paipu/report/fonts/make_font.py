"""Build ``cjk-subset.woff2``: the Chinese characters paipu's texts use, from Noto Sans CJK SC.

Run after a new Chinese character enters paipu's texts::

    python -m paipu.report.fonts.make_font [/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc]

The source is Debian's ``fonts-noto-cjk`` (``apt-get install fonts-noto-cjk``), face
"Noto Sans CJK SC" of the collection.  The characters are every CJK character in the
Python sources of ``schema``, ``replay``, ``audits`` and ``paipu`` and in the report's
templates (strings and comments alike: a few extra glyphs cost less than a missed one).
"""

from __future__ import annotations

import glob
import os
import sys

from . import CJK, FONT_FILE

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
FACE = "Noto Sans CJK SC"
#: Punctuation a player-facing sentence may use beyond what the sources hold.
EXTRA = "，。、：；！？（）《》「」“”…—·"


def paipu_characters(root: str = ROOT) -> set[str]:
    """Every CJK character in paipu's sources and report templates."""
    chars = set(EXTRA)
    patterns = [os.path.join(root, pkg, "**", "*.py") for pkg in ("schema", "replay", "audits", "paipu")]
    patterns.append(os.path.join(root, "paipu", "report", "templates", "*"))
    for pattern in patterns:
        for path in glob.glob(pattern, recursive=True):
            with open(path, encoding="utf-8") as f:
                chars |= set(CJK.findall(f.read()))
    return chars


def build(source: str = SOURCE, out: str | None = None) -> tuple[int, int]:
    """Write the pre-subset; returns (characters, bytes)."""
    from fontTools import subset
    from fontTools.ttLib import TTCollection

    faces = TTCollection(source, lazy=False).fonts
    font = next(f for f in faces if f["name"].getDebugName(1) == FACE)
    chars = paipu_characters()
    options = subset.Options()
    options.flavor = "woff2"
    options.name_IDs = ["*"]
    options.layout_features = ["*"]
    options.hinting = False
    options.desubroutinize = True
    sub = subset.Subsetter(options)
    sub.populate(text="".join(sorted(chars)))
    sub.subset(font)
    out = out or os.path.join(os.path.dirname(os.path.abspath(__file__)), FONT_FILE)
    font.flavor = "woff2"
    # the same characters give the same bytes: the source face's timestamp, not the clock's
    font.recalcTimestamp = False
    font.save(out)
    return len(chars), os.path.getsize(out)


if __name__ == "__main__":  # pragma: no cover - a maintainer's tool
    n, size = build(*(sys.argv[1:2] or [SOURCE]))
    print(f"wrote {FONT_FILE}: {n} characters, {size} bytes")
