"""Sichuan money (sichuan.md §10): 刮风下雨 kong payments as each kong stands, win
payments (自摸 with 加底, 点炮, 抢杠, 点杠花), 呼叫转移, and at an exhaustive end 查花猪,
查大叫 and 退税; plus the next dealer (§3).

One hand's money is a :class:`Book`: the audit, the simulator and ``paipu hand`` feed it
the moments of a hand in order (a kong stands, a winning moment, the wall runs out) and
it answers the transfers each moment makes, with one derivation line per step for
``--explain``.  Amounts are multiples of B; only win shares depend on fan.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

from schema.events import Transfer
from schema.ruleset import Ruleset

#: How ``--explain`` words each transfer reason.
LABELS = {"win": "pays", "kong": "pays 刮风下雨 (kong)", "zhuanyi": "pays 呼叫转移",
          "huazhu": "pays 查花猪", "dajiao": "pays 查大叫", "tuishui": "refunds 退税"}

#: The catalogue code of a mismatch in each group of reasons (compared per payer/payee).
GROUPS = ((("win",), "TRANSFER_MISMATCH"), (("kong",), "KONG_PAYMENT_MISMATCH"),
          (("zhuanyi",), "ZHUANYI_MISMATCH"), (("huazhu", "dajiao", "tuishui"), "END_CHECK_MISMATCH"))


def transfer_code(how: Optional[str], code: str, expected=None, actual=None) -> str:
    """The code of a mismatch in a group of transfers (§10.5, §14): a kong payment from a
    payer to a payee that no rule charges (a seat that has left, a robbed kong, the wrong
    seat) is KONG_PAYMENT_UNDUE; a wrong amount between the right seats keeps the group's
    code (KONG_PAYMENT_MISMATCH)."""
    if code == "KONG_PAYMENT_MISMATCH" and actual and any(key not in (expected or {}) for key in actual):
        return "KONG_PAYMENT_UNDUE"
    return code


_KONG_NAMES = {"kong_exposed": "直杠 (刮风)", "kong_added": "补杠 (刮风)", "kong_concealed": "暗杠 (下雨)"}


@dataclass
class KongPaid:
    """One kong's payments: who paid the konger how much; ``moved`` by 呼叫转移."""

    konger: int
    kind: str
    paid: list[tuple[int, int]]
    moved: bool = False


