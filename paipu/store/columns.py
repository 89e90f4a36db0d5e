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
        names = itertools.repeat
        # where the events are of each type with a rare column or extra fields (not the draws and
        # discards that make most of a log: their columns are all common)
        pos = {t: _positions(types, t) for t in set(types) if t in _VISITED_TYPES}
        # the common columns in reading order, one C-level getattr an event (None where the type
        # has no such field: no event type has a class attribute of a column's name, _NO_CLASH) ...
        col = {c: list(map(getattr, events, names(c), names(None))) for c in ("seat", "tile", "source")}
        # ... the rare ones (a claim's, a kong's, a fee's) set where the types that have them are
        for c in ("from_seat", "kind", "tiles", "amount"):
            col[c] = out = [None] * n
            for t, at in pos.items():
                get = _GETTERS[t][c]
                if get is not None:
                    for i, v in zip(at, map(get, map(events.__getitem__, at))):
                        out[i] = v
        amount = col["amount"]
        batch = pa.RecordBatch.from_arrays([
            pa.DictionaryArray.from_arrays(pa.array(self.game_idx, pa.int32()), pa.array(self.games, pa.string())),
            pa.array(list(map(_get_seq, events)), pa.int32()),
            pa.DictionaryArray.from_arrays(pa.array(list(map(_TYPE_ID.__getitem__, types)), pa.int8()), _TYPE_DICT),
            # each ``at`` as its time since the epoch (Arrow asking every datetime its zone costs 5× more)
            pa.array(list(map(operator.sub, map(_get_at, events), names(_EPOCH, n))),
                     pa.duration("us")).cast(pa.int64()).cast(pa.timestamp("us", tz="UTC")),
            pa.array(self.hand, pa.int32()),
            pa.array(col["seat"], pa.uint8()),
            _indexed(col["tile"], _TILE_ID, _TILE_DICT),
            pa.array(col["from_seat"], pa.uint8()),
            _indexed(col["kind"], _TILE_ID, _TILE_DICT),
            pa.array(col["tiles"], pa.list_(pa.string())),
            _indexed(col["source"], _SOURCE_ID, _SOURCE_DICT),
            pa.array(amount, pa.int32()),
            pa.array(self.line, pa.int32()),
            # msgspec writes UTF-8: the bytes are taken as text without a second check
            pa.array(_extras(events, pos), pa.binary()).view(pa.string()),
            pa.array(self.raw, pa.binary()).view(pa.string()) if self.keep_raw else pa.nulls(n, pa.string()),
        ], names=list(EVENT_COLUMN_NAMES))
        self.__init__(self.keep_raw)  # type: ignore[misc]
        return batch


#: The events table's typed columns an event's field is read into by name (``amount`` aside).
_NO_CLASH = all(not hasattr(t, c) or c in t.__struct_fields__ for t in ev.EVENT_TYPES
                for c in ("seat", "tile", "from_seat", "kind", "tiles", "source", "amount", "seq", "at", "prev"))
assert _NO_CLASH, "an event type has a class attribute named as a typed column"


#: The event types :meth:`EventColumns.take` visits one by one: those with a rare column
#: (from_seat, kind, tiles, amount or bet) or fields kept in ``extra``.
_VISITED_TYPES = frozenset(t for t in ev.EVENT_TYPES
                           if EXTRA_FIELDS[t] or any(_GETTERS[t][c] is not None
                                                     for c in ("from_seat", "kind", "tiles", "amount")))


def _positions(types: list, t: type) -> list[int]:
    """Where the events of type ``t`` are (a C-level scan of ``types`` between them)."""
    out: list[int] = []
    i = -1
    index = types.index
    try:
        while True:
            i = index(t, i + 1)
            out.append(i)
    except ValueError:
        return out


def _extras(events: list, pos: dict[type, list[int]]) -> list:
    """Each event's ``extra`` (:func:`_extra`), in reading order (``pos``: where each type's events
    are): None for the events of a type without extra fields (most of a log), so only the few
    others are visited, type by type."""
    n = len(events)
    if operator.countOf(map(_get_prev, events), _UNSET) != n:  # a sealed log: every event has its ``prev``
        return list(map(_extra, events))
    out: list = [None] * n
    for t, at in pos.items():
        fields = EXTRA_FIELDS[t]
        if not fields:
            continue
        one = _ONE_FIELD_EXTRA[t]
        if one is not None:
            values = map(one, map(_enc.encode, map(operator.attrgetter(fields[0]), map(events.__getitem__, at))))
        else:
            values = map(_extra, map(events.__getitem__, at))
        for i, v in zip(at, values):
            out[i] = v
    return out


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


