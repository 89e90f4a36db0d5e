"""The store's rows as Arrow columns, built in Python from the decoded games, appended to DuckDB.

The events table keeps each event's common fields as typed columns (:data:`EVENT_COLUMNS`:
the type and tiles as ENUMs, seats as small integers, the tiles of a meld as a list) and
only the rare fields in one JSON column (``extra``); the event's whole JSON (``raw``) only
with ``ingest --keep-raw``.  Every other table's rows come from the per-game derivation
(:func:`paipu.store.ingest.fast_game_rows`) and the audit's own result, so no event is
decoded a second time, in SQL or in Python.

A batch's rows are held as Arrow record batches (:class:`BatchRows`), cut every
:data:`CHUNK_EVENTS` events so the Python objects they came from are let go early; one
transaction appends them (:func:`append`).
"""

from __future__ import annotations

import itertools
import operator
from datetime import datetime, timezone
from typing import Any, Iterable, Optional, Sequence

import msgspec
import pyarrow as pa

from schema import events as ev
from schema.tiles import TILE_NAMES

#: Every event type, in the schema's order (the ENUM of ``events.type``).
EVENT_TYPE_NAMES: tuple[str, ...] = tuple(t.__name__ for t in ev.EVENT_TYPES)
#: Where a drawn, revealed or bird tile came from (the ENUM of ``events.source``).
SOURCES: tuple[str, ...] = ("wall", "tail", "free", "last")


def enum_sql(values: Sequence[str]) -> str:
    """A DuckDB ``ENUM(...)`` type of ``values``."""
    return "ENUM(" + ", ".join("'" + v.replace("'", "''") + "'" for v in values) + ")"


TYPE_ENUM = enum_sql(EVENT_TYPE_NAMES)
TILE_ENUM = enum_sql(TILE_NAMES)
SOURCE_ENUM = enum_sql(SOURCES)

#: The fields an event's typed columns hold (every other field set goes to ``extra``).
COLUMN_FIELDS = frozenset({"game", "seq", "at", "seat", "tile", "from_seat", "kind", "tiles", "source", "amount", "bet"})

#: Per event type, the fields kept in ``extra`` (when set); ``prev`` (a sealed log's chain)
#: goes there too, for any type.
EXTRA_FIELDS: dict[type, tuple[str, ...]] = {
    t: tuple(f for f in t.__struct_fields__ if f not in COLUMN_FIELDS and f != "prev") for t in ev.EVENT_TYPES}
#: Per event type, the field the ``amount`` column holds (a fee's diamonds, a 养猪 bet).
AMOUNT_FIELD: dict[type, str] = {ev.FeeCharged: "amount", ev.FeeRefunded: "amount", ev.PigBetPlaced: "bet"}

_UNSET = msgspec.UNSET
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_enc = msgspec.json.Encoder()

_TYPE_DICT = pa.array(EVENT_TYPE_NAMES, pa.string())
_TILE_DICT = pa.array(TILE_NAMES, pa.string())
_TYPE_ID = {t: i for i, t in enumerate(ev.EVENT_TYPES)}
_TILE_ID = {name: i for i, name in enumerate(TILE_NAMES)}
_SOURCE_ID = {name: i for i, name in enumerate(SOURCES)}
_SOURCE_DICT = pa.array(SOURCES, pa.string())

#: Events of a batch converted to Arrow at a time (the decoded events are let go after).
CHUNK_EVENTS = 32_768

_get_seq = operator.attrgetter("seq")
_get_at = operator.attrgetter("at")


def _extra(e: Any) -> Optional[str]:
    """The event's fields beyond its typed columns, as JSON (None when it has none)."""
    names = EXTRA_FIELDS[type(e)]
    prev = e.prev
    if not names and prev is _UNSET:
        return None
    d = {}
    for f in names:
        v = getattr(e, f)
        if v is not _UNSET:
            d[f] = v
    if prev is not _UNSET:
        d["prev"] = prev
    return _enc.encode(d).decode() if d else None


def _tiles(e: Any) -> Optional[list[int]]:
    t = getattr(e, "tiles", None)
    return list(map(_TILE_ID.__getitem__, t)) if t is not None else None


def _amount(e: Any) -> Optional[int]:
    f = AMOUNT_FIELD.get(type(e))
    return getattr(e, f) if f is not None else None


