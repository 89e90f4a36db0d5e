"""The event log: frozen msgspec Structs, past-tense names, one tagged union.

Every line of a log is one JSON object whose ``type`` names the event.  Every
event carries the game id, a per-game sequence number (0, 1, 2, …) and the time
it happened, so logs that interleave several tables still replay.  The first
event of every game is :class:`GameOpened`, which states ``schema_version``;
new event types arrive with a new schema version, never through loose typing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, Optional, Union, get_args

import msgspec
from msgspec import UNSET, Meta, UnsetType

from .ruleset import Ruleset
from .tiles import Tile

#: The event-log schema version this paipu reads and writes.
SCHEMA_VERSION = 1

# --- field constraints ----------------------------------------------------------
# Every number a log carries is stored as a DuckDB INTEGER (32-bit) and every list is
# walked by the audit, so the schema bounds them: a value out of bounds makes the line
# unreadable (file:line: field), never a failed ingest batch or an internal error.

#: The bounds of a 32-bit signed integer (DuckDB INTEGER).
INT32_MIN, INT32_MAX = -(2 ** 31), 2 ** 31 - 1

#: Any integer a log may carry (scores, start points, transfer amounts).
Int32 = Annotated[int, Meta(ge=INT32_MIN, le=INT32_MAX)]
#: A count or number that is never negative (seq, hand, fee, fan, points, remaining).
Count = Annotated[int, Meta(ge=0, le=INT32_MAX)]
#: A seat: a room has 3 or 4 players, seated 0..3.
Seat = Annotated[int, Meta(ge=0, le=3)]
#: Ids and names (game, player, server, build, preset): short strings.
Name = Annotated[str, Meta(max_length=256)]
#: Player ids by seat: a room has 3 or 4 players (see ``Ruleset.players``).
Seats = Annotated[list[Name], Meta(min_length=3, max_length=4)]
#: One value per seat (scores).
PerSeat = Annotated[list[Int32], Meta(min_length=3, max_length=4)]
#: A full wall: every tile of the set, head first: 136, 108 (suited tiles only) or 144 (with
#: flowers); the reducer checks the exact count against ``Ruleset.tile_count``.
Wall = Annotated[list[Tile], Meta(min_length=108, max_length=144)]
#: A list of tiles (a hand, a meld, the tail): never more than the whole set.
Tiles = Annotated[list[Tile], Meta(max_length=144)]
#: The time of an event: RFC 3339, with a UTC offset.
Time = Annotated[datetime, Meta(tz=True)]
#: A SHA-256 digest in lower-case hex (tamper evidence, docs/seal.md).
Digest = Annotated[str, Meta(pattern="^[0-9a-f]{64}$")]
#: The salt of a wall commitment: 16 to 64 random bytes in lower-case hex.
Salt = Annotated[str, Meta(pattern="^[0-9a-f]{32,128}$")]

#: A claim on a discard: 胡 win, 杠 kong, 碰 pong or 吃 chow.
Claim = Literal["win", "kong", "pong", "chow"]
#: How a hand was won: 自摸 self-draw, 点炮 on a discard, or 抢杠 robbing a kong.
WinKind = Literal["self_draw", "discard", "robbed_kong"]
#: Why points moved (each family names its own: win, 点鸡, 养猪, kong payments, 包 …).
TransferReason = Literal[
    "win", "qianggang", "yangzhu", "dianji",
    # Sichuan (sichuan.md §10.8): 刮风下雨, 呼叫转移, 查花猪, 查大叫, 退税
    "kong", "zhuanyi", "huazhu", "dajiao", "tuishui",
    # Guangdong 鸡平和 (guangdong.md §8.7): the 包 liabilities (``kong`` is shared above)
    "bao_gangkai", "bao_special", "bao_luodi",
    # the new families (shared/design/new-families.md §1): 起手胡, birds, the dealer's part,
    # 财神钱, flower money, 跟牌, and the 包 liabilities of the new rulesets
    "qishou", "bird", "dealer", "caishen", "flower", "genpai",
    "bao_sandao", "bao_gang", "bao_haidi", "bao_sanpu", "bao_quanqiuren",
]
#: Where a drawn tile came from: the wall's head, or the face-up tail after a kong.
DrawSource = Literal["wall", "tail"]
#: Where tiles revealed after a kong come from: the wall's head, its tail, or the last
#: undrawn positions (``free``).
RevealSource = Literal["wall", "tail", "free"]
#: Where birds come from: the wall's head, its tail, or the last tile repeated (empty wall).
BirdSource = Literal["wall", "tail", "last"]
#: A kong is followed by a replacement draw, or by tiles revealed (长沙 开杠).
KongMode = Literal["replace", "reveal"]
#: Who pays the room fee: the creator, or each seat its share (AA).
Billing = Literal["creator", "aa"]
#: Why the room closed: all hands played, a player knocked out (敲锣), or dissolved.
CloseReason = Literal["hands_done", "knocked_out", "dissolved"]

#: Fan names as logs spell them (pinyin), with the Chinese name in the glossary.
FanName = Literal[
    "dihu", "wuji", "menqing_zimo", "gangshang_kaihua", "gangshang_pao", "shuanggang",
    "hunyise", "duidui", "quanqiuren", "xiaosanyuan", "wumeihua", "qingyise", "ziyise",
    "xiaoqidui", "dasanyuan", "xiaosixi", "longzhuabei", "sigang", "dasixi", "sixiaoji",
    # Sichuan 成都计番 (sichuan.md §9; shared spellings above keep their place)
    "jihu", "jingoudiao", "jiangdui", "daiyaojiu", "longqidui", "gen", "qianggang", "haidi",
    "haidi_pao", "zimo", "menqing", "zhongzhang", "tianhe", "dihe",
    # Guangdong 鸡平和 (guangdong.md §7; jihu, zimo, qianggang, haidi, tianhe, dihe are shared above)
    "pinghu", "menfeng", "quanfeng", "sanyuan", "hunpeng", "qingpeng", "hunyaojiu", "qingyaojiu",
    "jiulian", "shisanyao", "qidui", "yipao_sanxiang", "renhe",
    # names the new families share (new-families.md §1, §3): 将一色, 十三烂, 硬胡 / 软胡
    "jiangyise", "shisanlan", "yinghu", "ruanhu",
    # Xuzhou 徐州麻将 (xuzhou.md §7; jihu, qidui, shisanlan, shisanyao, tianhe are shared above)
    "paopei",
    # Wuhan 红中赖子杠 (wuhan.md §7.3; jihu, duidui, qingyise, jiangyise, quanqiuren, gangshang_kaihua,
    # haidi, qianggang, yinghu are shared above)
    "fengyise",
    # Changsha 长沙麻将 (changsha.md §4, §9.3; the shared names above keep their place): 豪华 and the
    # opening wins 四喜, 板板胡, 缺一色, 六六顺, 步步高, 金童玉女, 一枝花, 三同
    "haohua", "qs_sixi", "qs_banban", "qs_queyise", "qs_liuliushun", "qs_bubugao", "qs_jintongyunv",
    "qs_yizhihua", "qs_santong",
    # Wenzhou 温州麻将 (wenzhou.md §8; yinghu, ruanhu, quanqiuren 单吊, tianhe, dihe, duidui, qingyise,
    # hunyise, gangshang_kaihua are shared above)
    "badui", "sancaishen", "sancaishen_bare", "sancai_guiwei", "zhongfabai", "caishen_niudui",
    "shuangcai_guiwei",
    # Hainan 海南麻将 (hainan.md §6, §11; the other sources and ways are shared above): 二五八将,
    # 位置花, 花上开花, and 杠 (a kong as a 番 source, option kong_fan)
    "jiang258", "zhenghua", "huashang_kaihua", "gang",
]
#: The fan names and transfer reasons the new families share (new-families.md §1, §3): on the
#: wire before the families that award or pay them are registered; every other name and reason
#: is a registered family's (tests/audits/test_family_vocabulary.py).
NEW_FAMILY_FANS: tuple[str, ...] = ("jiangyise", "shisanlan", "yinghu", "ruanhu")
NEW_FAMILY_REASONS: tuple[str, ...] = ("qishou", "bird", "dealer", "caishen", "flower", "genpai", "bao_sandao",
                                       "bao_gang", "bao_haidi", "bao_sanpu", "bao_quanqiuren")

#: A suit as a void declaration names it (定缺).
Suit = Literal["m", "p", "s"]
#: A wind as a log states it (Guangdong 圈风 / 门风).
Wind = Literal["east", "south", "west", "north"]
#: The winds in seat order, 东 南 西 北 = 0..3 (a wind's number is its index).
WINDS: tuple[str, ...] = get_args(Wind)


def _overrides_struct() -> type:
    """Every ruleset option, each optional: ``None`` keeps the preset's value."""
    # integers within 32 bits, as everywhere in a log (the store keeps them as INTEGER)
    fields = [
        (f.name, Optional[Int32 if f.type is int else f.type], None)  # type: ignore[valid-type]
        for f in msgspec.structs.fields(Ruleset)
    ]
    return msgspec.defstruct(
        "RulesetOverrides", fields, frozen=True, kw_only=True,
        forbid_unknown_fields=True, omit_defaults=True, module=__name__,
    )


