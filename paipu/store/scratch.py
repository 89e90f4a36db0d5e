"""Temporary folders of a running ingest outside any store (``$TMPDIR``), and the sweep of
those whose ingest was killed.

A store's own spool lives beside it and is swept under the store's lock
(:func:`paipu.store.ingest.sweep_spools`).  An ingest into a Parquet dataset or into
``:memory:`` has no store file to sit beside, so its spool (and each Parquet batch's
local files) is made here: ``paipu-<kind>-<pid>-<random>`` in the temporary directory,
holding a ``.lock`` file the ingest keeps locked (``flock``) while it runs.  The lock is
released by the kernel however the process ends, ``kill -9`` included, so the next
ingest removes every such folder whose lock it can take: the owner is gone.  Where
``flock`` is missing, a folder whose process id is no longer running is taken as left.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from typing import Optional

#: Folder names made here: ``paipu-ingest-<pid>-…`` (a spool) and ``paipu-parquet-<pid>-…``.
_NAME = re.compile(r"^paipu-(ingest|parquet)-(\d+)-")
LOCK = ".lock"

#: folder -> the open file holding its lock (closed by :func:`remove`)
_held: dict[str, int] = {}


def make(kind: str, folder: Optional[str] = None) -> str:
    """A new temporary folder ``paipu-<kind>-<pid>-…`` (in ``folder``, else ``$TMPDIR``), locked
    as this process's own until :func:`remove`."""
    path = tempfile.mkdtemp(prefix=f"paipu-{kind}-{os.getpid()}-", dir=folder)
    fd = os.open(os.path.join(path, LOCK), os.O_CREAT | os.O_RDWR, 0o600)
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except (ImportError, OSError):
        pass  # no flock: the sweep falls back to the process id in the name
    _held[path] = fd
    return path


def remove(path: str) -> None:
    """Release and delete a folder made by :func:`make`."""
    fd = _held.pop(path, None)
    if fd is not None:
        os.close(fd)
    shutil.rmtree(path, ignore_errors=True)


def _left(path: str, pid: int) -> bool:
    """Whether the folder's ingest is gone (its lock can be taken, or its process is not running)."""
    if path in _held:
        return False
    try:
        import fcntl
    except ImportError:
        fcntl = None  # type: ignore[assignment]
    lock = os.path.join(path, LOCK)
    if fcntl is not None and os.path.exists(lock):
        try:
            fd = os.open(lock, os.O_RDWR)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except OSError:
            return False  # held: the ingest runs
        finally:
            os.close(fd)
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def sweep(folder: Optional[str] = None) -> int:
    """Remove the folders of killed ingests from ``folder`` (default ``$TMPDIR``); returns how many."""
    folder = folder or tempfile.gettempdir()
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    swept = 0
    for name in names:
        m = _NAME.match(name)
        path = os.path.join(folder, name)
        if m is None or not os.path.isdir(path):
            continue
        if _left(path, int(m.group(2))):
            shutil.rmtree(path, ignore_errors=True)
            swept += 1
    return swept


__all__ = ["LOCK", "make", "remove", "sweep"]
