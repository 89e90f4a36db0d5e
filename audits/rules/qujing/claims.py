"""Qujing claims (吃 碰 杠), their priority and the passing restrictions (qujing.md §3–§4).

Every check returns a list of :class:`~audits.rules.family.Violation` with a
catalogue code (empty when the claim is legal).  Tiles are integers; ``wild``
is the ruleset's set of wild kinds ("chickens").  Whether the claimer holds the
tiles is the reducer's business (a structural break), not a rule here.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Optional, Sequence

from replay.melds import Meld
from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX, TILE_NAMES

from ..family import PassBook, Violation, WinJudge

#: 胡 > 杠 > 碰 > 吃; several players may win on one discard (一炮多响).
CLAIM_RANK = {"win": 4, "kong": 3, "pong": 2, "chow": 1}
#: 过手碰 / 过手杠 bar the tile passed; 过胡 (wins) is kept apart, see :func:`pass_violation`.
TILE_PASSES = ("pong", "kong")


_WILD_KINDS: dict[tuple[str, ...], frozenset[int]] = {}


def wild_kinds(ruleset: Ruleset) -> frozenset[int]:
    """The ruleset's chicken kinds as integers (1s; 5z; 5z and 7z)."""
    got = _WILD_KINDS.get(ruleset.wilds)
    if got is None:
        got = _WILD_KINDS[ruleset.wilds] = frozenset(TILE_INDEX[t] for t in ruleset.wilds)
    return got


def shangjia(seat: int, n: int) -> int:
    """上家: the seat before ``seat`` (whose discards ``seat`` may chow)."""
    return (seat - 1) % n


def _names(tiles: Sequence[int]) -> list[str]:
    return [TILE_NAMES[t] for t in tiles]


def _own_discard(seat: int, from_seat: int) -> list[Violation]:
    # A player never claims their own discard.
    if seat == from_seat:
        return [Violation("CLAIM_OWN_DISCARD", f"seat {seat} claimed its own discard",
                          "another seat's discard", from_seat)]
    return []


def is_run(tiles: Sequence[int]) -> bool:
    """Three consecutive tiles of one suit (sorted)."""
    a, b, c = tiles
    return a < 27 and a // 9 == c // 9 and b == a + 1 and c == a + 2


def check_chow(ruleset: Ruleset, n: int, seat: int, from_seat: int, discard: int,
               own: Sequence[int]) -> list[Violation]:
    """吃: only with option ``chow``, only from 上家; the three physical tiles are a run
    (a chicken joins only as its plain tile, never as wild)."""
    out = _own_discard(seat, from_seat)
    if not ruleset.chow:
        out.append(Violation("CLAIM_CHOW_DISABLED", "a chow in a room that did not enable 吃", "chow off", "chow"))
    elif not out and from_seat != shangjia(seat, n):
        out.append(Violation("CLAIM_CHOW_WRONG_SEAT", f"seat {seat} chowed from seat {from_seat}, not from 上家",
                             shangjia(seat, n), from_seat))
    tiles = sorted([discard, *own])
    if len(tiles) == 3 and not is_run(tiles):
        if any(t in wild_kinds(ruleset) for t in tiles):
            out.append(Violation("CLAIM_WILD_IN_CHOW", "a chicken used as wild in a chow", None, _names(tiles)))
        else:
            out.append(Violation("CLAIM_MELD_INVALID", "the chow's tiles are not a run", None, _names(tiles)))
    return out


def check_pong(ruleset: Ruleset, seat: int, from_seat: int, discard: int, own: Sequence[int]) -> list[Violation]:
    """碰: two physical tiles equal to the discard, from any other seat (a chicken is
    never wild in a pong; two chickens may pong a discarded chicken)."""
    out = _own_discard(seat, from_seat)
    odd = [t for t in own if t != discard]
    if odd:
        name = TILE_NAMES[discard]
        if any(t in wild_kinds(ruleset) for t in odd):
            out.append(Violation("CLAIM_WILD_IN_PONG", f"a chicken used as wild in a pong of {name}",
                                 None, _names(own)))
        else:
            out.append(Violation("CLAIM_MELD_INVALID", f"a pong of {name} with other tiles", None, _names(own)))
    return out