@dataclass
class Book:
    """One hand's money, moment by moment (see the module docstring)."""

    rules: Ruleset
    n: int = 4
    #: the seats that have won, in order (under 血战 they have left)
    out: list[int] = field(default_factory=list)
    kongs: list[KongPaid] = field(default_factory=list)
    transfers: list[Transfer] = field(default_factory=list)
    #: the first winning moment: (winner seats, how, from_seat), for the next dealer
    first: Optional[tuple[list[int], str, Optional[int]]] = None
    #: the derivation, one line per step (``--explain``)
    lines: list[str] = field(default_factory=list)
    #: whether the derivation is written (the audit asks for it only when it explains)
    explain: bool = True

    # -- who pays ------------------------------------------------------------------

    def still_in(self) -> list[int]:
        """The seats that have not won (all four until a win under ``first_win``)."""
        return [s for s in range(self.n) if s not in self.out]

    def paying(self, payee: int) -> list[int]:
        """Paying seats (§10): those still in at the moment of payment, other than the payee."""
        return [s for s in self.still_in() if s != payee]

    def _pay(self, payer: int, payee: int, amount: int, reason: str) -> Transfer:
        t = Transfer(payer=payer, payee=payee, amount=amount, reason=reason)  # type: ignore[arg-type]
        self.transfers.append(t)
        return t

    # -- 刮风下雨 (§10.5) ---------------------------------------------------------------

    def kong(self, seat: int, kind: str, from_seat: Optional[int] = None) -> list[Transfer]:
        """A kong stands: 直杠 2B from the discarder (擦挂: 1B from each other seat still
        in), 补杠 1B and 暗杠 2B from each paying seat."""
        b = self.rules.base
        if kind == "kong_exposed":
            paid = [(from_seat, 2 * b)] if from_seat is not None else []
            if self.rules.cagua:
                paid += [(s, b) for s in self.paying(seat) if s != from_seat]
        elif kind == "kong_added":
            paid = [(s, b) for s in self.paying(seat)]
        else:
            paid = [(s, 2 * b) for s in self.paying(seat)]
        self.kongs.append(KongPaid(seat, kind, paid))
        name = _KONG_NAMES[kind]
        if self.explain:
            self.lines.append(f"{name} by seat {seat}: " + ", ".join(f"{p} → {seat}: {a}" for p, a in paid))
        return [self._pay(p, seat, a, "kong") for p, a in paid]

    # -- a winning moment (§10.1–10.4, §10.6) -------------------------------------------

    def win(self, winners: Sequence[tuple[int, int]], how: str, from_seat: Optional[int] = None,
            kong_discard: bool = False, dianganghua_from: Optional[int] = None) -> list[Transfer]:
        """One winning moment: ``winners`` (seat, P) paid, then 呼叫转移 when the discard
        was made in a 杠上炮 turn (``kong_discard``); then the winners leave.
        ``dianganghua_from``: on a 杠上开花 after an exposed kong, the seat that fed it."""
        out: list[Transfer] = []
        b = self.rules.base
        for seat, p in winners:
            if how == "self_draw":
                if dianganghua_from is not None and self.rules.dianganghua == "dianpao":
                    if self.explain:
                        self.lines.append(f"seat {seat} 点杠花 (算点炮): seat {dianganghua_from} "
                                          f"alone pays P = {p}")
                    out.append(self._pay(dianganghua_from, seat, p, "win"))
                    continue
                each = p + b if self.rules.zimo_bonus == "jiadi" else p
                payers = self.paying(seat)
                if self.explain:
                    bonus = f" + B {b} (自摸加底)" if self.rules.zimo_bonus == "jiadi" else ""
                    self.lines.append(f"seat {seat} 自摸: seats {payers} each pay P {p}{bonus} = {each}")
                out += [self._pay(s, seat, each, "win") for s in payers]
            else:
                if self.explain:
                    word = "点炮" if how == "discard" else "抢杠 (the adder pays)"
                    self.lines.append(f"seat {seat} {word}: seat {from_seat} pays P = {p}")
                out.append(self._pay(from_seat, seat, p, "win"))  # type: ignore[arg-type]
        if how == "discard" and kong_discard and self.rules.hujiao_zhuanyi and from_seat is not None:
            out += self._zhuanyi(from_seat, [s for s, _ in winners])
        seats = [s for s, _ in winners]
        if self.first is None:
            self.first = (seats, how, from_seat)
        self.out += [s for s in seats if s not in self.out]
        return out

    def _zhuanyi(self, k: int, winners: list[int]) -> list[Transfer]:
        """呼叫转移 (§10.6): the in-scope kong income of the discarder k moves to the first
        winner from k's 下家 (``first``) or to every winner (``each``)."""
        own = [r for r in self.kongs if r.konger == k]
        if self.rules.zhuanyi_scope == "last_kong":
            mine = own[-1:] if own and not own[-1].moved else []
        else:
            mine = [r for r in own if not r.moved]
        z = sum(a for r in mine for _, a in r.paid)
        if not z:
            return []
        for r in mine:
            r.moved = True
        order = sorted(winners, key=lambda s: (s - k - 1) % self.n)
        to = order if self.rules.zhuanyi_multi == "each" else order[:1]
        if self.explain:
            self.lines.append(f"呼叫转移: seat {k}'s kong income {z} moves to seat(s) {to}")
        return [self._pay(k, s, z, "zhuanyi") for s in to]

    # -- the exhaustive end (§10.7) ------------------------------------------------------

    def exhausted(self, classes: dict[int, tuple[str, int]]) -> list[Transfer]:
        """The wall ran out: ``classes`` maps each still-in seat to (``huazhu`` | ``ready`` |
        ``not_ready``, D).  查花猪, then 查大叫, then 退税."""
        r = self.rules
        b = r.base
        out: list[Transfer] = []
        s_in = sorted(classes)
        pigs = [s for s in s_in if classes[s][0] == "huazhu"]
        ready = [s for s in s_in if classes[s][0] == "ready"]
        idle = [s for s in s_in if classes[s][0] == "not_ready"]
        for s in s_in if self.explain else ():
            cls, d = classes[s]
            self.lines.append(f"seat {s}: {cls}" + ("" if cls != "ready" else f", best hand D = {d}" if d is not None
                                                    else " (no seat pays it 查大叫: its best hand is not needed)"))
        h = b * (1 << r.fan_cap) if r.huazhu_penalty == "cap" else b * int(r.huazhu_penalty)
        for pig in pigs:
            to = [s for s in s_in if s not in pigs]
            if r.huazhu_pays_winners:
                to += [s for s in self.out]
            if to and self.explain:
                self.lines.append(f"查花猪: seat {pig} pays H = {h} to each of {to}")
            out += [self._pay(pig, s, h, "huazhu") for s in to]
        if r.chadajiao:
            for s in idle:
                for q in ready:
                    d = classes[q][1]
                    amt = b * (1 << min(d, r.fan_cap))
                    if self.explain:
                        self.lines.append(f"查大叫: seat {s} pays seat {q} B × 2^min({d}, {r.fan_cap}) = {amt}")
                    out.append(self._pay(s, q, amt, "dajiao"))
        if r.tuishui:
            for s in pigs + idle:
                for k in self.kongs:
                    if k.konger != s or k.moved:
                        continue
                    for payer, a in k.paid:
                        if self.explain:
                            self.lines.append(f"退税: seat {s} returns {a} to seat {payer}")
                        out.append(self._pay(s, payer, a, "tuishui"))
        return out


def next_dealer(ruleset: Ruleset, dealer: int, first: Optional[tuple[Sequence[int], str, Optional[int]]],
                n: int = 4) -> int:
    """§3: the only winner of the first winning moment; the discarder (adder) after a
    multi-win; after a hand with no win the dealer's 下家 (``draw_dealer = next``) or the dealer."""
    if not first or not first[0]:
        return dealer if ruleset.draw_dealer == "stay" else (dealer + 1) % n
    seats, _how, frm = first
    if len(seats) == 1:
        return seats[0]
    return frm if frm is not None else seats[0]
