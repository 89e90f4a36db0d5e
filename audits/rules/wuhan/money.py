"""Wuhan money for one win (wuhan.md §8.4, §9.1–§9.5): each paying seat's multiple, the cap,
金顶 / 阳光顶 / 哈顶, 起胡 and the three 包 cases.  Pure arithmetic on a :class:`Win`
(the winner's side of a scored reading) and each seat's personal fan; no table.

* M_l = H × m_l × 2^(F_w + F_l) (§9.1); m_l = 1.5 for the 大胡 bonus as a factor;
* the cap C (``payment_cap``): each pays min(M_l, C), unless 金顶 — exactly three seats pay and
  every M_l ≥ C — when an opened seat pays J (``jinding``), an unopened one G
  (``yangguangding``), or each 哈顶 (``hading``) when none has opened;
* 起胡 (``qihu``, 屁胡 only) on the uncapped multiples (``qihu_basis``);
* 包 (§9.5): 放三铺, 全求人, 抢杠, in the order of ``bao_precedence``; the liable seat pays
  every share.
"""

from __future__ import annotations

from typing import Collection, NamedTuple, Optional, Sequence

from schema.ruleset import Ruleset

#: the 大胡 of how the last tile came (one per reading, last in its names): ``Win.moment``
MOMENTS = frozenset({"qianggang", "gangshang_kaihua", "haidi", "quanqiuren"})
#: the 大胡 whose moment decides the self-draw bonus (no bonus on 杠开 / 海底捞 by default)
NO_ZIMO_MOMENTS = frozenset({"gangshang_kaihua", "haidi"})
#: the 包 transfer reasons, by case (§9.7)
BAO_REASONS = ("bao_sanpu", "bao_quanqiuren")


class SeatFan(NamedTuple):
    """One seat's personal fan sources (§8.1): calls, 明杠, 暗杠, 痞 tiles and 癞子 set aside."""

    calls: int = 0
    minggang: int = 0
    angang: int = 0
    pigang: int = 0
    laizigang: int = 0

    @property
    def opened(self) -> bool:
        return self.calls > 0


def personal(ruleset: Ruleset, f: SeatFan) -> int:
    """P without the dealer fan (§8.1): 开口 1 (开口番) or 1 per call (口口番), 明杠 1, 暗杠 2,
    红中杠 1, 癞子杠 ``laizi_gang_fan``."""
    calls = f.calls if ruleset.fan_mode == "koukou" else min(f.calls, 1)
    return calls + f.minggang + 2 * f.angang + f.pigang + ruleset.laizi_gang_fan * f.laizigang


def personal_words(ruleset: Ruleset, f: SeatFan) -> str:
    """The sources of :func:`personal`, in words for ``--explain``."""
    parts = []
    if f.calls:
        parts.append(f"{f.calls} calls" if ruleset.fan_mode == "koukou" else "opened 1")
    for n, word, each in ((f.minggang, "明杠", 1), (f.angang, "暗杠", 2), (f.pigang, "红中杠", 1),
                          (f.laizigang, "癞子杠", ruleset.laizi_gang_fan)):
        if n:
            parts.append(f"{word} {n}×{each}")
    return " + ".join(parts) or "none"


class Win(NamedTuple):
    """The winner's side of one reading: names (大胡, or ``jihu`` 屁胡, and ``yinghu``), H, F_w."""

    seat: int
    how: str
    from_seat: Optional[int]
    big: int          # k, the number of 大胡 (0: 屁胡)
    names: tuple
    hard: bool
    moment: Optional[str]


class Share(NamedTuple):
    """One paying seat's part: F_l, m_l (×2: 2 or 3), the multiple M_l and the amount after §9.3."""

    seat: int
    fan: int
    factor2: int
    multiple: int
    amount: int


def hand_base(ruleset: Ruleset, big: int) -> int:
    """H (§8.3): 1 for a 屁胡; ``dahu_base`` × 2^(k−1) (``dahu_stack = double``) or × k (``add``)."""
    if not big:
        return 1
    return ruleset.dahu_base * (2 ** (big - 1) if ruleset.dahu_stack != "add" else big)


