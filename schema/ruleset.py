"""Rulesets: frozen data with every option of the rules document, and named presets.

A game log names a preset and may override any option; :func:`resolve` turns
the pair into the one :class:`Ruleset` the audit applies.  Rule variants are
data here plus a few small named functions in the engine, never class trees.
"""

from __future__ import annotations

from typing import Any, Literal

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

    def reserve_for(self, kongs: int) -> int:
        """Tiles that must remain undrawn before the hand is drawn (黄庄)."""
        if self.draw_reserve_by_kongs:
            table = self.draw_reserve_by_kongs
            return table[min(kongs, len(table) - 1)]
        return self.draw_reserve


PRESETS: dict[str, Ruleset] = {
    # 飞小鸡: 1s 小鸡 is wild.
    "qujing-xiaoji": Ruleset(wilds=("1s",)),
    # 飞白板: identical rules, 白板 replaces 小鸡; 1s is an ordinary tile.
    "qujing-baiban": Ruleset(wilds=("5z",)),
    # 双鬼: 飞白板 plus 红中 as a second ghost (8 wild tiles).
    "qujing-shuanggui": Ruleset(wilds=("5z", "7z")),
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
