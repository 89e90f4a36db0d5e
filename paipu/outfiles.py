"""Output files: a name ending in ``.gz`` is written gzip-compressed, by every writer.

Every command that writes a file (``simulate``, ``mutate``, ``audit --output``,
``query``/``anomalies --output``, ``report --output``, ``schema --output``) opens it
here, so ``OUT.jsonl.gz`` is always a gzip file that paipu (and ``zcat``) reads
back.  The compression is deterministic: no file name and no time in the gzip
header, so the same content gives the same bytes.
"""

from __future__ import annotations

import gzip
import io
from typing import IO, Optional


def is_gzip_name(path: str) -> bool:
    """Whether ``path`` names a gzip file (``.gz``, any case)."""
    return path.lower().endswith(".gz")


def open_output(path: str, *, text: bool = False, newline: Optional[str] = None) -> IO:
    """Open ``path`` for writing (``text``: UTF-8 text); gzip-compressed when it ends in ``.gz``.

    Closing the returned file closes (and for gzip, finishes) the file on disk.
    """
    if not is_gzip_name(path):
        return open(path, "w", encoding="utf-8", newline=newline) if text else open(path, "wb")
    raw = open(path, "wb")
    try:
        gz = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0)
    except BaseException:
        raw.close()
        raise
    gz.myfileobj = raw  # GzipFile closes the file it was given as its own once finished
    return io.TextIOWrapper(gz, encoding="utf-8", newline=newline) if text else gz


__all__ = ["is_gzip_name", "open_output"]