#: The options a log may override on its preset; unknown option names are errors.
RulesetOverrides = _overrides_struct()


class _Chained(msgspec.Struct, frozen=True, tag_field="type", tag=True, gc=False,
               forbid_unknown_fields=True, kw_only=True):
    """The optional tamper-evidence field every event may carry (docs/seal.md).

    Unset, it is not written at all, so logs without it read and round-trip as before.
    """

    #: SHA-256 of the previous line of the same game, as written (without its newline).
    prev: Union[Digest, UnsetType] = UNSET


class Event(_Chained, frozen=True, tag_field="type", tag=True,
            gc=False, forbid_unknown_fields=True):
    """Fields every event carries."""

    game: Name
    seq: Count
    at: Time


# --- the room -------------------------------------------------------------

class GameOpened(Event):
    """A room opened: who plays, under which rules, for what fee."""

    schema_version: Count
    server: Name
    build: Name
    preset: Name
    #: Player ids by seat (4, or 3 for a 3-seat room).
    seats: Seats
    #: The seat of the room's creator, who deals the first hand.
    creator: Seat
    #: Options that differ from the preset.
    options: RulesetOverrides = msgspec.field(default_factory=RulesetOverrides)  # type: ignore[valid-type]
    #: Points each player starts with (20 under 20分敲锣).
    start_points: Int32 = 0
    billing: Billing = "creator"
    #: The room's fee in diamonds (钻石).
    fee: Count = 0