def check_exposed_kong(ruleset: Ruleset, seat: int, from_seat: int, kind: int, discard: int,
                       own: Sequence[int]) -> list[Violation]:
    """直杠 on a discard of ``kind``: three natural tiles, or a natural pair + one chicken
    (带小鸡直杠时只能用一对加一只小鸡); never one natural + two chickens."""
    out = _own_discard(seat, from_seat)
    wild = wild_kinds(ruleset)
    natural = sum(1 for t in own if t == kind)
    chickens = sum(1 for t in own if t != kind and t in wild)
    name = TILE_NAMES[kind]
    if discard != kind or natural + chickens != len(own):
        out.append(Violation("CLAIM_MELD_INVALID", f"an exposed kong of {name} with other tiles",
                             None, _names([discard, *own])))
    elif not (natural == 3 or (natural == 2 and chickens == 1)):
        out.append(Violation("KONG_ILLEGAL_CHICKENS", f"直杠 of {name} with {natural} natural + {chickens} chicken(s)",
                             "3 natural or a pair + 1 chicken", _names(own)))
    return out


def check_added_kong(ruleset: Ruleset, kind: int, tile: int) -> list[Violation]:
    """补杠 onto one's own pong of ``kind``: the fourth tile natural or a chicken."""
    if tile != kind and tile not in wild_kinds(ruleset):
        return [Violation("CLAIM_MELD_INVALID", f"an added kong of {TILE_NAMES[kind]} with {TILE_NAMES[tile]}",
                          None, TILE_NAMES[tile])]
    return []


def check_concealed_kong(ruleset: Ruleset, kind: int, own: Sequence[int]) -> list[Violation]:
    """暗杠 of ``kind``: 4 natural, or 3 + 1, 2 + 2 or 1 + 3 chickens (at least one natural)."""
    wild = wild_kinds(ruleset)
    natural = sum(1 for t in own if t == kind)
    chickens = sum(1 for t in own if t != kind and t in wild)
    name = TILE_NAMES[kind]
    if natural + chickens != len(own):
        return [Violation("CLAIM_MELD_INVALID", f"a concealed kong of {name} with other tiles", None, _names(own))]
    if natural < 1:
        return [Violation("KONG_ILLEGAL_CHICKENS", f"暗杠 of {name} without a natural {name}",
                          "at least 1 natural", _names(own))]
    return []


def can_rob(kong_event: str) -> bool:
    """抢杠: only an added kong (补杠) can be robbed."""
    return kong_event == "kong_added"


# --- what a hand could do (the audit's "who could take this discard", the bots) --

def could_pong(ruleset: Ruleset, counts: Sequence[int], discard: int) -> bool:
    """碰 needs two physical tiles equal to the discard (chickens only as their plain kind)."""
    return counts[discard] >= 2


def could_kong(ruleset: Ruleset, counts: Sequence[int], discard: int) -> bool:
    """直杠 needs three natural tiles, or a natural pair + one chicken."""
    held = counts[discard]
    return held >= 3 or (held == 2 and any(counts[k] for k in wild_kinds(ruleset) if k != discard))


def _held(counts: Sequence[int], tiles: Sequence[int]) -> bool:
    need: dict[int, int] = {}
    for t in tiles:
        need[t] = need.get(t, 0) + 1
    return all(counts[t] >= k for t, k in need.items())


def chow_options(ruleset: Ruleset, counts: Sequence[int], discard: int, claimer: int,
                 discarder: int) -> list[tuple[int, int]]:
    """Every pair of hand tiles that chows ``discard`` (none when chow is off or not from 上家)."""
    if discard >= 27 or not ruleset.chow or discarder != shangjia(claimer, ruleset.players):
        return []
    # the runs through the discard within its suit, lowest first: the two other tiles
    # of each (two kinds), one of each held
    out = []
    r = discard % 9
    if r >= 2 and counts[discard - 2] >= 1 and counts[discard - 1] >= 1:
        out.append((discard - 2, discard - 1))
    if 1 <= r <= 7 and counts[discard - 1] >= 1 and counts[discard + 1] >= 1:
        out.append((discard - 1, discard + 1))
    if r <= 6 and counts[discard + 1] >= 1 and counts[discard + 2] >= 1:
        out.append((discard + 1, discard + 2))
    return out