def bonus_is_factor(ruleset: Ruleset, big: int) -> bool:
    """§8.4: a 大胡's self-draw and 放冲 bonus is ×1.5 (开口番 by mode, or ``x1.5``), else a fan."""
    if not big:
        return False
    if ruleset.dahu_bonus == "by_mode":
        return ruleset.fan_mode == "kaikou"
    return ruleset.dahu_bonus == "x1.5"


def zimo_bonus(ruleset: Ruleset, win: Win) -> bool:
    """A self-draw's bonus applies: not on 杠开 / 海底捞 unless ``kaihua_haidi_zimo``."""
    return win.how == "self_draw" and (win.moment not in NO_ZIMO_MOMENTS or ruleset.kaihua_haidi_zimo)


def winner_fan(ruleset: Ruleset, win: Win, own: SeatFan, dealer: int, words: bool = True) -> tuple[int, list[str]]:
    """F_w = P_w (+ dealer 1 in a 屁胡) + Z + Y (§8.2), and its parts in words (with ``words``)."""
    f = personal(ruleset, own)
    parts = [f"P {f} ({personal_words(ruleset, own)})"] if words else []
    if not win.big and ruleset.dealer_fan and win.seat == dealer:
        f += 1
        if words:
            parts.append("dealer 1")
    if zimo_bonus(ruleset, win) and not bonus_is_factor(ruleset, win.big):
        f += 1
        if words:
            parts.append("自摸 1")
    if win.hard:
        y = ruleset.dahu_yinghu_fan if win.big else 1
        f += y
        if words:
            parts.append(f"硬胡 {y}")
    return f, parts


def payers(ruleset: Ruleset, win: Win, n: int, co_winners: Collection[int] = ()) -> list[int]:
    """Who pays (§9.2): the three others on a self-draw; on a discard or a rob by
    ``discard_payers``: all three, the discarder (adder), or the discarder for a 屁胡 only.
    Under 一炮多响 (``multi_win``, §10) the seats that won the same tile (``co_winners``)
    do not pay it."""
    others = [(win.seat + k) % n for k in range(1, n) if (win.seat + k) % n not in co_winners]
    if win.how == "self_draw":
        return others
    mode = ruleset.discard_payers
    if mode == "discarder" or (mode == "discarder_pihu" and not win.big):
        return [win.from_seat]
    return others


def jinding_amounts(ruleset: Ruleset) -> tuple[int, int]:
    """(J, G): 金顶 for an opened seat and 阳光顶 for an unopened one (§9.3)."""
    c = ruleset.payment_cap
    j = ruleset.jinding if ruleset.jinding is not None else c + (200 if ruleset.fan_mode == "koukou" else 100)
    g = ruleset.yangguangding if ruleset.yangguangding is not None else j + 100
    return j, g


def shares(ruleset: Ruleset, win: Win, seat_fans: Sequence[SeatFan], dealer: int,
           co_winners: Collection[int] = ()) -> tuple[list[Share], int, str]:
    """Each paying seat's share (§9.1, §9.3), F_w, and how the cap applied (``""``, ``cap``,
    ``jinding``, ``hading``).  ``co_winners``: the other seats that won the same tile
    (一炮多响); they pay nothing, so 金顶 (exactly three paying seats) cannot apply."""
    n = len(seat_fans)
    h = hand_base(ruleset, win.big)
    fw, _ = winner_fan(ruleset, win, seat_fans[win.seat], dealer, words=False)
    factor = bonus_is_factor(ruleset, win.big)
    zimo = zimo_bonus(ruleset, win)
    out = []
    for s in payers(ruleset, win, n, co_winners):
        fl = personal(ruleset, seat_fans[s])
        if not win.big and ruleset.dealer_fan and s == dealer:
            fl += 1
        feeder = win.how != "self_draw" and s == win.from_seat
        if feeder and not factor:
            fl += 1  # 放冲 1 fan
        f2 = 3 if factor and (zimo or feeder) else 2
        multiple = h * f2 * 2 ** (fw + fl) // 2
        out.append(Share(s, fl, f2, multiple, multiple))
    kind = _cap_kind(ruleset, out, seat_fans)
    return _capped(ruleset, out, seat_fans, kind), fw, kind