class RoomResized(Event):
    """A 4-seat room turned into a 3-seat room before play: the remaining players."""

    seats: Seats


class FeeCharged(Event):
    """Diamonds taken from a player for the room."""

    seat: Seat
    amount: Count


class FeeRefunded(Event):
    """Diamonds given back to a player (the creator on a 4→3 change)."""

    seat: Seat
    amount: Count


class GameClosed(Event):
    """The room closed, with every player's final score."""

    reason: CloseReason
    scores: PerSeat
    #: The wall commitment's reveal for a hand that closed with the room, unsettled (docs/seal.md).
    reveal_salt: Union[Salt, UnsetType] = UNSET
    reveal_wall: Union[Wall, UnsetType] = UNSET
    #: HMAC-SHA256 under the server's key of this line without its ``sig`` and ``seal`` (written
    #: just before ``seal``): a signed game, which only the key's holder can make (docs/seal.md).
    sig: Union[Digest, UnsetType] = UNSET
    #: SHA-256 of this line without its ``,"seal":"…"`` (written last): ends a game's chain.
    seal: Union[Digest, UnsetType] = UNSET


# --- one hand --------------------------------------------------------------

class HandStarted(Event):
    """A hand begins.  ``wall`` (all tiles in draw order, head first) is optional."""

    hand: Count
    dealer: Seat
    #: The dice thrown for the deal, when the server logs them.
    dice: Optional[Annotated[list[Annotated[int, Meta(ge=1, le=6)]], Meta(max_length=2)]] = None
    #: When present, exactly the 136 tiles of the set.
    wall: Optional[Wall] = None
    #: SHA-256 of the reveal's salt, ``:`` and the wall's tiles joined by ``,`` (docs/seal.md):
    #: the wall is fixed before the deal and shown after the hand.
    wall_commit: Union[Digest, UnsetType] = UNSET
    #: The round wind (圈风) and each seat's wind (门风) when the server states them
    #: (Guangdong; checked against the dealer sequence, ROUND_WIND_MISMATCH).
    round_wind: Union[Wind, UnsetType] = UNSET
    seat_winds: Union[Annotated[list[Wind], Meta(min_length=3, max_length=4)], UnsetType] = UNSET
    #: The dealer's level (连庄): 1 in a first hand, one more for each hand in a row it keeps
    #: the deal, when the server states it (checked as DEALER_ROTATION).
    dealer_level: Union[Count, UnsetType] = UNSET


