"""Rulesets: frozen data with every option of the rules document, and named presets.

A game log names a preset and may override any option; :func:`resolve` turns
the pair into the one :class:`Ruleset` the audit applies.  Rule variants are
data here plus a few small named functions in the engine, never class trees.
"""

from __future__ import annotations

import functools
from typing import Any, Literal, Optional, Union

import msgspec

from .tiles import NUM_KINDS, TILE_NAMES, Tile

#: The rule family a ruleset belongs to (``audits.rules`` holds one per name).
Family = str
#: Tiles in each family's set where it is not the 136 of suits and honours: 108 suited tiles
#: (素麻将: no honours, no flowers) or 144 (136 and the eight flowers 1f..8f).
TILE_SETS: dict[str, int] = {"sichuan": 108, "changsha": 108, "hainan": 144}
#: The set's size for a family TILE_SETS does not name.
DEFAULT_TILE_COUNT = 136
#: Families whose hands are 16 tiles (+1 before a discard) instead of 13 (温州).
SIXTEEN_TILE_HANDS = frozenset({"wenzhou"})


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
    #: (Wuhan, wuhan.md §9.5: 放三铺 before 全求人, or the reverse; new-families.md §1's union)
    bao_precedence: Literal["special_first", "luodi_first", "sanpu_first", "quanqiuren_first"] = "special_first"
    #: 大三元/大四喜 包: the feeder of the claimed last set, or the discarder of the last kind.
    bao_special_trigger: Literal["claimed", "discarded"] = "claimed"
    #: 杠上开花包杠 also after further kongs in the turn that began with the exposed kong.
    gangkai_bao_chain: bool = True
    #: kong payments: none, or settled on a win (cancelled on 流局).
    kong_payments: Literal["none", "on_win", "at_end"] = "none"
    # --- Sichuan 四川麻将 (成都) and 血战到底 (family ``sichuan``, sichuan.md §11) ------------
    # ``base`` and ``fan_cap`` above are shared (``fan_cap`` 2 is allowed here).
    #: the hand ends at the first winning moment, or 血战到底 (winners leave until three won).
    hand_end: Literal["first_win", "xuezhan"] = "first_win"
    #: 定缺: each seat declares a void suit (``declared``), or a win holds at most two suits.
    dingque: Literal["declared", "none"] = "declared"
    #: void-suit tiles must be discarded first while held.
    void_first: bool = True
    #: a seat still holding void-suit tiles may pong and kong its other suits.
    claims_while_void: bool = True
    #: 换三张: three tiles of one suit exchanged before 定缺.
    huan_san_zhang: bool = False
    #: 自摸 pays P + B (加底), P with +1 fan (加番), or P.
    zimo_bonus: Literal["jiadi", "jiafan", "none"] = "jiadi"
    #: 点杠花 (杠上开花 after an exposed kong on X's discard) paid as a self-draw, or by X alone.
    dianganghua: Literal["zimo", "dianpao"] = "zimo"
    #: 带幺九 and 将对 score.
    yaojiu_jiangdui: bool = True
    #: a 七对 of 2s, 5s and 8s also scores 将对.
    jiang_qidui: bool = False
    #: 龙七对's value (3 or 4).
    longqidui_fan: int = 3
    #: 门清 and 中张 score +1 each.
    menqing_zhongzhang: bool = False
    #: 天胡 / 地胡 are worth 5 fan, replacing every other fan.
    tiandihu: bool = True
    #: 地胡 is the first self-draw only, or also a win on the dealer's first discard.
    dihe_scope: Literal["first_draw", "first_draw_or_dealer_discard", "dealer_first_discard",
                        "first_round_shangjia"] = "first_draw"
    #: 过水: a passed win bars lower-or-equal wins, every discard win, or nothing.
    guoshui: Literal["higher_fan", "any_discard", "off"] = "higher_fan"
    #: 过手碰: a passed pong bars that kind until one's own next action.
    guoshou_peng: bool = False
    #: 最后四张自动和 starts with the fourth-last draw, or as soon as four tiles remain.
    last_four_window: Literal["fourth_last_draw", "four_remaining"] = "fourth_last_draw"
    #: 擦挂: each other still-in seat also pays 1B on an exposed kong.
    cagua: bool = False
    #: 呼叫转移: a 杠上炮 moves the discarder's kong income to the winner.
    hujiao_zhuanyi: bool = True
    zhuanyi_scope: Literal["last_kong", "all_kongs"] = "last_kong"
    zhuanyi_multi: Literal["first", "each"] = "first"
    #: 查花猪 penalty: B × 2^cap (``cap``) or this many B.
    huazhu_penalty: Union[int, Literal["cap"]] = "cap"
    #: 花猪 also pay the seats that have won.
    huazhu_pays_winners: bool = False
    #: 查大叫 and 退税 at an exhaustive end.
    chadajiao: bool = True
    tuishui: bool = True
    #: a wait on a kind with no unseen copy still counts (查大叫).
    dead_wait_counts: bool = True
    #: next dealer after a hand with no win: the dealer's 下家 (``next``) or the dealer.
    draw_dealer: Literal["next", "stay", "stay_same_level", "pass_if_kong"] = "next"
    #: the first dealer is whoever the log names (``any``) or the room's creator.
    first_dealer: Literal["any", "creator"] = "any"
    #: a kong replacement is the last undrawn tile (``tail``) or the next one (``head``).
    kong_replacement: Literal["tail", "head"] = "tail"
    #: the last discard (no drawable tile left) may only be won on (``win_only``).
    last_discard_claims: Literal["win_only", "all"] = "win_only"

    # --- Xuzhou 徐州麻将 (family ``xuzhou``, xuzhou.md §9) -------------------------------
    # Shared options it reads: ``base``, ``chow``, ``draw_reserve``, ``draw_dealer``,
    # ``multi_win``, ``last_discard_claims``, ``kong_replacement``, ``wild_from``,
    # ``indicator_from``, ``wild_discard``, ``wild_stand_in``, ``guohu``, ``dealer_bonus``,
    # ``luanpai``.
    #: the lost "4-8" restriction read as 八枝: a 平和 needs eight tiles of one suit (no source).
    shape_gate: Literal["none", "bazhi"] = "none"
    #: U for a discard win or a rob: the discarder (adder) pays each winner U × B (no source).
    dianpao_units: int = 1
    #: U for a self-draw: each other seat pays U × B (no source).
    zimo_units: int = 1
    #: 下嘴: each seat bets 0..1 (``max_one``) or 0..2 (``max_two``) before the deal.
    xiazui: Literal["off", "max_one", "max_two"] = "off"

    # --- Wuhan 红中赖子杠 (family ``wuhan``, wuhan.md §10) --------------------------------------
    # Shared options it reads: ``base``, ``chow``, ``draw_reserve``, ``multi_win``, ``kong_replacement``,
    # ``wild_from``, ``indicator_from``, ``wild_discard``, ``guohu``, ``payment_cap`` (the 封顶 C),
    # ``win_dealer``, ``discard_payers``, ``qianggang_bao``, ``dahu_stack``, ``bao_precedence``.
    #: 开口番 (``kaikou``: 1 fan once a seat has called) or 口口番 (``koukou``: 1 fan per call).
    fan_mode: Literal["kaikou", "koukou"] = "kaikou"
    #: after a chow or pong, before discarding, a seat may declare kongs and single-tile kongs.
    kong_after_call: bool = True
    #: the 痞 kinds (痞子): 红中 alone, or 红中 and 发财 (红中发财赖子杠).
    pi_tiles: tuple[Tile, ...] = ("7z",)
    #: a 癞子 stands for a kind only while that kind's tiles held, melded and turned stay at most four.
    wild_max_four: bool = True
    #: 海底: the last four drawable tiles are draw-only (``last_four``), or only the last tile counts.
    haidi: Literal["last_four", "last_tile"] = "last_four"
    #: 碰碰胡 is a 大胡 (off: an ordinary 屁胡, the seed's literal list).
    pengpenghu_dahu: bool = True
    #: the most 癞子 a 大胡 may hold (None: any number).
    dahu_max_laizi: Optional[int] = None
    #: 癞子杠's fan (2, or the seed's "(×2)" read as 1).
    laizi_gang_fan: int = 2
    #: the dealer's 1 fan in a 屁胡.
    dealer_fan: bool = True
    #: 硬胡's fan in a 大胡 (1, or the rule sheet's 2).
    dahu_yinghu_fan: int = 1
    #: 杠开 and 海底捞 also get the self-draw bonus.
    kaihua_haidi_zimo: bool = False
    #: a 大胡's hand base H.
    dahu_base: int = 10
    #: a 大胡's self-draw / 放冲 bonus: by 番 mode (开口番 ×1.5, 口口番 1 fan), always ×1.5, always 1 fan.
    dahu_bonus: Literal["by_mode", "x1.5", "fan"] = "by_mode"
    #: 金顶 J: what each opened seat pays when all three reach the cap (None: C+100 under 开口番,
    #: C+200 under 口口番; 0: no 金顶).
    jinding: Optional[int] = None
    #: 阳光顶 G: what an unopened seat pays under 金顶 (None: J+100).
    yangguangding: Optional[int] = None
    #: 哈顶: under 金顶, when no paying seat has opened, each pays this (0: off).
    hading: int = 0
    #: 起胡: the least multiple a 屁胡 needs (0: none).
    qihu: int = 0
    #: 起胡 measured on the feeder's multiple (the largest on a self-draw), or the smallest.
    qihu_basis: Literal["feeder", "min"] = "feeder"
    #: 放三铺 包: the third call's feeder pays for a 清一色 (and a 将一色), or no 包.
    bao_sanpu: Literal["qingyise", "qingyise_jiangyise", "off"] = "qingyise"
    #: 全求人 包: the discarder pays all when it was not ready, always, or never.
    quanqiuren_bao: Literal["if_not_ready", "always", "off"] = "if_not_ready"
    # --- Changsha 长沙麻将 (family ``changsha``, changsha.md §11) -------------------------
    # Shared options it reads: ``base``, ``first_dealer``, ``multi_win``, ``kong_payments``
    # (``none``), ``guohu``, ``tiandihu``, ``dihe_scope``, ``qianggang_bao`` (rob_payment),
    # ``dahu_stack`` (big_combine), ``dealer_bonus``.
    #: 起手胡: each declared opening win is worth this many B from each other seat.
    qishou_value: int = 2
    #: the card-room opening wins 步步高, 金童玉女, 一枝花, 三同 are played too.
    extra_qishou: bool = False
    #: 四喜 / 六六顺 / 缺一色 count once per occurrence (four-of-a-kind, two triplets, missing suit).
    qishou_repeat: bool = False
    #: the birds multiply the opening bases too (off: they act on the hand base only).
    qishou_birds: bool = True
    #: 开杠: how many tiles are turned face up after a kong in mode ``reveal`` (2 or 4).
    kaigang_count: int = 2
    #: where the 开杠 tiles come from: anywhere undrawn (``free``) or the last undrawn tiles.
    kaigang_source: Literal["free", "tail"] = "free"
    #: claims on a revealed tile: only 胡 (``win_only``), or one chow / pong / kong as a discard.
    kaigang_claims: Literal["win_only", "all"] = "win_only"
    #: two revealed tiles completing the konger's hand: 杠上开花 counted twice, or once.
    shuang_gangkai: Literal["double", "single"] = "double"
    #: a 补张 replacement that completes the hand counts 杠上开花.
    buzhang_kaihua: bool = False
    #: 假将胡: a small win with any pair (off: the pair is 2, 5 or 8).
    jiajiang_hu: bool = False
    #: 全求人 also by self-draw (off: only on a discard).
    quanqiuren_self_draw: bool = True
    #: 全求人 needs a 将 pair (全求人吊将).
    quanqiuren_258: bool = False
    #: 扎鸟: birds drawn after a win (0, 1, 2, 4 or 6).
    bird_count: int = 2
    #: birds from the head of the undrawn wall (draw order) or its tail (last first).
    bird_source: Literal["head", "tail"] = "head"
    #: with no tile left, one bird repeats the last tile that left the wall, or none.
    empty_wall_bird: Literal["last_tile", "none"] = "last_tile"
    #: the seat birds count from: the winner (the giver on a multi-win) or the dealer.
    bird_origin: Literal["winner", "dealer"] = "winner"
    #: a pair's factor for m birds on its seats: × (1 + m), × 2^m, or + m B.
    bird_mode: Literal["add_multiple", "double", "plus_point"] = "add_multiple"
    # --- Wenzhou 温州麻将 (family ``wenzhou``, wenzhou.md §10) -------------------------------
    # Shared options it reads: ``base``, ``chow``, ``draw_reserve``, ``indicator_from``,
    # ``wild_from`` (same), ``wild_discard`` (forbidden), ``wild_stand_in``, ``multi_win`` (off),
    # ``lianzhuang``, ``discard_payers``, ``kong_payments`` (``at_end``), ``draw_dealer``, ``dihe_scope``.
    #: 烧中发: a 财神 cannot stand for 中 or 发 either.
    shaozhongfa: bool = False
    #: 出牌顺序: single honours are discarded first, and a single of the honour just discarded.
    honour_first: bool = True
    #: 财神单钓: a seat waiting with a 财神 alone wins by self-draw only, or also on a discard.
    caishen_dandiao: Literal["self_draw_only", "free"] = "self_draw_only"
    #: a soft 八对 (a 财神 standing for another kind) is a win worth ×1.
    soft_badui: bool = False
    #: the bare 三财神 win is also allowed on a discard.
    sancaishen_on_discard: bool = False
    #: 硬牌 ×2 on any win without a 财神 standing in (``any_win``) or on a self-draw only.
    ying_scope: Literal["any_win", "self_draw_only"] = "any_win"
    #: 双翻 hands besides the seed's five: none, 碰碰和, or the 特殊双翻 set.
    extra_shuangfan: Literal["none", "pengpeng", "teshu"] = "none"
    #: 辣子辣: three 财神 held and all 归位 is ×8.
    lazila: bool = False
    #: 买底 / 顶底 side bets at each new dealership.
    maidi: bool = False
    #: 财神钱: money per 财神 held at the end of every hand.
    caishenqian: bool = False
    #: after a level-4 hand: seats are re-drawn (``redraw``, not audited) or the 下家 deals (``pass``).
    after_fourth: Literal["redraw", "pass"] = "redraw"
    # --- Hainan 海南麻将 (family ``hainan``, hainan.md §10) ----------------------------------
    # Shared options it reads: ``base``, ``chow``, ``kong_replacement``, ``draw_reserve`` (15),
    # ``last_discard_claims``, ``guohu`` (off / same_tile), ``luanpai`` (十三幺: shisanlan /
    # shisanyao / both), ``min_fan`` (the 番 gate: 1 on, 0 off), ``lianzhuang`` (none / add /
    # multiply), ``kong_payments`` (on_win), ``multi_win`` (off), ``draw_dealer`` (stay).
    #: opening 补花: each seat sets aside all its flowers in turn from the dealer (``by_seat``),
    #: or one flower per seat per round (``by_round``).
    opening_buhua: Literal["by_seat", "by_round"] = "by_seat"
    #: 七对: four equal tiles count as two pairs.
    qidui_four_as_two: bool = True
    #: 门清 holds with concealed kongs.
    menqing_concealed_kong: bool = False
    #: any kong is a 番 source (``gang``).
    kong_fan: bool = False
    #: 庄闲: points added to the unit of every pair with the dealer (an integer, not × B).
    dealer_unit_bonus: int = 0
    #: the hand multiplier m: 1 (``none``, the seed: 番 are no multiple), the additive table or
    #: the multiplicative one (hainan.md §9.1).
    hand_multiplier: Literal["none", "additive", "multiplicative"] = "none"
    #: kong money per other seat, in units: (直杠, 补杠, 暗杠).
    kong_values: tuple[int, int, int] = (1, 1, 2)
    #: 包杠: a 直杠 on the dealer's first discard is paid by the dealer alone.
    baogang: bool = True
    #: 四道: four claims between winner and feeder make the feeder pay a self-draw alone.
    bao_sidao: bool = True
    #: 海底包牌: a discard win on a discard made at R <= ``haidi_bao_from`` is paid by the discarder alone.
    haidi_bao: bool = False
    haidi_bao_from: int = 19
    #: 跟牌: paid on a won hand (``on_win``), also at 黄庄 (``always``), or never (``off``).
    genpai: Literal["on_win", "always", "off"] = "on_win"
    #: flower money: none, or 真花 sets (all of 春夏秋冬 or 梅兰菊竹) × ``flower_set_value`` units.
    flower_money: Literal["none", "sets"] = "none"
    flower_set_value: int = 1

    # --- options the new families share (shared/design/new-families.md §1) -----------------
    # Each default is what the three families above play; they reject any other value
    # (``_keeps_shared_defaults``) until they read the option.
    #: where the hand's wild comes from: ``wilds`` as set (``preset``), or a turned indicator
    #: (IndicatorTurned) naming its own kind (``same``) or the next kind in its cycle (``next``).
    wild_from: Literal["preset", "same", "next"] = "preset"
    #: the indicator is turned from the wall's head or its tail.
    indicator_from: Literal["head", "tail"] = "head"
    #: a wild discarded is a plain tile (``plain``), a dead discard nobody may claim or win on
    #: (``dead``), or may not be discarded at all (``forbidden``).
    wild_discard: Literal["plain", "dead", "forbidden"] = "plain"
    #: a stand-in (e.g. ``5z`` 白板): while the wild is another kind, it plays as the wild's
    #: natural kind.  None: no stand-in.
    wild_stand_in: Optional[Tile] = None
    #: passed wins (过胡 / 漏和 / 过水), one option over the three pass codes: nothing barred,
    #: the kind passed, every discard win, or only a higher-valued win.  None: the family's own
    #: options (Guangdong ``louhe_scope``, Sichuan ``guoshui``, Qujing 过胡).
    guohu: Optional[Literal["off", "same_tile", "any_discard", "higher_value"]] = None
    #: the most one payer pays one winner, in units of ``base`` (0: no cap; ``fan_cap`` is the fan cap).
    payment_cap: int = 0
    #: 连庄: the dealer pair's base after L hands in a row (level L): B (``none``), B+L−1
    #: (``add``), B·L (``multiply``), 2L·B (``jinjie1``), 2^L·B (``jinjie2``).
    lianzhuang: Literal["none", "add", "multiply", "jinjie1", "jinjie2"] = "none"
    #: the dealer after a win: the dealer's 下家 unless the dealer won (``rotate``) or the
    #: winner (``winner``).  None: the family's own rotation.
    win_dealer: Optional[Literal["rotate", "winner"]] = None
    #: who pays a discard win: every other seat, the discarder, the discarder on a 屁胡 only,
    #: or the discarder for every seat.  None: the family's own payers.
    discard_payers: Optional[Literal["all", "discarder", "discarder_pihu", "discarder_for_all"]] = None
    #: 抢杠包: the kong adder alone pays every paying seat's share.  None: the family's own rule.
    qianggang_bao: Optional[bool] = None
    #: several 大胡 in one win add up or double.  None: the family's own scoring.
    dahu_stack: Optional[Literal["add", "double"]] = None
    #: the dealer's bonus on a hand it wins or pays: none, one more unit, one per unit, or double.
    dealer_bonus: Literal["none", "plus_one", "per_unit", "double"] = "none"
    #: 乱牌: unconnected-tile hands that win: none, 十三烂, 十三幺, or both.
    luanpai: Literal["off", "shisanlan", "shisanyao", "both"] = "off"

    def __post_init__(self) -> None:
        if self.players not in (3, 4):
            raise ValueError("players must be 3 or 4")
        if self.base < 1:
            raise ValueError("base must be at least 1")
        if self.dianji and self.yangzhu:
            raise ValueError("点鸡 (dianji) and 养猪 (yangzhu) cannot both be on")
        if len(self.wilds) > 2 or len(set(self.wilds)) != len(self.wilds):
            raise ValueError("wilds must name at most two distinct tiles")
        if self.lanpai or self.shifeng or self.shisanyao:
            raise ValueError("烂牌 / 十风 / 十三幺 are not specified yet and cannot be enabled")
        if self.payment_cap < 0:
            raise ValueError("payment_cap must be 0 (no cap) or more")
        _keeps_other_families_defaults(self)
        check = FAMILY_CHECKS.get(self.family)
        if check is not None:
            check(self)

    # --- set size and how a hand ends (neutral; Sichuan is the first family that needs them) --
    @property
    def tile_count(self) -> int:
        """Tiles in the set: the family's entry in :data:`TILE_SETS` (108 suited tiles,
        144 with flowers), else 136."""
        return TILE_SETS.get(self.family, DEFAULT_TILE_COUNT)

    @property
    def hand_size(self) -> int:
        """Tiles a hand holds between turns (sets as 3): 13, or 16 in the 16-tile families.
        The dealer is dealt ``hand_size + 1``; a player about to discard holds as many."""
        return 16 if self.family in SIXTEEN_TILE_HANDS else 13

    @property
    def tile_kinds(self) -> tuple[str, ...]:
        """The kinds the set holds four of each: the 27 suited kinds (1m..9s) of a 108-tile set,
        else the 34 (flowers, one of each, are not among them)."""
        return TILE_NAMES[:27] if self.tile_count == 108 else TILE_NAMES[:NUM_KINDS]

    @property
    def wins_to_end(self) -> int:
        """How many seats must have won for the hand to end: 1, or all but one under
        血战到底 (``hand_end = xuezhan``), where a winner leaves and play goes on."""
        return self.players - 1 if self.hand_end == "xuezhan" else 1

    def reserve_for(self, kongs: int) -> int:
        """Tiles that must remain undrawn before the hand is drawn (黄庄)."""
        if self.draw_reserve_by_kongs:
            table = self.draw_reserve_by_kongs
            return table[min(kongs, len(table) - 1)]
        return self.draw_reserve


