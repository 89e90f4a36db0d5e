"""What every fault class is built from: the class record, the game being mutated
(:class:`_Ctx`), where the bench plants a family's classes (:class:`FaultBench`) and
the small rewrites shared by the families' fault modules (``paipu/sim/<family>/faults.py``):
renumbering, an event made like another, the room closed as dissolved."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Callable, Optional, Sequence

import msgspec

from replay import ReplayError, Replayer
from schema import events as ev
from schema.tiles import NUM_KINDS, TILE_NAMES

Events = list[ev.Event]
Expected = list[tuple[str, int]]


class NotApplicable(Exception):
    """The game has no place for this fault class."""


@dataclass(frozen=True)
class Fault:
    """One fault class: its name, the audit code it must raise, and what it does."""

    name: str
    code: str
    group: str
    description: str
    apply: Callable[["_Ctx"], tuple[Events, int]]
    #: the rule families whose rooms the class is planted in
    families: tuple[str, ...]


@dataclass(frozen=True)
class FaultBench:
    """Where ``bench/faults.py`` plants a family's fault classes in simulated rooms.

    Either ``rooms``: :class:`paipu.sim.simulate.SimConfig` keywords of rooms played in
    turn, every class of a worker tried on every room (worker ``w`` plays room ``k`` on
    seed ``seed + 10 * w + k``, and plants with ``random.Random(w)``); or ``room_of``: the
    keywords of each class's own room (seed ``seed``, planted with ``random.Random(class
    name)``).  ``max_games`` bounds the games a worker (or a class) plays."""

    seed: int
    max_games: int
    rooms: tuple[dict[str, Any], ...] = ()
    room_of: Optional[Callable[[str], dict[str, Any]]] = None


# ---------------------------------------------------------------------------
# helpers


class _Ctx:
    """A game being mutated: its events, and the table before each event (on demand)."""

    def __init__(self, events: Sequence[ev.Event], rng: random.Random):
        self.events = list(events)
        self.orig = list(events)
        self.rng = rng
        if not self.events or type(self.events[0]) is not ev.GameOpened:
            raise NotApplicable("the game does not start with GameOpened")

    def walk(self):
        """Yield (index, event, replayer-before-event) for every event (one live replayer)."""
        r = Replayer()
        for i, e in enumerate(self.events):
            yield i, e, r
            try:
                r.apply(e if e.seq == i else msgspec.structs.replace(e, seq=i))
            except ReplayError:
                return

    def before(self, i: int) -> Replayer:
        r = Replayer()
        for k, e in enumerate(self.events[:i]):
            r.apply(e if e.seq == k else msgspec.structs.replace(e, seq=k))
        return r

    def kong_discard(self, i: int) -> bool:
        """Discard i was made right after its maker's kong replacement (杠上炮 context)."""
        j = i - 1
        while j >= 0 and type(self.events[j]) is ev.TailTurned:
            j -= 1
        e = self.events[j]
        if j > 0 and type(self.events[j - 1]) is ev.TileSetAside and self.events[j - 1].tile.endswith("f"):
            return False  # a flower's replacement (补花) is no kong's
        return type(e) is ev.TileDrawn and e.source == "tail" and e.seat == self.events[i].seat

    def pick(self, cands: list):
        if not cands:
            raise NotApplicable("no place for this fault in the game")
        return self.rng.choice(cands)

    def hand_end(self, i: int) -> int:
        """Index of the HandSettled that closes the hand containing event i."""
        for j in range(i, len(self.events)):
            if type(self.events[j]) is ev.HandSettled:
                return j
        raise NotApplicable("the hand never settles")


def _renumber(events: Events) -> Events:
    """Consecutive seq from 0; inserted events take the time of the event before."""
    out: Events = []
    prev_at = None
    for i, e in enumerate(events):
        at = e.at if prev_at is None or e.at >= prev_at else prev_at
        out.append(e if (e.seq == i and at is e.at) else msgspec.structs.replace(e, seq=i, at=at))
        prev_at = at
    return out


def _mk(cls: type, like: ev.Event, **fields) -> ev.Event:
    return cls(like.game, like.seq, like.at + timedelta(milliseconds=1), **fields)


def _close(prefix: Events, r_scores: Sequence[int]) -> ev.Event:
    return _mk(ev.GameClosed, prefix[-1], reason="dissolved", scores=list(r_scores))


def _cut(ctx: _Ctx, keep: int, extra: Events, planted_at: int, scores: Optional[Sequence[int]] = None
         ) -> tuple[Events, int]:
    """events[:keep] + extra, then the room closes (dissolved). Returns (events, planted index)."""
    new = ctx.events[:keep] + extra
    if scores is None:
        scores = _scores_now(new)
    new.append(_close(new, scores))
    return new, planted_at


def _scores_now(events: Events) -> list[int]:
    """The scores as they stand after ``events``: the last settlement's, else the start points."""
    for e in reversed(events):
        if type(e) is ev.HandSettled:
            return list(e.scores)
    opened = events[0]
    n = len(opened.seats)
    for e in events:
        if type(e) is ev.RoomResized:
            n = len(e.seats)
    return [opened.start_points] * n


def _fees_after(ctx: _Ctx, j: int) -> int:
    """Index just after the fee events that follow a settlement at j."""
    k = j + 1
    while k < len(ctx.events) and type(ctx.events[k]) in (ev.FeeCharged, ev.FeeRefunded):
        k += 1
    return k


def _first_fee(ctx: _Ctx, upto: int) -> list[ev.Event]:
    """The fee events due at the first settlement when none was settled before ``upto``."""
    if any(type(e) is ev.HandSettled for e in ctx.events[:upto]):
        return []
    return [e for e in ctx.orig if type(e) in (ev.FeeCharged, ev.FeeRefunded)][:2]


def hand_ruleset(r: Replayer):
    """The ruleset the hand on ``r``'s table is played by: the room's, or, once an indicator
    turned the hand's wild (``wild_from``), the room's with that wild (as the audit plays it:
    :func:`audits.rules.wilds.hand_rules`).  Fault classes that score or claim ask this."""
    from audits.rules.wilds import hand_rules

    table = r.table
    room = table.ruleset
    if room is None or room.wild_from == "preset" or table.wild is None or table.wild >= NUM_KINDS:
        return room
    return hand_rules(room, TILE_NAMES[table.wild])


__all__ = ["Events", "Expected", "Fault", "NotApplicable", "hand_ruleset"]