class PigBetPlaced(Event):
    """养猪: a player's bet before the deal (0, 1 or 2 is the rule the audit judges:
    YANGZHU_BET_INVALID)."""

    seat: Seat
    bet: Count


class TilesDealt(Event):
    """The deal: each seat's tiles (the dealer 14, the others 13)."""

    #: Each seat's dealt tiles, by seat.
    hands: Annotated[list[Tiles], Meta(min_length=3, max_length=4)]


class TailTurned(Event):
    """Tail tiles turned face up (翻屁股): two after the deal, one after each kong."""

    tiles: Tiles


class TileDrawn(Event):
    """A draw from the wall's head, or one of the face-up tail tiles after a kong."""

    seat: Seat
    tile: Tile
    source: DrawSource = "wall"


class TileDiscarded(Event):
    """A seat discards a tile from its hand."""

    seat: Seat
    tile: Tile


class ClaimDeclared(Event):
    """A seat asked for a claim on the last discard (or on an added kong, for a win)."""

    seat: Seat
    claim: Claim


class ClaimPassed(Event):
    """A seat passed on the claims it was offered on the last discard."""

    seat: Seat
    #: The claims the seat let go.
    claims: Annotated[list[Claim], Meta(max_length=8)]


class Chowed(Event):
    """吃: ``tile`` from 上家 with two ``tiles`` from hand forms a run."""

    seat: Seat
    from_seat: Seat
    tile: Tile
    tiles: Tiles


class Ponged(Event):
    """碰: ``tile`` from a discard with two ``tiles`` from hand."""

    seat: Seat
    from_seat: Seat
    tile: Tile
    tiles: Tiles


class KongExposed(Event):
    """明杠 / 直杠 on a discard: ``kind`` is the kong's tile; ``tiles`` the three from
    hand.  A tile in ``tiles`` that is not ``kind`` is a chicken acting as wild."""

    seat: Seat
    from_seat: Seat
    kind: Tile
    tile: Tile
    tiles: Tiles
    #: ``replace`` (unset): a replacement draw follows; ``reveal``: KongRevealed follows.
    mode: Union[KongMode, UnsetType] = UNSET


class KongAdded(Event):
    """补杠: ``tile`` from hand (natural, or a chicken as wild) added to the pong of ``kind``."""

    seat: Seat
    kind: Tile
    tile: Tile
    #: ``replace`` (unset): a replacement draw follows; ``reveal``: KongRevealed follows.
    mode: Union[KongMode, UnsetType] = UNSET


class KongConcealed(Event):
    """暗杠: four ``tiles`` from hand make a kong of ``kind`` (chickens as wild)."""

    seat: Seat
    kind: Tile
    tiles: Tiles
    #: ``replace`` (unset): a replacement draw follows; ``reveal``: KongRevealed follows.
    mode: Union[KongMode, UnsetType] = UNSET


# --- Sichuan: the exchange and the void declaration (sichuan.md §4, §12) ----------

class TilesExchanged(Event):
    """换三张: each seat gave three tiles of one suit to the seat ``direction`` names
    (``next`` 下家, ``prev`` 上家, ``across`` seat + 2); ``given[s]`` are seat s's tiles."""

    #: To whom each seat gave: its next seat (下家), its previous one (上家) or the seat across.
    direction: Literal["next", "prev", "across"]
    #: The three tiles each seat gave, by seat.
    given: Annotated[list[Annotated[list[Tile], Meta(max_length=4)]], Meta(min_length=3, max_length=4)]


class VoidDeclared(Event):
    """定缺: ``seat`` declares ``suit`` its void suit (缺门) for the hand."""

    seat: Seat
    suit: Name


