"""Rulesets: frozen data with every option of the rules document, and named presets.

A game log names a preset and may override any option; :func:`resolve` turns
the pair into the one :class:`Ruleset` the audit applies.  Rule variants are
data here plus a few small named functions in the engine, never class trees.
"""

from __future__ import annotations

from typing import Any, Literal, Optional

import msgspec

from .tiles import Tile

#: The rule family a ruleset belongs to (``audits.rules`` holds one per name).
Family = str


class Ruleset(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Every option a room can set.  Field names are the option names in logs."""

    #: Which family of rules the engine applies (``qujing``; see ``audits.rules``).
    family: Family = "qujing"
    #: Wild tiles ("chickens", 鬼牌): 飞小鸡 ``1s``, 飞白板 ``5z``, 双鬼 ``5z`` + ``7z``.
    wilds: tuple[Tile, ...] = ("1s",)
    #: Seats at the table: 4, or 3 after a 4→3 change.
    players: int = 4
    #: 吃 chow allowed (only from 上家); must be ticked when the room is created.
    chow: bool = False
    #: Fan cap (满牌): points = base × 2^min(fan, fan_cap).
    fan_cap: int = 3
    #: 底分 base points.
    base: int = 1
    #: 点鸡 chicken points at the end of every hand (excludes 养猪).
    dianji: bool = False
    #: 养猪 pig bets of 0, 1 or 2 before the deal (excludes 点鸡).
    yangzhu: bool = False
    #: 20分敲锣: start at ``qiaoluo_points``, no score below 0, game ends at 0.
    qiaoluo: bool = False
    qiaoluo_points: int = 20
    #: 黄庄 exhaustive draw when this many tiles remain undrawn.
    draw_reserve: int = 20
    #: Whether the two face-up tail tiles count among the remaining tiles.
    draw_reserve_counts_tail: bool = True
    #: Optional threshold by number of kongs declared in the hand (index = kongs,
    #: the last entry for more); empty means ``draw_reserve`` always.
    draw_reserve_by_kongs: tuple[int, ...] = ()
    #: 五梅花: whether a chicken standing for ``5p`` counts.
    wumeihua_wild_5p: bool = False
    #: 四小鸡 (four chickens held) also wins on a discard; off: on one's own turn only.
    sixiaoji_on_discard: bool = False
    #: Special hands of the published sheets, off until specified.
    lanpai: bool = False
    shifeng: bool = False
    shisanyao: bool = False

    # --- Guangdong 鸡平和 (family ``guangdong``, guangdong.md §9) -------------------
    # ``chow``, ``base``, ``fan_cap`` and ``draw_reserve`` above are shared.
    #: 起和番: the least fan F a win needs (0: a 鸡和 wins on a discard too).
    min_fan: int = 0
    #: 一炮多响: every legal winner on one discard wins (off: 截和, the first in turn order).
    multi_win: bool = True
    #: 七对 (seven pairs) is a special hand worth this fan; None: not a winning hand.
    seven_pairs_fan: Optional[int] = None
    #: 平和 and 混一色 add up (3) instead of scoring the higher base type (2).
    base_types_stack: bool = False
    #: 九莲宝灯 only as the waiting shape 1112345678999 + one more of the suit.
    jiulian_strict: bool = True
    #: 漏和 bars the kind passed (``same_tile``) or every discard (``any_discard``).
    louhe_scope: Literal["same_tile", "any_discard"] = "same_tile"
    #: a 抢杠 chance let go starts 漏和 on that kind too.
    louhe_on_rob: bool = True
    #: 人和 on any discard before the winner's first draw, or only the dealer's first discard.
    renhe_scope: Literal["first_go_around", "dealer_first_discard"] = "first_go_around"
    #: 一炮三响: the discarder pays each winner P (``each``) or 3·P (``three_shares``).
    yipao_sanxiang_pay: Literal["each", "three_shares"] = "each"
    #: 包 precedence after 杠上开花包杠: 大三元/大四喜 before 12张落地, or the reverse.
    bao_precedence: Literal["special_first", "luodi_first"] = "special_first"
    #: 大三元/大四喜 包: the feeder of the claimed last set, or the discarder of the last kind.
    bao_special_trigger: Literal["claimed", "discarded"] = "claimed"
    #: 杠上开花包杠 also after further kongs in the turn that began with the exposed kong.
    gangkai_bao_chain: bool = True
    #: kong payments: none, or settled on a win (cancelled on 流局).
    kong_payments: Literal["none", "on_win"] = "none"
    #: a kong replacement is the last undrawn tile (``tail``) or the next one (``head``).
    kong_replacement: Literal["tail", "head"] = "tail"
    #: the last discard (no drawable tile left) may only be won on (``win_only``).
    last_discard_claims: Literal["win_only", "all"] = "win_only"

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise ValueError("players must be 3 or 4")
        if self.fan_cap not in (3, 4, 5, 6):
            raise ValueError("fan_cap must be 3, 4, 5 or 6")
        if self.base < 1:
            raise ValueError("base must be at least 1")
        if self.dianji and self.yangzhu:
            raise ValueError("点鸡 (dianji) and 养猪 (yangzhu) cannot both be on")
        if len(self.wilds) > 2 or len(set(self.wilds)) != len(self.wilds):
            raise ValueError("wilds must name at most two distinct tiles")
        if self.lanpai or self.shifeng or self.shisanyao:
            raise ValueError("烂牌 / 十风 / 十三幺 are not specified yet and cannot be enabled")
        if self.family == "guangdong":
            _check_guangdong(self)


    def reserve_for(self, kongs: int) -> int:
        """Tiles that must remain undrawn before the hand is drawn (黄庄)."""
        if self.draw_reserve_by_kongs:
            table = self.draw_reserve_by_kongs
            return table[min(kongs, len(table) - 1)]
        return self.draw_reserve


def _check_guangdong(r: "Ruleset") -> None:
    """Guangdong 鸡平和 (guangdong.md §1, §9): four seats, no wild tiles, 爆和 at 3."""
    if r.wilds:
        raise ValueError("Guangdong 鸡平和 has no wild tiles (wilds must be empty)")
    if r.players != 4:
        raise ValueError("Guangdong 鸡平和 is played by four seats only")
    if r.fan_cap != 3:
        raise ValueError("Guangdong 鸡平和 fixes 爆和 at 3 (fan_cap = 3)")
    if r.dianji or r.yangzhu or r.qiaoluo:
        raise ValueError("点鸡 / 养猪 / 敲锣 are Qujing options, not Guangdong ones")
    if not 0 <= r.min_fan <= 3:
        raise ValueError("min_fan must be 0, 1, 2 or 3")
    if r.seven_pairs_fan not in (None, 4, 5, 6):
        raise ValueError("seven_pairs_fan must be none, 4, 5 or 6")
    if r.draw_reserve < 0:
        raise ValueError("draw_reserve must be at least 0")


PRESETS: dict[str, Ruleset] = {
    # 飞小鸡: 1s 小鸡 is wild.
    "qujing-xiaoji": Ruleset(wilds=("1s",)),
    # 飞白板: identical rules, 白板 replaces 小鸡; 1s is an ordinary tile.
    "qujing-baiban": Ruleset(wilds=("5z",)),
    # 双鬼: 飞白板 plus 红中 as a second ghost (8 wild tiles).
    "qujing-shuanggui": Ruleset(wilds=("5z", "7z")),
    # Guangdong 鸡平和: no wild tiles, chow from 上家, 爆和 at 3 番, every tile drawable.
    "guangdong-jipinghu": Ruleset(family="guangdong", wilds=(), chow=True, draw_reserve=0),
}


class RulesetError(ValueError):
    """An unknown preset or an option that does not fit the ruleset."""


def resolve(preset: str, overrides: dict[str, Any] | None = None) -> Ruleset:
    """The ruleset a room plays: the named preset with ``overrides`` applied."""
    try:
        base = PRESETS[preset]
    except KeyError:
        raise RulesetError(f"unknown preset {preset!r}; known: {', '.join(PRESETS)}") from None
    if not overrides:
        return base
    merged = msgspec.structs.asdict(base) | dict(overrides)
    try:
        return msgspec.convert(merged, Ruleset)
    except (msgspec.ValidationError, ValueError) as e:
        raise RulesetError(f"ruleset {preset!r}: {e}") from None


def parse_options(texts: "list[str] | tuple[str, ...]") -> dict[str, Any]:
    """Parse repeated ``key=value`` options into an overrides dict."""
    return dict(parse_option(t) for t in texts)


def parse_option(text: str) -> tuple[str, Any]:
    """Parse ``key=value`` from a command line into an option pair (JSON values)."""
    if "=" not in text:
        raise RulesetError(f"option {text!r} is not key=value")
    key, _, raw = text.partition("=")
    key = key.strip()
    if key not in Ruleset.__struct_fields__:
        raise RulesetError(f"unknown option {key!r}; options: {', '.join(Ruleset.__struct_fields__)}")
    try:
        value = msgspec.json.decode(raw)
    except msgspec.DecodeError:
        value = raw
    if key == "wilds" and isinstance(value, str):
        value = [v for v in value.split(",") if v]
    return key, value