#: The shared options' defaults (above): the three families that do not read them play these.
SHARED_DEFAULTS: dict[str, Any] = {
    "wild_from": "preset", "indicator_from": "head", "wild_discard": "plain", "wild_stand_in": None,
    "guohu": None, "payment_cap": 0, "lianzhuang": "none", "win_dealer": None, "discard_payers": None,
    "qianggang_bao": None, "dahu_stack": None, "dealer_bonus": "none", "luanpai": "off",
}


def _keeps_shared_defaults(r: "Ruleset", label: str) -> None:
    """A family that does not read a shared option plays it at its default only."""
    for name, default in SHARED_DEFAULTS.items():
        if getattr(r, name) != default:
            raise ValueError(f"{name} is not an option of {label} (it must stay {default!r})")


def _check_fan_cap(r: "Ruleset", allowed: tuple[int, ...]) -> None:
    if r.fan_cap not in allowed:
        raise ValueError(f"fan_cap must be {', '.join(map(str, allowed[:-1]))} or {allowed[-1]}")


def _check_qujing(r: "Ruleset") -> None:
    """Qujing (qujing.md): 满牌 at 3 to 6 fan; none of the new families' shared options."""
    _check_fan_cap(r, (3, 4, 5, 6))
    _keeps_shared_defaults(r, "Qujing")


