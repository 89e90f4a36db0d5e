"""The store's rows as Arrow columns, built in Python from the decoded games, appended to DuckDB.

The events table keeps each event's common fields as typed columns (:data:`EVENT_COLUMNS`:
the type and tiles as ENUMs, seats as small integers, the tiles of a meld as a list) and
only the rare fields in one JSON column (``extra``); the event's whole JSON (``raw``) only
with ``ingest --keep-raw``.  Every other table's rows come from the per-game derivation
(:func:`paipu.store.rows.fast_game_rows`) and the audit's own result, so no event is
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
import pyarrow.compute  # noqa: F401  (pa.compute)

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
_TYPE_ID = {t: i for i, t in enumerate(ev.EVENT_TYPES)}
# tiles and sources go to Arrow as indices into their names (a Python string to Arrow costs
# far more than a small integer)
_TILE_DICT = pa.array(TILE_NAMES, pa.string())
_TILE_ID = {name: i for i, name in enumerate(TILE_NAMES)}
_SOURCE_DICT = pa.array(SOURCES, pa.string())
_SOURCE_ID = {name: i for i, name in enumerate(SOURCES)}

#: Events of a batch converted to Arrow at a time (the decoded events are let go after).
CHUNK_EVENTS = 32_768

_get_seq = operator.attrgetter("seq")
_get_at = operator.attrgetter("at")


def _extra(e: Any) -> Optional[bytes]:
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
    return _enc.encode(d) if d else None


def _one_field_extra(t: type) -> Optional[Any]:
    """For an event type whose ``extra`` is one field that is always set, a C-level maker of its
    JSON from the field's encoded value (``b'{"claim":%s}'.__mod__``); None for the others."""
    names = EXTRA_FIELDS[t]
    if len(names) != 1:
        return None
    field = next(f for f in msgspec.structs.fields(t) if f.name == names[0])
    if field.default is _UNSET:
        return None
    return (b'{"' + names[0].encode() + b'":%s}').__mod__


_ONE_FIELD_EXTRA = {t: _one_field_extra(t) for t in ev.EVENT_TYPES}
#: Per event type and typed column (but seq and at, which every event has), the field's getter
#: (None: the type has no such field).
_GETTERS = {t: {col: (operator.attrgetter(f) if f in t.__struct_fields__ else None)
                for col, f in (("seat", "seat"), ("tile", "tile"), ("from_seat", "from_seat"), ("kind", "kind"),
                               ("tiles", "tiles"), ("source", "source"), ("amount", AMOUNT_FIELD.get(t, "amount")))}
            for t in ev.EVENT_TYPES}
_TYPED = ("seat", "tile", "from_seat", "kind", "tiles", "source", "amount")
_get_prev = operator.attrgetter("prev")


class EventColumns:
    """The events of the games added so far (with each one's game, hand and line), turned into
    the events table's columns by :meth:`take`: the events are grouped by type, so each column
    is taken from each type's events with one C-level ``map`` (no Python step per event), then
    put back in reading order by Arrow."""

    def __init__(self, keep_raw: bool):
        self.keep_raw = keep_raw
        self.games: list[str] = []
        self.game_idx: list[int] = []
        self.events: list[Any] = []
        self.types: list[type] = []
        self.hand: list[int] = []
        self.line: list[int] = []
        self.raw: list[Optional[bytes]] = []

    def __len__(self) -> int:
        return len(self.events)

    def add(self, game: str, events: list, lines: list[int], types: list[type], seats: Any, hands: list[int],
            encoded: Optional[bytes]) -> None:
        """One game's events (``types`` and ``hands``: each event's type and hand number;
        ``encoded``: their JSON lines, kept as ``raw`` with ``keep_raw``)."""
        n = len(events)
        self.game_idx += [len(self.games)] * n
        self.games.append(game)
        self.events += events
        self.types += types
        self.hand += hands
        self.line += lines
        if self.keep_raw and encoded is not None:
            self.raw += encoded.split(b"\n")[:n]

    def take(self) -> pa.RecordBatch:
        """The events so far as one record batch of the events table's columns; this starts again empty."""
        events, types = self.events, self.types
        n = len(events)
        tid = list(map(_TYPE_ID.__getitem__, types))
        order = sorted(range(n), key=tid.__getitem__)
        grouped = list(map(events.__getitem__, order))
        groups = []  # (type, start, end) in ``grouped``
        at = 0
        for t_id, k in sorted(_count(tid).items()):
            groups.append((ev.EVENT_TYPES[t_id], at, at + k))
            at += k
        cols: dict[str, list] = {}
        for col in _TYPED:
            out: list = []
            for t, a, b in groups:
                get = _GETTERS[t][col]
                if get is None:
                    out += itertools.repeat(None, b - a)
                else:
                    out += map(get, grouped[a:b])
            cols[col] = out
        extra: list = []
        with_prev = list(map(_get_prev, grouped)).count(_UNSET) != n
        for t, a, b in groups:
            one = _ONE_FIELD_EXTRA[t]
            if not with_prev and not EXTRA_FIELDS[t]:
                extra += itertools.repeat(None, b - a)
            elif not with_prev and one is not None:
                extra += map(one, map(_enc.encode, map(operator.attrgetter(EXTRA_FIELDS[t][0]), grouped[a:b])))
            else:
                extra += map(_extra, grouped[a:b])
        back = pa.compute.sort_indices(pa.array(order, pa.int64()))  # reading order from the grouped one
        grouped_batch = pa.RecordBatch.from_arrays([
            pa.array(list(map(_get_seq, grouped)), pa.int32()),
            pa.array(list(map(operator.sub, map(_get_at, grouped), itertools.repeat(_EPOCH, n))),
                     pa.duration("us")).cast(pa.int64()).cast(pa.timestamp("us", tz="UTC")),
            pa.array(cols["seat"], pa.uint8()),
            _indexed(cols["tile"], _TILE_ID, _TILE_DICT),
            pa.array(cols["from_seat"], pa.uint8()),
            _indexed(cols["kind"], _TILE_ID, _TILE_DICT),
            pa.array(cols["tiles"], pa.list_(pa.string())),
            _indexed(cols["source"], _SOURCE_ID, _SOURCE_DICT),
            pa.array(cols["amount"], pa.int32()),
            pa.array(extra, pa.binary()).cast(pa.string()),
        ], names=["seq", "happened_at", "seat", "tile", "from_seat", "kind", "tiles", "source", "amount", "extra"]
        ).take(back)
        type_names = pa.DictionaryArray.from_arrays(pa.array(tid, pa.int8()), _TYPE_DICT)
        g = grouped_batch.column
        batch = pa.RecordBatch.from_arrays([
            pa.DictionaryArray.from_arrays(pa.array(self.game_idx, pa.int32()), pa.array(self.games, pa.string())),
            g(0), type_names, g(1), pa.array(self.hand, pa.int32()), g(2), g(3), g(4), g(5), g(6), g(7), g(8),
            pa.array(self.line, pa.int32()), g(9),
            pa.array(self.raw, pa.binary()).cast(pa.string()) if self.keep_raw else pa.nulls(n, pa.string()),
        ], names=list(EVENT_COLUMN_NAMES))
        self.__init__(self.keep_raw)  # type: ignore[misc]
        return batch


def _indexed(values: list, ids: dict, names: pa.Array) -> pa.Array:
    """Names (or None) as an Arrow dictionary array over ``names``."""
    return pa.DictionaryArray.from_arrays(pa.array(list(map(ids.get, values)), pa.int8()), names)


def _count(items: list) -> dict:
    from collections import Counter

    return Counter(items)


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