def _jinding_due(ruleset: Ruleset, raw: Sequence[Share]) -> bool:
    c = ruleset.payment_cap
    return bool(c) and jinding_amounts(ruleset)[0] > 0 and len(raw) == 3 and all(x.multiple >= c for x in raw)


def _cap_kind(ruleset: Ruleset, raw: Sequence[Share], seat_fans: Sequence[SeatFan]) -> str:
    if _jinding_due(ruleset, raw):
        if ruleset.hading and not any(seat_fans[x.seat].opened for x in raw):
            return "hading"
        return "jinding"
    return "cap" if ruleset.payment_cap and any(x.multiple > ruleset.payment_cap for x in raw) else ""


def _capped(ruleset: Ruleset, raw: list[Share], seat_fans: Sequence[SeatFan], kind: str) -> list[Share]:
    b = ruleset.base
    if kind == "hading":
        return [x._replace(amount=b * ruleset.hading) for x in raw]
    if kind == "jinding":
        j, g = jinding_amounts(ruleset)
        return [x._replace(amount=b * (j if seat_fans[x.seat].opened else g)) for x in raw]
    c = ruleset.payment_cap
    return [x._replace(amount=b * (min(x.multiple, c) if c else x.multiple)) for x in raw]


def qihu_met(ruleset: Ruleset, win: Win, out: Sequence[Share], co_winners: Collection[int] = ()) -> bool:
    """起胡 (§9.4): a 屁胡's uncapped multiple reaches ``qihu`` — the discarder's (the largest
    on a self-draw) under ``feeder``, the smallest among the paying seats under ``min``.
    Under 一炮多响 (``multi_win``, §5.1) each winner is settled alone and the seats that won
    the same tile (``co_winners``) do not pay it, so their multiples are no basis."""
    if not ruleset.qihu or win.big or not out:
        return True
    if ruleset.qihu_basis == "min":
        value = min((x.multiple for x in out if x.seat not in co_winners), default=ruleset.qihu)
    elif win.how == "self_draw":
        value = max(x.multiple for x in out)
    else:
        value = next((x.multiple for x in out if x.seat == win.from_seat), max(x.multiple for x in out))
    return value >= ruleset.qihu


def liability(ruleset: Ruleset, win: Win, third_feeder: Optional[int], feeder_ready: Optional[bool]
              ) -> Optional[tuple[int, str]]:
    """包 (§9.5): (liable seat, transfer reason) of the first case that applies in the order of
    ``bao_precedence`` — 放三铺 (the third call's feeder, for a 清一色, or a 将一色 with
    ``qingyise_jiangyise``), 全求人 (the discarder, when not ready under ``if_not_ready``),
    抢杠 (the adder, ``qianggang_bao``) — or None."""
    sanpu = quanqiuren = None
    mode = ruleset.bao_sanpu
    if mode != "off" and third_feeder is not None and ("qingyise" in win.names or
                                                       (mode == "qingyise_jiangyise" and "jiangyise" in win.names)):
        sanpu = (third_feeder, "bao_sanpu")
    qq = ruleset.quanqiuren_bao
    if "quanqiuren" in win.names and qq != "off" and win.from_seat is not None \
            and (qq == "always" or feeder_ready is False):
        quanqiuren = (win.from_seat, "bao_quanqiuren")
    order = (quanqiuren, sanpu) if ruleset.bao_precedence == "quanqiuren_first" else (sanpu, quanqiuren)
    for case in order:
        if case is not None:
            return case
    if win.how == "robbed_kong" and ruleset.qianggang_bao and win.from_seat is not None:
        return (win.from_seat, "qianggang")
    return None


__all__ = ["BAO_REASONS", "MOMENTS", "NO_ZIMO_MOMENTS", "SeatFan", "Share", "Win", "bonus_is_factor", "hand_base",
           "jinding_amounts", "liability", "payers", "personal", "personal_words", "qihu_met", "shares",
           "winner_fan", "zimo_bonus"]