def _check_guangdong(r: "Ruleset") -> None:
    """Guangdong 鸡平和 (guangdong.md §1, §9): four seats, no wild tiles, 爆和 at 3."""
    _check_fan_cap(r, (3, 4, 5, 6))
    _keeps_shared_defaults(r, "Guangdong 鸡平和")
    if r.wilds:
        raise ValueError("Guangdong 鸡平和 has no wild tiles (wilds must be empty)")
    if r.players != 4:
        raise ValueError("Guangdong 鸡平和 is played by four seats only")
    if r.fan_cap != 3:
        raise ValueError("Guangdong 鸡平和 fixes 爆和 at 3 (fan_cap = 3)")
    if r.dianji or r.yangzhu or r.qiaoluo:
        raise ValueError("点鸡 / 养猪 / 敲锣 are Qujing options, not Guangdong ones")
    if r.kong_payments == "at_end":
        raise ValueError("kong_payments must be none or on_win")
    if not 0 <= r.min_fan <= 3:
        raise ValueError("min_fan must be 0, 1, 2 or 3")
    if r.seven_pairs_fan not in (None, 4, 5, 6):
        raise ValueError("seven_pairs_fan must be none, 4, 5 or 6")
    if r.draw_reserve < 0:
        raise ValueError("draw_reserve must be at least 0")
    if r.bao_precedence not in ("special_first", "luodi_first"):
        raise ValueError("bao_precedence must be special_first or luodi_first")