def exposed_kong_options(ruleset: Ruleset, counts: Sequence[int], discard: int) -> list[tuple[int, ...]]:
    """The three-tile sets from hand that may kong ``discard`` (natural first)."""
    out: list[tuple[int, ...]] = []
    if counts[discard] >= 3:
        out.append((discard, discard, discard))
    if counts[discard] >= 2:
        for w in sorted(wild_kinds(ruleset)):
            if w != discard and counts[w] >= 1:
                out.append((discard, discard, w))
    return out


def concealed_kong_options(ruleset: Ruleset, counts: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    """Every (kind, four tiles) concealed kong the hand can declare."""
    kinds = wild_kinds(ruleset)
    wild = sorted(kinds)
    held_wild = sum(counts[w] for w in wild)
    out = []
    for k in range(34):
        n = counts[k]
        if n == 0:
            continue
        held_others = held_wild - n if k in kinds else held_wild
        if n < 4 and 4 - n > held_others:
            continue  # fewer chickens held than the kong with every natural tile of k needs
        others = [w for w in wild if w != k]
        for nat in range(min(n, 4), 0, -1):
            need = 4 - nat
            if need == 0:
                out.append((k, (k,) * 4))
                continue
            if need > held_others:
                break  # fewer chickens held than the kong needs (and fewer naturals need more)
            for combo in combinations_with_replacement(others, need):
                if _held(counts, combo):
                    out.append((k, (k,) * nat + combo))
    return out


def added_kong_options(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld]) -> list[tuple[int, int]]:
    """Every (kind, tile) added kong onto the player's own pongs."""
    out = []
    for m in melds:
        if m.kind != "pong":
            continue
        if counts[m.of] >= 1:
            out.append((m.of, m.of))
        for w in sorted(wild_kinds(ruleset)):
            if w != m.of and counts[w] >= 1:
                out.append((m.of, w))
    return out


# --- passing restrictions ------------------------------------------------------------

def pass_violation(book: PassBook, seat: int, claim: str, tile: int, judge: WinJudge,
                   rules: Optional[Ruleset] = None, how: str = "discard") -> Optional[str]:
    """The pass rule a claim breaks, until the seat's own next draw, chow, pong or kong:

    * 过手碰: a pong passed on ``tile`` bars ponging it;
    * 过手杠: an exposed kong passed on ``tile`` bars konging it;
    * 过胡: a legal win let go (on a discard, or a 抢杠 chance) bars every win on a
      discard and every rob, whatever its fan (seed: 禁胡所有牌); self-draw stays allowed.
      ``claim`` is ``win`` for both (``how``: ``discard`` or ``robbed_kong``, judged alike);
      a win chance counts only if it was legal (``judge``: complete with enough fan, and
      not already barred).
    """
    if claim == "pong" and tile in book.tiles["pong"][seat]:
        return "GUOSHOU_PENG"
    if claim == "kong" and tile in book.tiles["kong"][seat]:
        return "GUOSHOU_GANG"
    if claim == "win" and (book.robs[seat] or any(judge(seat, t, kd) for t, kd in book.win_chances(seat))):
        return "WIN_DURING_GUOHU"
    return None


def resolve_claims(claims: dict[int, str], discarder: int, n: int) -> tuple[str, list[int]]:
    """The claim that takes a discard and its seats: the highest rank wins; several
    players may win (一炮多响), listed in seat order from the discarder's next seat."""
    if not claims:
        return ("", [])
    top = max(claims.values(), key=lambda c: CLAIM_RANK[c])
    order = [(discarder + k) % n for k in range(1, n)]
    seats = [s for s in order if claims.get(s) == top]
    if top != "win":
        seats = seats[:1]
    return top, seats