# ---------------------------------------------------------------------------
# the events of a worker's games, sent as one record batch


class EventGroup:
    """The events of consecutive games one worker built (:func:`paipu.store.ingest.built_game`),
    turned into one record batch of the events table's columns when the group is first sent
    (pickled with the worker's reply) or asked for (:meth:`batch`).

    A worker's reply holds many games: one record batch for all of them costs a fraction of
    one a game (each batch carries its schema and dictionaries; DuckDB appends few long
    batches faster than many short ones).  Each game keeps its ``slot`` in the group; its
    events are ``spans[slot]`` (first row, rows) of the batch.  Once sent, the group is
    sealed: games built after go into a new group (:meth:`add` returns None), so a reply
    never holds a game its group's batch lacks.  A game whose columns Arrow refuses (a bug
    in paipu) is left out of the batch, with why (``broken[slot]``); the others stay."""

    def __init__(self, keep_raw: bool):
        import threading

        self.keep_raw = keep_raw
        self._cols: Optional[EventColumns] = EventColumns(keep_raw)
        #: per game added: its columns' arguments, kept until the batch is made
        self._games: list[tuple] = []
        self._batch: Optional[pa.RecordBatch] = None
        #: per slot, the game's (first row, rows) in the batch, or None where it is broken
        self.spans: list[Optional[tuple[int, int]]] = []
        #: per slot, why the game's columns could not be made (None for the others)
        self.broken: list[Optional[str]] = []
        self.events = 0
        # the worker's reply is pickled by its sending thread while the next games are built
        self._lock = threading.Lock()

    def add(self, game: str, events: list, lines: list[int], types: list[type], seats: Any, hands: list[int],
            encoded: Optional[bytes]) -> Optional[int]:
        """Add one game's events (as :meth:`EventColumns.add`); its slot, or None once the group is sealed."""
        with self._lock:
            if self._batch is not None:
                return None
            self._games.append((game, events, lines, types, seats, hands, encoded))
            self.events += len(events)
            return len(self._games) - 1

    def batch(self) -> pa.RecordBatch:
        """The group's events as one record batch (made once; the group is sealed from then on)."""
        with self._lock:
            if self._batch is None:
                self._batch = self._take()
            return self._batch

    def _take(self) -> pa.RecordBatch:
        games, self._games = self._games, []
        cols = EventColumns(self.keep_raw)
        for g in games:
            cols.add(*g)
        try:
            batch = cols.take()
        except (pa.ArrowException, OverflowError, TypeError, ValueError):
            return self._take_each(games)
        at = 0
        for g in games:
            self.spans.append((at, len(g[1])))
            self.broken.append(None)
            at += len(g[1])
        return batch

    def _take_each(self, games: list[tuple]) -> pa.RecordBatch:
        """The batch made game by game, leaving out (and saying why) the games Arrow refuses."""
        parts = []
        at = 0
        for g in games:
            cols = EventColumns(self.keep_raw)
            cols.add(*g)
            try:
                part = cols.take()
            except (pa.ArrowException, OverflowError, TypeError, ValueError) as x:
                self.spans.append(None)
                self.broken.append(f"{type(x).__name__}: {x}")
                continue
            parts.append(part)
            self.spans.append((at, part.num_rows))
            self.broken.append(None)
            at += part.num_rows
        if not parts:
            return EventColumns(self.keep_raw).take()
        return pa.Table.from_batches(parts).combine_chunks().to_batches(max_chunksize=max(at, 1))[0] \
            if len(parts) > 1 else parts[0]

    def __len__(self) -> int:
        return self.events

    def __reduce__(self) -> tuple:
        batch = self.batch()
        return (_arrived_group, (batch, self.spans, self.broken, self.keep_raw))


def _arrived_group(batch: pa.RecordBatch, spans: list, broken: list, keep_raw: bool) -> EventGroup:
    """A group as the ingest receives it from a worker (sealed, its batch made)."""
    group = EventGroup.__new__(EventGroup)
    group.keep_raw, group._cols, group._games, group._batch = keep_raw, None, [], batch
    group.spans, group.broken, group.events = spans, broken, batch.num_rows
    import threading

    group._lock = threading.Lock()
    return group