def _check_sichuan(r: "Ruleset") -> None:
    """Sichuan (sichuan.md §1, §11): four seats, 108 suited tiles, no wilds, no chow."""
    _check_fan_cap(r, (2, 3, 4, 5, 6))
    _keeps_shared_defaults(r, "Sichuan")
    if r.dihe_scope == "dealer_first_discard":
        raise ValueError("dihe_scope dealer_first_discard is not a Sichuan value")
    if r.wilds:
        raise ValueError("Sichuan 素麻将 has no wild tiles (wilds must be empty)")
    if r.players != 4:
        raise ValueError("Sichuan presets are played by four seats only")
    if r.chow:
        raise ValueError("Sichuan 不可以吃: chow cannot be enabled")
    if r.dianji or r.yangzhu or r.qiaoluo:
        raise ValueError("点鸡 / 养猪 / 敲锣 are Qujing options, not Sichuan ones")
    if r.draw_dealer not in ("next", "stay") or r.dihe_scope not in ("first_draw", "first_draw_or_dealer_discard"):
        raise ValueError("draw_dealer must be next or stay and dihe_scope first_draw or first_draw_or_dealer_discard")
    if r.longqidui_fan not in (3, 4):
        raise ValueError("longqidui_fan must be 3 or 4")
    if r.huazhu_penalty != "cap" and (not isinstance(r.huazhu_penalty, int) or r.huazhu_penalty < 1):
        raise ValueError("huazhu_penalty must be 'cap' or an integer >= 1")


