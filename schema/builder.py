"""A small writer of event logs: numbers events, stamps times, spells tiles.

Used by the simulator, the sample logs and the tests, so that every log paipu
writes goes through one place::

    b = GameBuilder("g1", preset="qujing-xiaoji", seats=["A", "B", "C", "D"])
    b.open()
    b.hand(1, dealer=0)
    b.deal("123m...", ...)
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any, Optional, Sequence, Union

import msgspec

from . import events as ev
from .tiles import TILE_NAMES, parse_hand

TileLike = Union[str, int]

EPOCH = datetime(2026, 1, 1, tzinfo=timezone.utc)


def spell(tiles: Union[str, Sequence[TileLike]]) -> list[str]:
    """Tiles in canonical spelling from a compact string or a list of names/ints."""
    if isinstance(tiles, str):
        return [TILE_NAMES[t] for t in parse_hand(tiles)]
    return [TILE_NAMES[t] if isinstance(t, int) else t for t in tiles]


def one(tile: TileLike) -> str:
    return TILE_NAMES[tile] if isinstance(tile, int) else tile


def _mode(mode: Optional[str]) -> dict[str, str]:
    """A kong's ``mode`` field, written only when given (unset reads as ``replace``)."""
    return {} if mode is None else {"mode": mode}


class GameBuilder:
    """Appends events to ``self.events`` with consecutive ``seq`` and times."""

    def __init__(self, game: str, *, preset: str = "qujing-xiaoji", seats: Sequence[str] = ("A", "B", "C", "D"),
                 options: Optional[dict[str, Any]] = None, creator: int = 0, start_points: int = 0,
                 server: str = "paipu-sim", build: str = "1.0", billing: str = "creator", fee: int = 0,
                 start: datetime = EPOCH, step_ms: int = 1500):
        self.game = game
        self.events: list[ev.Event] = []
        self._t = start
        self._step = timedelta(milliseconds=step_ms)
        self._opening = dict(preset=preset, seats=list(seats), options=dict(options or {}), creator=creator,
                             start_points=start_points, server=server, build=build, billing=billing, fee=fee)

    def add(self, cls: type, **fields: Any) -> ev.Event:
        """Append any event type with the next seq and time."""
        events = self.events
        e = cls(self.game, len(events), self._t, **fields)
        self._t += self._step
        events.append(e)
        return e

    def add_values(self, cls: type, *values: Any) -> ev.Event:
        """:meth:`add` with the event's own fields as positional values, in the order the
        event type declares them after ``game``, ``seq`` and ``at`` (no keyword dict is
        built: for writers of many events, such as the simulator)."""
        events = self.events
        e = cls(self.game, len(events), self._t, *values)
        self._t += self._step
        events.append(e)
        return e

    # -- room --
    def open(self) -> ev.Event:
        o = self._opening
        options = msgspec.convert(o["options"], ev.RulesetOverrides)
        return self.add(ev.GameOpened, schema_version=ev.SCHEMA_VERSION, server=o["server"], build=o["build"],
                          preset=o["preset"], seats=o["seats"], creator=o["creator"], options=options,
                          start_points=o["start_points"], billing=o["billing"], fee=o["fee"])

    def resize(self, seats: Sequence[str]) -> ev.Event:
        return self.add(ev.RoomResized, seats=list(seats))

    def fee(self, seat: int, amount: int) -> ev.Event:
        return self.add(ev.FeeCharged, seat=seat, amount=amount)

    def refund(self, seat: int, amount: int) -> ev.Event:
        return self.add(ev.FeeRefunded, seat=seat, amount=amount)

    def close(self, reason: str, scores: Sequence[int]) -> ev.Event:
        return self.add(ev.GameClosed, reason=reason, scores=list(scores))

    # -- hand --
    def hand(self, number: int, dealer: int, wall: Optional[Sequence[TileLike]] = None,
             dice: Optional[Sequence[int]] = None, dealer_level: Optional[int] = None) -> ev.Event:
        """HandStarted; ``dealer_level`` (连庄) is written only when given."""
        extra = {} if dealer_level is None else {"dealer_level": dealer_level}
        return self.add(ev.HandStarted, hand=number, dealer=dealer,
                          wall=spell(wall) if wall is not None else None,
                          dice=list(dice) if dice is not None else None, **extra)

    def bet(self, seat: int, bet: int) -> ev.Event:
        return self.add(ev.PigBetPlaced, seat=seat, bet=bet)

    def deal(self, *hands: Union[str, Sequence[TileLike]]) -> ev.Event:
        return self.add(ev.TilesDealt, hands=[spell(h) for h in hands])

    def tail(self, *tiles: TileLike) -> ev.Event:
        return self.add(ev.TailTurned, tiles=[one(t) for t in tiles])

    def draw(self, seat: int, tile: TileLike, source: str = "wall") -> ev.Event:
        return self.add(ev.TileDrawn, seat=seat, tile=one(tile), source=source)

    def discard(self, seat: int, tile: TileLike) -> ev.Event:
        return self.add(ev.TileDiscarded, seat=seat, tile=one(tile))

    def declare(self, seat: int, claim: str) -> ev.Event:
        return self.add(ev.ClaimDeclared, seat=seat, claim=claim)

    def pass_(self, seat: int, claims: Sequence[str]) -> ev.Event:
        return self.add(ev.ClaimPassed, seat=seat, claims=list(claims))

    def chow(self, seat: int, from_seat: int, tile: TileLike, tiles: Union[str, Sequence[TileLike]]) -> ev.Event:
        return self.add(ev.Chowed, seat=seat, from_seat=from_seat, tile=one(tile), tiles=spell(tiles))

    def pong(self, seat: int, from_seat: int, tile: TileLike, tiles: Union[str, Sequence[TileLike], None] = None) -> ev.Event:
        own = spell(tiles) if tiles is not None else [one(tile)] * 2
        return self.add(ev.Ponged, seat=seat, from_seat=from_seat, tile=one(tile), tiles=own)

    def kong_exposed(self, seat: int, from_seat: int, tile: TileLike,
                     tiles: Union[str, Sequence[TileLike], None] = None, kind: Optional[TileLike] = None,
                     mode: Optional[str] = None) -> ev.Event:
        """直杠; ``mode`` (``replace`` / ``reveal``) is written only when given."""
        own = spell(tiles) if tiles is not None else [one(tile)] * 3
        return self.add(ev.KongExposed, seat=seat, from_seat=from_seat, kind=one(kind if kind is not None else tile),
                          tile=one(tile), tiles=own, **_mode(mode))

    def kong_added(self, seat: int, kind: TileLike, tile: Optional[TileLike] = None,
                   mode: Optional[str] = None) -> ev.Event:
        return self.add(ev.KongAdded, seat=seat, kind=one(kind), tile=one(tile if tile is not None else kind),
                        **_mode(mode))

    def kong_concealed(self, seat: int, kind: TileLike, tiles: Union[str, Sequence[TileLike], None] = None,
                       mode: Optional[str] = None) -> ev.Event:
        own = spell(tiles) if tiles is not None else [one(kind)] * 4
        return self.add(ev.KongConcealed, seat=seat, kind=one(kind), tiles=own, **_mode(mode))

    def win(self, winners: Sequence[tuple], how: str, tile: TileLike,
            from_seat: Optional[int] = None) -> ev.Event:
        """``winners``: (seat, fans, fan total, points per payer) for each winner, and optionally
        a fifth item: the payers' shares as (seat, fan, multiple, amount)."""
        ws = [ev.Winner(seat=w[0], fans=list(w[1]), fan=w[2], points=w[3],
                        **({"payers": [ev.PayerShare(seat=a, fan=b, multiple=c, amount=d) for a, b, c, d in w[4]]}
                           if len(w) > 4 else {}))
              for w in winners]
        return self.add(ev.HandWon, winners=ws, how=how, tile=one(tile), from_seat=from_seat)

    def exhausted(self, remaining: int) -> ev.Event:
        return self.add(ev.HandDrawn, remaining=remaining)

    def settle(self, transfers: Sequence[Union[ev.Transfer, tuple[int, int, int, str]]],
               scores: Sequence[int]) -> ev.Event:
        ts = [t if isinstance(t, ev.Transfer) else ev.Transfer(payer=t[0], payee=t[1], amount=t[2], reason=t[3])
              for t in transfers]
        return self.add(ev.HandSettled, transfers=ts, scores=list(scores))

    # -- Sichuan declarations (sichuan.md §4, §12) --
    def exchange(self, direction: str, *given: Union[str, Sequence[TileLike]]) -> ev.Event:
        """换三张: the direction and the three tiles each seat gave."""
        return self.add(ev.TilesExchanged, direction=direction, given=[spell(g) for g in given])

    def void(self, seat: int, suit: str) -> ev.Event:
        """定缺: ``seat`` declares ``suit`` (m, p or s) void."""
        return self.add(ev.VoidDeclared, seat=seat, suit=suit)

    # -- the new families' events (shared/design/new-families.md §1) --
    def indicator(self, tile: TileLike, wild: TileLike, source: str = "wall") -> ev.Event:
        """翻牌: the turned indicator and the wild kind derived from it."""
        return self.add(ev.IndicatorTurned, tile=one(tile), wild=one(wild), source=source)

    def set_aside(self, seat: int, tile: TileLike) -> ev.Event:
        """补花 / 红中杠 / 癞子杠: ``seat`` sets ``tile`` aside (a tail draw follows)."""
        return self.add(ev.TileSetAside, seat=seat, tile=one(tile))

    def opening_win(self, seat: int, names: Sequence[str], tiles: Union[str, Sequence[TileLike]]) -> ev.Event:
        """起手胡: ``seat`` shows ``tiles`` for the opening wins ``names``."""
        return self.add(ev.OpeningWinDeclared, seat=seat, names=list(names), tiles=spell(tiles))

    def reveal(self, seat: int, tiles: Union[str, Sequence[TileLike]], source: str = "wall") -> ev.Event:
        """开杠: the tiles revealed for ``seat`` after its kong of mode ``reveal``."""
        return self.add(ev.KongRevealed, seat=seat, tiles=spell(tiles), source=source)

    def offer_last(self, seat: int, accepted: bool) -> ev.Event:
        """海底: the last tile offered to ``seat``, taken or declined."""
        return self.add(ev.LastTileOffered, seat=seat, accepted=accepted)

    def birds(self, tiles: Union[str, Sequence[TileLike]], origin: int, source: str = "wall") -> ev.Event:
        """抓鸟: the birds drawn after the win, counted from ``origin``."""
        return self.add(ev.BirdsDrawn, tiles=spell(tiles), origin=origin, source=source)

    def jsonl(self) -> bytes:
        from .reader import encode_events
        return encode_events(self.events)