class PayerShare(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """One paying seat's part of a win where pairs differ (dealer pair, 连庄, birds):
    the fan it pays on, its pair multiple and the amount it owes."""

    seat: Seat
    fan: Count
    multiple: Count
    amount: Int32


class Winner(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """One winner as the server scored it."""

    seat: Seat
    #: The fans the server awarded.
    fans: Annotated[list[FanName], Meta(max_length=64)]
    #: The fan total the server claimed, before the cap.
    fan: Count
    #: What each paying seat owes before bets (P = base × 2^min(fan, cap)): one payer's base
    #: before pair factors.
    points: Count
    #: Each paying seat's share, when the server states them (the new families' pair factors).
    payers: Union[Annotated[list[PayerShare], Meta(max_length=3)], UnsetType] = UNSET


class HandWon(Event):
    """和 / 胡: one or several winners on one tile.  Several HandWon may follow one another
    in one moment (wins on tiles revealed after a kong)."""

    #: Each winner as the server scored it (several on 一炮多响).
    winners: Annotated[list[Winner], Meta(min_length=1, max_length=3)]
    how: WinKind
    tile: Tile
    #: The discarder or the kong adder; ``None`` on a self-draw.
    from_seat: Optional[Seat] = None


class HandDrawn(Event):
    """黄庄: the hand ends with no winner, ``remaining`` tiles left undrawn."""

    #: The tiles left undrawn when the hand ended.
    remaining: Annotated[int, Meta(ge=0, le=144)]


class Transfer(msgspec.Struct, frozen=True, kw_only=True, gc=False, forbid_unknown_fields=True):
    """One payment of a settlement: ``payer`` pays ``payee`` ``amount`` points for ``reason``."""

    #: The paying seat.
    payer: Seat
    #: The seat paid.
    payee: Seat
    #: The points paid.
    amount: Int32
    reason: TransferReason


class HandSettled(Event):
    """Every point transfer of the hand, in the order paid, and each score after."""

    #: Every transfer of the hand, in the order paid.
    transfers: Annotated[list[Transfer], Meta(max_length=256)]
    scores: PerSeat
    #: The reveal of the hand's wall commitment: the salt, and the wall when HandStarted did not
    #: carry it (docs/seal.md).
    reveal_salt: Union[Salt, UnsetType] = UNSET
    reveal_wall: Union[Wall, UnsetType] = UNSET


# --- the new families' events (shared/design/new-families.md §1) ----------------------

class IndicatorTurned(Event):
    """翻牌: the hand's indicator, turned once after the deal from the wall's head (``wall``)
    or its last undrawn tile (``tail``), set aside for the hand, and the wild kind the server
    derived from it."""

    tile: Tile
    wild: Tile
    source: DrawSource = "wall"


class TileSetAside(Event):
    """A tile set aside from ``seat``'s hand, not discarded (补花 a flower; 红中杠, 癞子杠 a
    single-tile kong): the seat's next event is its replacement, ``TileDrawn(source="tail")``."""

    seat: Seat
    tile: Tile


class OpeningWinDeclared(Event):
    """起手胡: ``seat`` shows ``tiles`` for the opening wins ``names`` before the dealer's first
    action."""

    seat: Seat
    names: Annotated[list[FanName], Meta(min_length=1, max_length=16)]
    tiles: Tiles


class KongRevealed(Event):
    """开杠: after a kong of ``mode = reveal``, ``tiles`` turned from the wall for ``seat``; open
    to wins until the next draw, then ``seat``'s discards."""

    seat: Seat
    tiles: Annotated[list[Tile], Meta(min_length=1, max_length=4)]
    source: RevealSource = "wall"


class LastTileOffered(Event):
    """海底: the last tile offered to ``seat``, taken (``accepted``) or declined."""

    seat: Seat
    accepted: bool


class BirdsDrawn(Event):
    """抓鸟: birds turned after a moment's last HandWon, counted from seat ``origin``."""

    #: The bird tiles turned, in order.
    tiles: Annotated[list[Tile], Meta(min_length=1, max_length=16)]
    origin: Seat
    source: BirdSource = "wall"


AnyEvent = Union[
    GameOpened, RoomResized, FeeCharged, FeeRefunded, GameClosed,
    HandStarted, PigBetPlaced, TilesDealt, TailTurned, TileDrawn, TileDiscarded,
    ClaimDeclared, ClaimPassed, Chowed, Ponged, KongExposed, KongAdded, KongConcealed,
    HandWon, HandDrawn, HandSettled,
    TilesExchanged, VoidDeclared,
    IndicatorTurned, TileSetAside, OpeningWinDeclared, KongRevealed, LastTileOffered, BirdsDrawn,
]

EVENT_TYPES: tuple[type[Event], ...] = AnyEvent.__args__  # type: ignore[attr-defined]


def json_schema() -> dict:
    """The JSON Schema of one log line, for server teams writing logs in any language."""
    return msgspec.json.schema(AnyEvent)
