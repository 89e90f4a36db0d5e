"""The event log: frozen msgspec Structs, past-tense names, one tagged union.

Every line of a log is one JSON object whose ``type`` names the event.  Every
event carries the game id, a per-game sequence number (0, 1, 2, …) and the time
it happened, so logs that interleave several tables still replay.  The first
event of every game is :class:`GameOpened`, which states ``schema_version``;
new event types arrive with a new schema version, never through loose typing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, Optional, Union

import msgspec

from .ruleset import Ruleset
from .tiles import Tile

#: The event-log schema version this paipu reads and writes.
SCHEMA_VERSION = 1

Seat = int
Claim = Literal["win", "kong", "pong", "chow"]
WinKind = Literal["self_draw", "discard", "robbed_kong"]
TransferReason = Literal["win", "qianggang", "yangzhu", "dianji"]
DrawSource = Literal["wall", "tail"]
Billing = Literal["creator", "aa"]
CloseReason = Literal["hands_done", "knocked_out", "dissolved"]

#: Fan names as logs spell them (pinyin), with the Chinese name in the glossary.
FanName = Literal[
    "dihu", "wuji", "menqing_zimo", "gangshang_kaihua", "gangshang_pao", "shuanggang",
    "hunyise", "duidui", "quanqiuren", "xiaosanyuan", "wumeihua", "qingyise", "ziyise",
    "xiaoqidui", "dasanyuan", "xiaosixi", "longzhuabei", "sigang", "dasixi", "sixiaoji",
]


def _overrides_struct() -> type:
    """Every ruleset option, each optional: ``None`` keeps the preset's value."""
    fields = [
        (f.name, Optional[f.type], None)  # type: ignore[valid-type]
        for f in msgspec.structs.fields(Ruleset)
    ]
    return msgspec.defstruct(
        "RulesetOverrides", fields, frozen=True, kw_only=True,
        forbid_unknown_fields=True, omit_defaults=True, module=__name__,
    )


#: The options a log may override on its preset; unknown option names are errors.
RulesetOverrides = _overrides_struct()


class Event(msgspec.Struct, frozen=True, tag_field="type", tag=True,
            gc=False, forbid_unknown_fields=True):
    """Fields every event carries."""

    game: str
    seq: int
    at: datetime


# --- the room -------------------------------------------------------------

class GameOpened(Event):
    """A room opened: who plays, under which rules, for what fee."""

    schema_version: int
    server: str
    build: str
    preset: str
    #: Player ids by seat (4, or 3 for a 3-seat room).
    seats: list[str]
    #: The seat of the room's creator, who deals the first hand.
    creator: Seat
    #: Options that differ from the preset.
    options: RulesetOverrides = msgspec.field(default_factory=RulesetOverrides)  # type: ignore[valid-type]
    #: Points each player starts with (20 under 20分敲锣).
    start_points: int = 0
    billing: Billing = "creator"
    #: The room's fee in diamonds (钻石).
    fee: int = 0


class RoomResized(Event):
    """A 4-seat room turned into a 3-seat room before play: the remaining players."""

    seats: list[str]


class FeeCharged(Event):
    """Diamonds taken from a player for the room."""

    seat: Seat
    amount: int


class FeeRefunded(Event):
    """Diamonds given back to a player (the creator on a 4→3 change)."""

    seat: Seat
    amount: int


class GameClosed(Event):
    """The room closed, with every player's final score."""

    reason: CloseReason
    scores: list[int]


# --- one hand --------------------------------------------------------------

class HandStarted(Event):
    """A hand begins.  ``wall`` (all tiles in draw order, head first) is optional."""

    hand: int
    dealer: Seat
    dice: Optional[list[int]] = None
    wall: Optional[list[Tile]] = None


class PigBetPlaced(Event):
    """养猪: a player's bet of 0, 1 or 2 before the deal."""

    seat: Seat
    bet: int


class TilesDealt(Event):
    """The deal: each seat's tiles (the dealer 14, the others 13)."""

    hands: list[list[Tile]]


class TailTurned(Event):
    """Tail tiles turned face up (翻屁股): two after the deal, one after each kong."""

    tiles: list[Tile]


class TileDrawn(Event):
    """A draw from the wall's head, or one of the face-up tail tiles after a kong."""

    seat: Seat
    tile: Tile
    source: DrawSource = "wall"


class TileDiscarded(Event):
    seat: Seat
    tile: Tile


class ClaimDeclared(Event):
    """A seat asked for a claim on the last discard (or on an added kong, for a win)."""

    seat: Seat
    claim: Claim


class ClaimPassed(Event):
    """A seat passed on the claims it was offered on the last discard."""

    seat: Seat
    claims: list[Claim]


class Chowed(Event):
    """吃: ``tile`` from 上家 with two ``tiles`` from hand forms a run."""

    seat: Seat
    from_seat: Seat
    tile: Tile
    tiles: list[Tile]


class Ponged(Event):
    """碰: ``tile`` from a discard with two ``tiles`` from hand."""

    seat: Seat
    from_seat: Seat
    tile: Tile
    tiles: list[Tile]


class KongExposed(Event):
    """明杠 / 直杠 on a discard: ``kind`` is the kong's tile; ``tiles`` the three from
    hand.  A tile in ``tiles`` that is not ``kind`` is a chicken acting as wild."""

    seat: Seat
    from_seat: Seat
    kind: Tile
    tile: Tile
    tiles: list[Tile]


class KongAdded(Event):
    """补杠: ``tile`` from hand (natural, or a chicken as wild) added to the pong of ``kind``."""

    seat: Seat
    kind: Tile
    tile: Tile


class KongConcealed(Event):
    """暗杠: four ``tiles`` from hand make a kong of ``kind`` (chickens as wild)."""

    seat: Seat
    kind: Tile
    tiles: list[Tile]


class Winner(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """One winner as the server scored it."""

    seat: Seat
    #: The fans the server awarded.
    fans: list[FanName]
    #: The fan total the server claimed, before the cap.
    fan: int
    #: What each paying seat owes before bets (P = base × 2^min(fan, cap)).
    points: int


class HandWon(Event):
    """和 / 胡: one or several winners on one tile."""

    winners: list[Winner]
    how: WinKind
    tile: Tile
    #: The discarder or the kong adder; ``None`` on a self-draw.
    from_seat: Optional[Seat] = None


class HandDrawn(Event):
    """黄庄: the hand ends with no winner, ``remaining`` tiles left undrawn."""

    remaining: int


class Transfer(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    payer: Seat
    payee: Seat
    amount: int
    reason: TransferReason


class HandSettled(Event):
    """Every point transfer of the hand, in the order paid, and each score after."""

    transfers: list[Transfer]
    scores: list[int]


AnyEvent = Union[
    GameOpened, RoomResized, FeeCharged, FeeRefunded, GameClosed,
    HandStarted, PigBetPlaced, TilesDealt, TailTurned, TileDrawn, TileDiscarded,
    ClaimDeclared, ClaimPassed, Chowed, Ponged, KongExposed, KongAdded, KongConcealed,
    HandWon, HandDrawn, HandSettled,
]

EVENT_TYPES: tuple[type[Event], ...] = AnyEvent.__args__  # type: ignore[attr-defined]


def json_schema() -> dict:
    """The JSON Schema of one log line, for server teams writing logs in any language."""
    return msgspec.json.schema(AnyEvent)