class EventColumns:
    """The events table's columns of the games added so far, as Python lists (cut into an
    Arrow record batch by :meth:`take`)."""

    def __init__(self, keep_raw: bool):
        self.keep_raw = keep_raw
        self.games: list[str] = []
        self.game_idx: list[int] = []
        self.seq: list[int] = []
        self.type: list[int] = []
        self.at: list[Any] = []
        self.hand: list[int] = []
        self.seat: list[Optional[int]] = []
        self.tile: list[Optional[int]] = []
        self.from_seat: list[Optional[int]] = []
        self.kind: list[Optional[int]] = []
        self.tiles: list[Optional[list[int]]] = []
        self.source: list[Optional[int]] = []
        self.amount: list[Optional[int]] = []
        self.line: list[int] = []
        self.extra: list[Optional[str]] = []
        self.raw: list[Optional[bytes]] = []

    def __len__(self) -> int:
        return len(self.seq)

    def add(self, game: str, events: list, lines: list[int], types: list[type], seats: list, hands: list[int],
            encoded: Optional[bytes]) -> None:
        """One game's events (``types``, ``seats`` and ``hands``: each event's type, seat and
        hand number; ``encoded``: their JSON lines, kept as ``raw`` with ``keep_raw``)."""
        n = len(events)
        self.game_idx += [len(self.games)] * n
        self.games.append(game)
        self.seq += map(_get_seq, events)
        self.type += map(_TYPE_ID.__getitem__, types)
        self.at += map(operator.sub, map(_get_at, events), itertools.repeat(_EPOCH, n))
        self.hand += hands
        self.seat += seats
        tile_id = _TILE_ID.get
        self.tile += [tile_id(getattr(e, "tile", None)) for e in events]
        self.from_seat += [getattr(e, "from_seat", None) for e in events]
        self.kind += [tile_id(getattr(e, "kind", None)) for e in events]
        self.tiles += map(_tiles, events)
        source_id = _SOURCE_ID.get
        self.source += [source_id(getattr(e, "source", None)) for e in events]
        self.amount += map(_amount, events)
        self.line += lines
        self.extra += map(_extra, events)
        if self.keep_raw and encoded is not None:
            self.raw += encoded.split(b"\n")[:n]
        else:
            self.raw += [None] * n

    def take(self) -> pa.RecordBatch:
        """The columns so far as one record batch; the lists start again empty."""
        def tiles_dict(ids: list) -> pa.Array:
            return pa.DictionaryArray.from_arrays(pa.array(ids, pa.int8()), _TILE_DICT)

        tiles_flat = [x for t in self.tiles if t is not None for x in t]
        offsets = [0]
        valid = []
        at = 0
        for t in self.tiles:
            if t is not None:
                at += len(t)
            offsets.append(at)
            valid.append(t is not None)
        tiles = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), tiles_dict(tiles_flat),
                                         mask=pa.array([not v for v in valid], pa.bool_()))
        batch = pa.RecordBatch.from_arrays([
            pa.DictionaryArray.from_arrays(pa.array(self.game_idx, pa.int32()), pa.array(self.games, pa.string())),
            pa.array(self.seq, pa.int32()),
            pa.DictionaryArray.from_arrays(pa.array(self.type, pa.int8()), _TYPE_DICT),
            pa.array(self.at, pa.duration("us")).cast(pa.int64()).cast(pa.timestamp("us", tz="UTC")),
            pa.array(self.hand, pa.int32()),
            pa.array(self.seat, pa.uint8()),
            tiles_dict(self.tile),
            pa.array(self.from_seat, pa.uint8()),
            tiles_dict(self.kind),
            tiles,
            pa.DictionaryArray.from_arrays(pa.array(self.source, pa.int8()), _SOURCE_DICT),
            pa.array(self.amount, pa.int32()),
            pa.array(self.line, pa.int32()),
            pa.array(self.extra, pa.string()),
            pa.array(self.raw, pa.binary()).cast(pa.string()),
        ], names=list(EVENT_COLUMN_NAMES))
        self.__init__(self.keep_raw)  # type: ignore[misc]
        return batch


#: The events table's columns, in order (see :data:`paipu.store.tables.TABLES`).
EVENT_COLUMN_NAMES = ("game", "seq", "type", "happened_at", "hand", "seat", "tile", "from_seat", "kind", "tiles",
                      "source", "amount", "line", "extra", "raw")


# ---------------------------------------------------------------------------
# the other tables: rows (msgspec structs of tables._ROW) to Arrow


def arrow_type(sql: str) -> pa.DataType:
    """The Arrow type a column of DuckDB type ``sql`` is built as (JSON as its text)."""
    if sql.endswith("[]"):
        return pa.list_(arrow_type(sql[:-2]))
    return {"VARCHAR": pa.string(), "JSON": pa.string(), "INTEGER": pa.int32(), "BIGINT": pa.int64(),
            "BOOLEAN": pa.bool_(), "TIMESTAMPTZ": pa.timestamp("us", tz="UTC")}[sql]


def _json_text(v: Any) -> Optional[str]:
    return None if v is None else _enc.encode(v).decode()


def rows_table(columns: Sequence[tuple[str, str]], rows: Iterable[Any]) -> pa.Table:
    """Rows (tuples or msgspec structs, in ``columns`` order) as an Arrow table of those
    ``(name, DuckDB type)`` columns."""
    astuple = msgspec.structs.astuple
    tuples = [r if isinstance(r, tuple) else astuple(r) for r in rows]
    cols = list(zip(*tuples)) if tuples else [() for _ in columns]
    arrays = []
    for (name, sql), values in zip(columns, cols):
        if sql == "JSON":
            values = [_json_text(v) for v in values]
        arrays.append(pa.array(values, arrow_type(sql)))
    return pa.Table.from_arrays(arrays, names=[n for n, _ in columns])


#: Per column of the events table, the event field it holds (``amount`` holds ``bet`` too).
_FIELD_COLUMN = {"seat": "seat", "tile": "tile", "from_seat": "from_seat", "kind": "kind", "tiles": "tiles",
                 "source": "source", "amount": "amount", "bet": "amount"}


def event_json_sql() -> str:
    """A SQL expression over the events table giving each event's JSON as the log's schema
    spells it (every field but ``at``, whose time is ``happened_at``): the typed columns its
    type has, merged with ``extra``."""
    cases = []
    for t in ev.EVENT_TYPES:
        parts = ["'type', type", "'game', game", "'seq', seq"]
        for f in t.__struct_fields__:
            col = _FIELD_COLUMN.get(f)
            if col is not None:
                parts.append(f"'{f}', {col}")
        cases.append(f"WHEN '{t.__name__}' THEN json_object({', '.join(parts)})")
    return (f"json_merge_patch(CASE type::VARCHAR {' '.join(cases)} END, coalesce(extra, '{{}}'::JSON))")
