"""The history store as a hive-partitioned Parquet dataset (for Spark, Trino, pandas, DuckDB).

``paipu ingest --parquet DIR`` writes the tables of :data:`paipu.store.tables.TABLES`
under ``DIR`` (a local path or an fsspec URL such as ``s3://bucket/history``)::

    DIR/<table>/date=<YYYY-MM-DD>/server=<server>/part-<batch>.parquet
    DIR/_paipu/dataset.json           what the dataset is, and who wrote it
    DIR/_paipu/batches/<batch>.json   one commit record per batch (its files, its replaced games)
    DIR/_paipu/pending/<batch>.json   a batch being written (gone once committed or swept)

``date`` is the UTC day the game opened, ``server`` the server named in
``GameOpened`` (percent-encoded, as Hive escapes partition values; a missing one
is ``__HIVE_DEFAULT_PARTITION__``); every row of a game, in every table, lies in
its game's partition.  Each file holds exactly the table's columns and
``_batch``, the batch that wrote it.  Folders starting with ``_`` are ignored by
Spark, Hive and Trino.

Guarantees, as for the DuckDB store:

* **Atomic per batch.**  A batch's files are written under ``_paipu/tmp`` and
  moved into place after its pending record; the batch exists once its commit
  record is written.  paipu reads only committed batches; the next ingest
  removes the files of a batch that never committed (a killed ingest).
* **Idempotent by content hash.**  A game already stored with the same
  ``content_hash`` is not written again; a changed game is written in the new
  batch and the commit record names it as replaced, so readers see only its
  newest version (``_batch`` is the tie-breaker).

:func:`open_dataset` gives a DuckDB connection whose views have the store's
table names and columns, so ``paipu query`` and the anomaly library run
unchanged on either store.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections import defaultdict
from datetime import datetime, timezone
from typing import Any, Callable, Optional
from urllib.parse import quote

import duckdb

from .scratch import make as make_scratch, remove as remove_scratch
from .errors import StoreError
from .tables import TABLES, GameRows, connect as connect_store, transaction, write_rows, writer_versions

#: Version of the dataset layout (``_paipu/dataset.json``).
DATASET_VERSION = 1
#: The partition value Hive, Spark and Trino read as NULL.
NULL_PARTITION = "__HIVE_DEFAULT_PARTITION__"
META = "_paipu"


def _versions() -> dict[str, str]:
    return {k.removesuffix("_version"): v for k, v in writer_versions().items()}


def partition(opened_at: Optional[datetime], server: Optional[str]) -> str:
    """The partition folder of a game: ``date=YYYY-MM-DD/server=<encoded server>``."""
    day = opened_at.astimezone(timezone.utc).date().isoformat() if opened_at is not None else NULL_PARTITION
    srv = quote(server, safe="") if server else NULL_PARTITION
    return f"date={day}/server={srv}"


class Dataset:
    """A Parquet dataset folder, local or behind fsspec."""

    def __init__(self, url: str, *, create: bool = False):
        import fsspec

        self.url = url.rstrip("/") or url
        self._commits: Optional[list[dict]] = None
        try:
            self.fs, self.root = fsspec.core.url_to_fs(self.url)
        except (ImportError, ValueError) as e:
            raise StoreError(f"cannot open the dataset {url}: {e}") from None
        self.local = "file" in _protocols(self.fs)
        if self.local:
            self.root = os.path.abspath(self.root)
        if create:
            self.fs.makedirs(self._p(META, "batches"), exist_ok=True)
            if not self.fs.exists(self._p(META, "dataset.json")):
                self._put_json(f"{META}/dataset.json", {"layout": DATASET_VERSION, "created_by": _versions(),
                                                         "tables": [t.name for t in TABLES]})
        elif not self.fs.exists(self._p(META, "dataset.json")):
            raise StoreError(f"no paipu Parquet dataset at {url}; run `paipu ingest --parquet {url}` first")
        info = self._get_json(f"{META}/dataset.json")
        if info.get("layout") != DATASET_VERSION:
            raise StoreError(f"the dataset {url} has layout {info.get('layout')}, not the layout this paipu "
                             f"reads ({DATASET_VERSION})")

    # --- paths

    def _p(self, *parts: str) -> str:
        return "/".join([self.root, *parts])

    def duck(self, rel: str) -> str:
        """The path DuckDB opens for ``rel`` (a registered fsspec protocol keeps its URL)."""
        if self.local:
            return self._p(rel)
        return self.fs.unstrip_protocol(self._p(rel))

    def duck_root(self) -> str:
        return self.duck("").rstrip("/") + "/"

    def _put_json(self, rel: str, data: Any) -> None:
        """Write a small JSON file so it appears whole or not at all (written aside, then moved)."""
        tmp = self._p(META, "tmp", f"{uuid.uuid4().hex}.json")
        self.fs.makedirs(self._p(META, "tmp"), exist_ok=True)
        with self.fs.open(tmp, "w") as f:
            f.write(json.dumps(data, sort_keys=True))
        self._move(tmp, self._p(rel))

    def _get_json(self, rel: str) -> Any:
        with self.fs.open(self._p(rel), "r") as f:
            return json.load(f)

    def _move(self, src: str, dst: str) -> None:
        parent = dst.rsplit("/", 1)[0]
        self.fs.makedirs(parent, exist_ok=True)
        if self.local:
            os.replace(src, dst)  # atomic on one file system
        else:
            self.fs.mv(src, dst)

    # --- batches

    def commits(self) -> list[dict]:
        """The commit records of the committed batches, oldest first (read once; this
        object's own batches are added as it commits them)."""
        if self._commits is None:
            names = sorted(p for p in self.fs.ls(self._p(META, "batches"), detail=False) if p.endswith(".json"))
            out = []
            for p in names:
                with self.fs.open(p, "r") as f:
                    out.append(json.load(f))
            self._commits = sorted(out, key=lambda c: c["batch"])
        return self._commits

    def sweep(self) -> int:
        """Remove what killed ingests left: files of batches that never committed, and ``_paipu/tmp``.

        Returns how many uncommitted batches were removed.  Run only by the one ingest
        writing the dataset (see docs/scale.md).
        """
        pending_dir = self._p(META, "pending")
        if not self.fs.exists(pending_dir):
            return 0
        committed = {c["batch"] for c in self.commits()}
        swept = 0
        for p in self.fs.ls(pending_dir, detail=False):
            with self.fs.open(p, "r") as f:
                rec = json.load(f)
            if rec["batch"] not in committed:
                for files in rec["files"].values():
                    for rel in files:
                        if self.fs.exists(self._p(rel)):
                            self.fs.rm(self._p(rel))
                swept += 1
            self.fs.rm(p)
        if self.fs.exists(self._p(META, "tmp")):
            self.fs.rm(self._p(META, "tmp"), recursive=True)
        return swept

    def next_batch(self) -> str:
        commits = self.commits()
        seq = int(commits[-1]["batch"].split("-")[0]) + 1 if commits else 1
        return f"{seq:08d}-{uuid.uuid4().hex[:8]}"

    def write_batch(self, con: duckdb.DuckDBPyConnection, partitions: dict[str, list[str]], replaced: list[str],
                    before_commit: Optional[Callable[[], None]] = None) -> str:
        """Write the tables held by ``con`` (one batch's rows) as one committed batch; returns its id.

        ``partitions`` maps a partition folder to the games in it.
        """
        batch = self.next_batch()
        local = make_scratch("parquet")  # swept by the next ingest if this one is killed
        files: dict[str, list[str]] = defaultdict(list)
        try:
            con.execute("CREATE OR REPLACE TEMP TABLE _part (game VARCHAR)")
            for part, games in sorted(partitions.items()):
                con.execute("DELETE FROM _part")
                con.execute("INSERT INTO _part SELECT unnest($g)", {"g": games})
                for t in TABLES:
                    n = con.execute(f"SELECT count(*) FROM {t.name} SEMI JOIN _part USING (game)").fetchone()[0]
                    if not n:
                        continue
                    rel = f"{t.name}/{part}/part-{batch}.parquet"
                    out = os.path.join(local, rel.replace("/", os.sep))
                    os.makedirs(os.path.dirname(out), exist_ok=True)
                    cols = ", ".join(t.names)
                    con.execute(f"COPY (SELECT {cols}, '{batch}' AS _batch FROM {t.name} SEMI JOIN _part USING (game) "
                                f"ORDER BY ALL) TO '{_sql_text(out)}' (FORMAT PARQUET, COMPRESSION ZSTD)")
                    files[t.name].append(rel)
            record = {"batch": batch, "files": dict(files), "replaces": sorted(replaced),
                      "games": sum(len(g) for g in partitions.values()), "written_by": _versions(),
                      "written_at": datetime.now(timezone.utc).isoformat()}
            # the pending record first: a kill from here on leaves files the next ingest can find
            self._put_json(f"{META}/pending/{batch}.json", record)
            tmp = self._p(META, "tmp", batch)
            for rels in files.values():
                for rel in rels:
                    src = os.path.join(local, rel.replace("/", os.sep))
                    if self.local:
                        self._move(src, self._p(rel))
                    else:
                        self.fs.put_file(src, f"{tmp}/{rel}")
                        self._move(f"{tmp}/{rel}", self._p(rel))
            if before_commit is not None:
                before_commit()
            self._put_json(f"{META}/batches/{batch}.json", record)  # the commit
            self.commits().append(record)
            self.fs.rm(self._p(META, "pending", f"{batch}.json"))
        finally:
            remove_scratch(local)
        return batch

    # --- reading

    def views(self, con: duckdb.DuckDBPyConnection) -> None:
        """Create one view per table on ``con`` over the committed batches (the newest version of each game)."""
        commits = self.commits()
        if not self.local:
            con.register_filesystem(self.fs)
        replaced = any(c.get("replaces") for c in commits)
        batches = _sql_list([c["batch"] for c in commits])
        for t in TABLES:
            typed = ", ".join(f"CAST({c.name} AS {c.type}) AS {c.name}" for c in t.columns)
            if not any(c["files"].get(t.name) for c in commits):
                empty = ", ".join(f"CAST(NULL AS {c.type}) AS {c.name}" for c in t.columns)
                if replaced:
                    con.execute(f"CREATE OR REPLACE VIEW _{t.name}_all AS SELECT {empty}, NULL::VARCHAR AS _batch "
                                "WHERE false")
                else:
                    con.execute(f"CREATE OR REPLACE VIEW {t.name} AS SELECT {empty} WHERE false")
                continue
            # every file of the table, but only the rows of committed batches (a killed ingest's
            # files stay invisible until the next ingest removes them)
            source = (f"read_parquet('{_sql_text(self.duck(t.name))}/*/*/part-*.parquet', hive_partitioning = false) "
                      f"WHERE _batch IN (SELECT unnest({batches}))")
            if not replaced:
                con.execute(f"CREATE OR REPLACE VIEW {t.name} AS SELECT {typed} FROM {source}")
            else:
                con.execute(f"CREATE OR REPLACE VIEW _{t.name}_all AS SELECT {typed}, _batch FROM {source}")
        if replaced:
            con.execute("CREATE OR REPLACE VIEW _latest AS SELECT game, max(_batch) AS _batch FROM _games_all "
                        "GROUP BY game")
            for t in TABLES:
                cols = ", ".join(f"a.{c}" for c in t.names)
                con.execute(f"CREATE OR REPLACE VIEW {t.name} AS SELECT {cols} FROM _{t.name}_all a "
                            "SEMI JOIN _latest l ON a.game = l.game AND a._batch = l._batch")


def _protocols(fs: Any) -> tuple[str, ...]:
    p = fs.protocol
    return (p,) if isinstance(p, str) else tuple(p)


def _sql_text(s: str) -> str:
    return s.replace("'", "''")


def _sql_list(items: list[str]) -> str:
    return "[" + ", ".join(f"'{_sql_text(s)}'" for s in items) + "]"


def open_dataset(url: str) -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB connection with a view per store table over the dataset at ``url``."""
    ds = Dataset(url)
    con = duckdb.connect(":memory:")
    try:
        ds.views(con)
    except duckdb.Error as e:
        con.close()
        raise StoreError(f"cannot read the dataset {url}: {str(e).strip().splitlines()[0]}") from None
    return con


def allowed_root(url: str) -> str:
    """The folder a locked-down query over the dataset may read (its root)."""
    return Dataset(url).duck_root()


class ParquetTarget:
    """Where :func:`paipu.store.ingest.ingest` writes when given ``parquet=DIR``."""

    def __init__(self, url: str):
        self.ds = Dataset(url, create=True)
        self.swept = self.ds.sweep()
        self._con: Optional[duckdb.DuckDBPyConnection] = None
        self._mem: Optional[duckdb.DuckDBPyConnection] = None

    def known(self, ids: list[str]) -> dict[str, str]:
        """Content hash of each of ``ids`` already in the dataset."""
        if self._con is None:
            self._con = duckdb.connect(":memory:")
            self.ds.views(self._con)
        return dict(self._con.execute("SELECT game, content_hash FROM games WHERE game IN (SELECT unnest($ids))",
                                      {"ids": ids}).fetchall())

    def write(self, write: list[tuple[str, GameRows]], replaced: list[str], spool_dir: str,
              before_commit: Optional[Callable[[int], None]], batch_no: int) -> tuple[int, int, float]:
        """Write games as one batch (see :meth:`Dataset.write_batch`); returns events, findings, load seconds."""
        mem = connect_store(":memory:")
        try:
            t0 = time.perf_counter()
            events, findings, _raw = write_rows(mem, write, [], spool_dir, None, batch_no)
            parts: dict[str, list[str]] = defaultdict(list)
            for game, rows in write:
                g = rows.rows["games"][0]
                parts[partition(g.opened_at, g.server)].append(game)
            hook = (lambda: before_commit(batch_no)) if before_commit is not None else None
            if write:
                self.ds.write_batch(mem, parts, replaced, hook)
            raw = time.perf_counter() - t0
        finally:
            mem.close()
        if self._con is not None:
            self._con.close()
            self._con = None
        return events, findings, raw

    def sql_connection(self) -> duckdb.DuckDBPyConnection:
        """The in-memory store each batch is derived in before it is written as Parquet (kept for the run,
        so an audit output's temp tables live beside it)."""
        if self._mem is None:
            self._mem = connect_store(":memory:")
        return self._mem

    def interrupt(self) -> None:
        """Stop the statement the batch's in-memory store is running (Ctrl-C; the batch's files are
        then never committed to the dataset)."""
        if self._mem is not None:
            self._mem.interrupt()

    def write_sql(self, spool: Any, metas: list[dict], replaced: list[str], spool_dir: str, now: Any,
                  audit_rows: Any, audit_tables: Any, hook: Optional[Callable[[], None]]) -> tuple[int, int, float]:
        """Derive a batch in SQL (:func:`paipu.store.derive.write_batch`) in memory, then write it as one
        Parquet batch (see :meth:`Dataset.write_batch`); returns events, findings, load seconds."""
        from .derive import write_batch
        from .tables import TABLES as _TABLES

        mem = self.sql_connection()
        for t in _TABLES:
            mem.execute(f"DELETE FROM {t.name}")
        t0 = time.perf_counter()
        events, findings, _raw = write_batch(mem, spool, metas, [], spool_dir, now, audit_rows=audit_rows,
                                             audit_tables=audit_tables)
        parts: dict[str, list[str]] = defaultdict(list)
        for game, opened_at, server in mem.execute("SELECT game, opened_at, server FROM games").fetchall():
            parts[partition(opened_at, server)].append(game)
        if metas:
            self.ds.write_batch(mem, parts, replaced, hook)
        raw = time.perf_counter() - t0
        if self._con is not None:
            self._con.close()
            self._con = None
        return events, findings, raw

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None
        if self._mem is not None:
            self._mem.close()
            self._mem = None


#: Games per batch when a DuckDB store is exported.
EXPORT_GAMES = 20_000


def export_store(db: str, url: str, games_per_batch: int = EXPORT_GAMES) -> tuple[int, int]:
    """Copy the DuckDB store ``db`` into the dataset at ``url``; returns (games written, games already there).

    Idempotent as ingest is: a game already in the dataset with the same content
    hash is skipped, a changed one is written again and named as replaced.
    """
    from .tables import connect as open_store

    open_store(db, read_only=True).close()  # a missing or unreadable store: one clear sentence
    target = ParquetTarget(url)
    con = duckdb.connect(":memory:")
    try:
        con.execute("ATTACH $db AS src (READ_ONLY)", {"db": db})
        rows = con.execute("SELECT game, content_hash, opened_at, server FROM src.games ORDER BY game").fetchall()
        written = skipped = 0
        for i in range(0, len(rows), games_per_batch):
            chunk = rows[i:i + games_per_batch]
            known = target.known([r[0] for r in chunk])
            todo = [r for r in chunk if known.get(r[0]) != r[1]]
            skipped += len(chunk) - len(todo)
            if not todo:
                continue
            mem = connect_store(":memory:")
            try:
                mem.execute("ATTACH $db AS src (READ_ONLY)", {"db": db})
                mem.execute("CREATE TEMP TABLE _todo AS SELECT unnest($g) AS game", {"g": [r[0] for r in todo]})
                for t in TABLES:
                    mem.execute(f"INSERT INTO main.{t.name} SELECT {', '.join(t.names)} FROM src.{t.name} "
                                "SEMI JOIN _todo USING (game)")
                mem.execute("DETACH src")
                parts: dict[str, list[str]] = defaultdict(list)
                for game, _h, opened_at, server in todo:
                    parts[partition(opened_at, server)].append(game)
                target.ds.write_batch(mem, parts, [r[0] for r in todo if r[0] in known])
            finally:
                mem.close()
            target.close()
            written += len(todo)
        return written, skipped
    finally:
        con.close()
        target.close()


def import_dataset(url: str, db: str) -> tuple[int, int, int]:
    """Load the dataset at ``url`` into the DuckDB store ``db`` in one transaction;
    returns (added, replaced, unchanged) games, compared by content hash."""
    from .tables import connect as open_store

    open_store(db).close()  # create the store's tables (and record the versions writing it)
    con = open_dataset(url)
    try:
        con.execute("ATTACH $db AS dst", {"db": db})
        with transaction(con):
            con.execute("CREATE TEMP TABLE _cmp AS SELECT s.game, d.content_hash IS NULL AS new, "
                        "d.content_hash IS DISTINCT FROM s.content_hash AS write "
                        "FROM games s LEFT JOIN dst.games d USING (game)")
            added, replaced, unchanged = con.execute(
                "SELECT count(*) FILTER (WHERE new), count(*) FILTER (WHERE write AND NOT new), "
                "count(*) FILTER (WHERE NOT write) FROM _cmp").fetchone()
            con.execute("CREATE TEMP TABLE _w AS SELECT game FROM _cmp WHERE write")
            for t in TABLES:
                con.execute(f"DELETE FROM dst.{t.name} WHERE game IN (SELECT game FROM _cmp WHERE write AND NOT new)")
                con.execute(f"INSERT INTO dst.{t.name} SELECT {', '.join(t.names)} FROM {t.name} SEMI JOIN _w USING (game)")
        return added, replaced, unchanged
    finally:
        con.close()


__all__ = ["DATASET_VERSION", "Dataset", "NULL_PARTITION", "ParquetTarget", "allowed_root", "export_store", "import_dataset",
           "open_dataset",
           "partition"]