def _check_xuzhou(r: "Ruleset") -> None:
    """Xuzhou 徐州麻将 (xuzhou.md §1, §9): four seats, one 配子 kind per hand from a turned
    indicator, 白板 standing in, 过胡 fixed by the seed (``guohu = any_discard``), no fan."""
    if r.players != 4:
        raise ValueError("Xuzhou is specified for four seats only")
    if r.wild_from not in ("next", "same"):
        raise ValueError("Xuzhou's 配子 comes from a turned indicator: wild_from must be next or same")
    if len(r.wilds) > 1:
        raise ValueError("Xuzhou plays one 配子 kind per hand (wilds names at most one tile)")
    if r.wild_discard not in ("dead", "forbidden"):
        raise ValueError("a discarded 配子 is dead or forbidden (wild_discard)")
    if r.wild_stand_in not in ("5z", None):
        raise ValueError("Xuzhou's stand-in is 白板 (wild_stand_in 5z) or none")
    if r.guohu != "any_discard":
        raise ValueError("过胡 is fixed by the seed: guohu must be any_discard")
    if r.luanpai not in ("shisanlan", "shisanyao", "off"):
        raise ValueError("luanpai must be shisanlan, shisanyao or off")
    if r.dealer_bonus not in ("plus_one", "double", "none"):
        raise ValueError("dealer_bonus must be plus_one, double or none")
    if r.draw_dealer not in ("next", "stay"):
        raise ValueError("draw_dealer must be next or stay")
    if r.dianpao_units < 1 or r.zimo_units < 1:
        raise ValueError("dianpao_units and zimo_units must be at least 1")
    if r.draw_reserve < 0:
        raise ValueError("draw_reserve must be at least 0")
    if r.dianji or r.yangzhu or r.qiaoluo:
        raise ValueError("点鸡 / 养猪 / 敲锣 are Qujing options, not Xuzhou ones (下嘴 is xiazui)")
    if r.payment_cap or r.lianzhuang != "none" or r.win_dealer is not None or r.discard_payers is not None \
            or r.qianggang_bao is not None or r.dahu_stack is not None:
        raise ValueError("payment_cap / lianzhuang / win_dealer / discard_payers / qianggang_bao / dahu_stack "
                         "are not Xuzhou options")


def _check_wuhan(r: "Ruleset") -> None:
    """Wuhan 红中赖子杠 (wuhan.md §1, §10): four seats, one 癞子 kind per hand (the kind after a
    turned indicator), 痞 tiles and 癞子 never discarded, no fan cap (the cap is on money)."""
    if r.players != 4:
        raise ValueError("Wuhan 红中赖子杠 is specified for four seats only")
    if r.wild_from != "next":
        raise ValueError("Wuhan's 癞子 is the kind after the indicator: wild_from must be next")
    if len(r.wilds) > 1:
        raise ValueError("Wuhan plays one 癞子 kind per hand (wilds names at most one tile)")
    if r.wild_discard != "forbidden":
        raise ValueError("a 癞子 leaves a hand only as a 癞子杠: wild_discard must be forbidden")
    if tuple(r.pi_tiles) not in (("7z",), ("7z", "6z")):
        raise ValueError("pi_tiles must be [7z] or [7z, 6z]")
    if r.guohu not in ("off", "same_tile"):
        raise ValueError("guohu must be off or same_tile")
    if r.win_dealer not in ("rotate", "winner"):
        raise ValueError("win_dealer must be rotate or winner")
    if r.discard_payers not in ("all", "discarder", "discarder_pihu"):
        raise ValueError("discard_payers must be all, discarder or discarder_pihu")
    if r.qianggang_bao is None or r.dahu_stack is None:
        raise ValueError("qianggang_bao and dahu_stack must be set")
    if r.bao_precedence not in ("sanpu_first", "quanqiuren_first"):
        raise ValueError("bao_precedence must be sanpu_first or quanqiuren_first")
    if r.dahu_max_laizi not in (None, 2) or r.laizi_gang_fan not in (1, 2) or r.dahu_yinghu_fan not in (1, 2):
        raise ValueError("dahu_max_laizi is none or 2; laizi_gang_fan and dahu_yinghu_fan are 1 or 2")
    if r.dahu_base < 1 or r.draw_reserve < 0 or r.qihu < 0 or r.hading < 0:
        raise ValueError("dahu_base must be at least 1; draw_reserve, qihu and hading at least 0")
    if (r.jinding is not None and r.jinding < 0) or (r.yangguangding is not None and r.yangguangding < 0):
        raise ValueError("jinding and yangguangding must be at least 0")
    if r.dianji or r.yangzhu or r.qiaoluo or r.lianzhuang != "none" or r.dealer_bonus != "none" \
            or r.luanpai != "off" or r.wild_stand_in is not None:
        raise ValueError("点鸡 / 养猪 / 敲锣 / lianzhuang / dealer_bonus / luanpai / wild_stand_in are not Wuhan options")
#: The Changsha options' defaults (changsha.md §11): every other family plays them only.
CHANGSHA_DEFAULTS: dict[str, Any] = {
    "qishou_value": 2, "extra_qishou": False, "qishou_repeat": False, "qishou_birds": True, "kaigang_count": 2,
    "kaigang_source": "free", "kaigang_claims": "win_only", "shuang_gangkai": "double", "buzhang_kaihua": False,
    "jiajiang_hu": False, "quanqiuren_self_draw": True, "quanqiuren_258": False, "bird_count": 2,
    "bird_source": "head", "empty_wall_bird": "last_tile", "bird_origin": "winner", "bird_mode": "add_multiple",
}


def _check_changsha(r: "Ruleset") -> None:
    """Changsha 长沙麻将 (changsha.md §1, §11): four seats, 108 suited tiles, no wilds, chow from
    上家, no kong money; the shared options at the values the spec allows."""
    if r.players != 4:
        raise ValueError("Changsha is specified for four seats only")
    if r.wilds:
        raise ValueError("Changsha has no wild tiles (wilds must be empty; 红中 rooms are another ruleset)")
    if not r.chow:
        raise ValueError("Changsha plays chow from 上家 (chow must be true)")
    if r.dianji or r.yangzhu or r.qiaoluo:
        raise ValueError("点鸡 / 养猪 / 敲锣 are Qujing options, not Changsha ones")
    if r.kong_payments != "none":
        raise ValueError("Changsha pays nothing for kongs (kong_payments must be none)")
    if r.qishou_value < 1:
        raise ValueError("qishou_value must be at least 1")
    if r.kaigang_count not in (2, 4):
        raise ValueError("kaigang_count must be 2 or 4")
    if r.bird_count not in (0, 1, 2, 4, 6):
        raise ValueError("bird_count must be 0, 1, 2, 4 or 6")
    if r.guohu not in ("any_discard", "higher_value", "off"):
        raise ValueError("guohu must be any_discard (过胡 until one's own turn), higher_value or off")
    if r.dihe_scope not in ("dealer_first_discard", "first_draw"):
        raise ValueError("dihe_scope must be dealer_first_discard or first_draw")
    if r.dealer_bonus not in ("plus_one", "per_unit", "none"):
        raise ValueError("dealer_bonus must be plus_one (once per pair), per_unit or none")
    if r.qianggang_bao is None or r.dahu_stack is None:
        raise ValueError("qianggang_bao (rob_payment) and dahu_stack (big_combine) must be set")
    if r.draw_reserve != 0:
        raise ValueError("Changsha has no dead wall (draw_reserve must be 0)")
    if r.wild_from != "preset" or r.wild_discard != "plain" or r.wild_stand_in is not None or r.payment_cap \
            or r.lianzhuang != "none" or r.win_dealer is not None or r.discard_payers is not None \
            or r.luanpai != "off":
        raise ValueError("wild_from / wild_discard / wild_stand_in / payment_cap / lianzhuang / win_dealer / "
                         "discard_payers / luanpai are not Changsha options")


#: Each family's own options (its section of :class:`Ruleset`): every other family plays them
#: at their defaults only (:func:`_keeps_other_families_defaults`).
OWN_OPTIONS: dict[str, tuple[str, ...]] = {
    "wuhan": ("fan_mode", "kong_after_call", "pi_tiles", "wild_max_four", "haidi", "pengpenghu_dahu",
              "dahu_max_laizi", "laizi_gang_fan", "dealer_fan", "dahu_yinghu_fan", "kaihua_haidi_zimo",
              "dahu_base", "dahu_bonus", "jinding", "yangguangding", "hading", "qihu", "qihu_basis",
              "bao_sanpu", "quanqiuren_bao"),
    "changsha": tuple(CHANGSHA_DEFAULTS),
    "wenzhou": ("shaozhongfa", "honour_first", "caishen_dandiao", "soft_badui", "sancaishen_on_discard",
                "ying_scope", "extra_shuangfan", "lazila", "maidi", "caishenqian", "after_fourth"),
    "hainan": ("opening_buhua", "qidui_four_as_two", "menqing_concealed_kong", "kong_fan", "dealer_unit_bonus",
               "hand_multiplier", "kong_values", "baogang", "bao_sidao", "haidi_bao", "haidi_bao_from", "genpai",
               "flower_money", "flower_set_value"),
}


@functools.lru_cache(maxsize=None)
def _option_defaults() -> dict[str, Any]:
    """Every option's default (read once: ``msgspec.structs.fields`` evaluates the annotations
    again on each call, some 10 ms, which every game's opening would pay)."""
    return {f.name: f.default for f in msgspec.structs.fields(Ruleset)}


def _keeps_other_families_defaults(r: "Ruleset") -> None:
    """A family plays every other family's own options at their defaults only."""
    defaults = _option_defaults()
    for family, names in OWN_OPTIONS.items():
        if family == r.family:
            continue
        for name in names:
            if getattr(r, name) != defaults[name]:
                raise ValueError(f"{name} is a {family} option, not one of {r.family} "
                                 f"(it must stay {defaults[name]!r})")


def _check_wenzhou(r: "Ruleset") -> None:
    """Wenzhou 温州麻将 (wenzhou.md §1, §10): four seats, 136 tiles, one 财神 kind per hand (the
    turned tile's own kind) with 白板 standing in, a 财神 never discarded, one winner (截和)."""
    if r.players != 4:
        raise ValueError("Wenzhou is specified for four seats only")
    if r.wild_from != "same":
        raise ValueError("Wenzhou's 财神 is the turned tile's own kind: wild_from must be same")
    if len(r.wilds) > 1:
        raise ValueError("Wenzhou plays one 财神 kind per hand (wilds names at most one tile)")
    if r.wild_discard != "forbidden":
        raise ValueError("a 财神 is never discarded: wild_discard must be forbidden")
    if r.wild_stand_in != "5z":
        raise ValueError("Wenzhou's stand-in is 白板 (wild_stand_in 5z)")
    if r.multi_win:
        raise ValueError("one winner only (截和): multi_win must be off")
    if not r.chow:
        raise ValueError("Wenzhou allows 吃 from the 上家: chow must be on")
    if r.lianzhuang not in ("multiply", "jinjie1", "jinjie2"):
        raise ValueError("the 进阶 level base (lianzhuang) must be multiply, jinjie1 or jinjie2")
    if r.discard_payers not in ("all", "discarder_for_all"):
        raise ValueError("discard_payers must be all or discarder_for_all")
    if r.kong_payments not in ("none", "at_end"):
        raise ValueError("kong_payments (杠算分) must be none or at_end")
    if r.draw_dealer not in ("stay", "stay_same_level", "pass_if_kong", "next"):
        raise ValueError("draw_dealer must be stay, stay_same_level, pass_if_kong or next")
    if r.dihe_scope not in ("dealer_first_discard", "first_round_shangjia"):
        raise ValueError("dihe_scope must be dealer_first_discard or first_round_shangjia")
    if r.guohu != "off":
        raise ValueError("no pass rule is specified: guohu must be off")
    if r.draw_reserve < 0:
        raise ValueError("draw_reserve must be at least 0")
    if r.dianji or r.yangzhu or r.qiaoluo:
        raise ValueError("点鸡 / 养猪 / 敲锣 are Qujing options, not Wenzhou ones (买底 is maidi)")
    if r.payment_cap or r.win_dealer is not None or r.qianggang_bao is not None or r.dahu_stack is not None \
            or r.dealer_bonus != "none" or r.luanpai != "off":
        raise ValueError("payment_cap / win_dealer / qianggang_bao / dahu_stack / guohu / dealer_bonus / luanpai "
                         "are not Wenzhou options")


def _check_hainan(r: "Ruleset") -> None:
    """Hainan 海南麻将 (hainan.md §1, §10): four seats, 144 tiles with flowers, no wilds, one
    winner per tile, the 番 gate as ``min_fan`` 1 (or 0), kong money on won hands."""
    if r.players != 4:
        raise ValueError("Hainan is specified for four seats only (seat flowers and 包牌 name four positions)")
    if r.wilds or r.wild_from != "preset" or r.wild_discard != "plain" or r.wild_stand_in is not None:
        raise ValueError("Hainan has no wild tiles (wilds must be empty)")
    if r.multi_win:
        raise ValueError("截胡: one winner per tile (multi_win must be off)")
    if r.min_fan not in (0, 1):
        raise ValueError("min_fan is the 番 gate: 1 (有番才能胡) or 0 (无番)")
    if r.guohu not in ("off", "same_tile"):
        raise ValueError("guohu must be off or same_tile")
    if r.luanpai not in ("shisanlan", "shisanyao", "both"):
        raise ValueError("luanpai (十三幺) must be shisanlan, shisanyao or both")
    if r.lianzhuang not in ("none", "add", "multiply"):
        raise ValueError("lianzhuang must be none, add or multiply")
    if r.kong_payments != "on_win":
        raise ValueError("明杠暗杠都要钱: kong_payments must be on_win")
    if r.draw_dealer != "stay":
        raise ValueError("黄庄，则由庄家继续坐庄: draw_dealer must be stay")
    if r.draw_reserve < 0 or r.dealer_unit_bonus < 0 or r.haidi_bao_from < 0 or r.flower_set_value < 0:
        raise ValueError("draw_reserve, dealer_unit_bonus, haidi_bao_from and flower_set_value must be at least 0")
    if len(r.kong_values) != 3 or min(r.kong_values) < 0:
        raise ValueError("kong_values are three integers >= 0 (直杠, 补杠, 暗杠)")
    if r.dianji or r.yangzhu or r.qiaoluo:
        raise ValueError("点鸡 / 养猪 / 敲锣 are Qujing options, not Hainan ones")
    if r.payment_cap or r.win_dealer is not None or r.discard_payers is not None or r.qianggang_bao is not None \
            or r.dahu_stack is not None or r.dealer_bonus != "none":
        raise ValueError("payment_cap / win_dealer / discard_payers / qianggang_bao / dahu_stack / dealer_bonus "
                         "are not Hainan options (the dealer's points are dealer_unit_bonus)")


#: Each family's own validation (``_check_<family>``); a family it does not name (a new or
#: toy family) checks its options where it is built.
FAMILY_CHECKS = {"qujing": _check_qujing, "guangdong": _check_guangdong, "sichuan": _check_sichuan,
                 "xuzhou": _check_xuzhou, "wuhan": _check_wuhan, "changsha": _check_changsha,
                 "wenzhou": _check_wenzhou, "hainan": _check_hainan}


PRESETS: dict[str, Ruleset] = {
    # 飞小鸡: 1s 小鸡 is wild.
    "qujing-xiaoji": Ruleset(wilds=("1s",)),
    # 飞白板: identical rules, 白板 replaces 小鸡; 1s is an ordinary tile.
    "qujing-baiban": Ruleset(wilds=("5z",)),
    # 双鬼: 飞白板 plus 红中 as a second ghost (8 wild tiles).
    "qujing-shuanggui": Ruleset(wilds=("5z", "7z")),
    # Guangdong 鸡平和: no wild tiles, chow from 上家, 爆和 at 3 番, every tile drawable.
    "guangdong-jipinghu": Ruleset(family="guangdong", wilds=(), chow=True, draw_reserve=0),
    # Sichuan 四川麻将 (成都): 108 suited tiles, 定缺, no chow, the hand ends at the first win.
    "sichuan": Ruleset(family="sichuan", wilds=(), draw_reserve=0),
    # 血战到底: identical, except winners leave and play goes on until three have won.
    "sichuan-xuezhan": Ruleset(family="sichuan", wilds=(), draw_reserve=0, hand_end="xuezhan"),
    # Xuzhou 徐州麻将: a 配子 per hand (the kind after a turned tile) with 白板 standing in, chow
    # from 上家, 一炮多响, 过胡, no fan: 点炮 1 B, 自摸 1 B from each, +1 B when the dealer pays or wins.
    "xuzhou": Ruleset(family="xuzhou", wilds=(), chow=True, draw_reserve=0, draw_dealer="stay",
                      last_discard_claims="all", wild_from="next", indicator_from="head", wild_discard="dead",
                      wild_stand_in="5z", guohu="any_discard", dealer_bonus="plus_one", luanpai="shisanlan"),
    # Wuhan 红中赖子杠: a 癞子 kind per hand (the kind after a turned tile, 红中 skipped), 红中 and 癞子
    # set aside as single-tile kongs, a win only once opened, 开口番, one winner per tile, cap 300 / 金顶 400.
    "wuhan-hzlzg": Ruleset(family="wuhan", wilds=(), chow=True, draw_reserve=10, multi_win=False,
                           last_discard_claims="all", wild_from="next", indicator_from="head", wild_discard="forbidden", guohu="off",
                           payment_cap=300, win_dealer="rotate", discard_payers="all", qianggang_bao=True,
                           dahu_stack="double", bao_precedence="sanpu_first"),
    # Changsha 长沙麻将: 108 suited tiles, chow from 上家, 平胡 with a 2/5/8 pair, the four seed opening
    # wins, 大胡 units of 6 added, 开杠 (two revealed tiles) or 补张, 海底漫游, 一炮多响, 2 birds (加倍),
    # 庄闲 +1 once per pair, no kong money, 过胡 until one's own turn.
    "changsha": Ruleset(family="changsha", wilds=(), chow=True, draw_reserve=0, guohu="any_discard",
                        dihe_scope="dealer_first_discard", qianggang_bao=False, dahu_stack="add",
                        dealer_bonus="plus_one"),
    # identical, with the card-room additions 假将胡 and the four extra opening wins.
    "changsha-jiajiang": Ruleset(family="changsha", wilds=(), chow=True, draw_reserve=0, guohu="any_discard",
                                 dihe_scope="dealer_first_discard", qianggang_bao=False, dahu_stack="add",
                                 dealer_bonus="plus_one", jiajiang_hu=True, extra_qishou=True),
    # Wenzhou 温州麻将: 16 + 1 tiles, a 财神 per hand (the turned tile's own kind, 3 wilds) with 白板
    # standing in, honours first, chow from 上家, one winner, 软 ×1 / 硬 ×2 / 双翻 ×4, every loser
    # pays, the dealer's pairs at the level base 1..4 × B; 16 tiles kept back for kongs.
    "wenzhou": Ruleset(family="wenzhou", wilds=(), chow=True, draw_reserve=16, draw_dealer="stay",
                       dihe_scope="dealer_first_discard", multi_win=False, wild_from="same",
                       indicator_from="head", wild_discard="forbidden", wild_stand_in="5z",
                       lianzhuang="multiply", discard_payers="all", last_discard_claims="all", guohu="off"),
    # Hainan 海南麻将: 144 tiles (flowers, 补花 from the tail), chow from 上家, 有番才能胡 (a self-draw
    # needs none), 截胡, flat rates 1 / 2 / 3 with the feeder's extra, kong money, 三道 包牌, 黄庄 at 15.
    "hainan": Ruleset(family="hainan", wilds=(), chow=True, draw_reserve=15, draw_dealer="stay",
                      multi_win=False, min_fan=1, guohu="off", luanpai="shisanlan", kong_payments="on_win"),
}


class RulesetError(ValueError):
    """An unknown preset or an option that does not fit the ruleset."""


def _did_you_mean(name: str) -> str:
    """`` (did you mean …?)`` naming the presets of a family given by its name (``wuhan`` →
    ``wuhan-hzlzg``), or a close spelling; "" when none is near."""
    key = name.strip().lower()
    near = [p for p in PRESETS if key and (PRESETS[p].family == key or p.split("-")[0] == key)]
    if not near:
        import difflib

        near = difflib.get_close_matches(key, list(PRESETS), n=2, cutoff=0.75)
    return f" (did you mean {' or '.join(near)}?)" if near else ""


def resolve(preset: str, overrides: dict[str, Any] | None = None) -> Ruleset:
    """The ruleset a room plays: the named preset with ``overrides`` applied."""
    try:
        base = PRESETS[preset]
    except KeyError:
        raise RulesetError(f"unknown preset {preset!r}{_did_you_mean(preset)}; known: {', '.join(PRESETS)}") from None
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
