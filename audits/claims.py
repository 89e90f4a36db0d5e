"""Legality of claims (吃 碰 杠) and enumeration of legal options (qujing.md §3–§4).

All functions take the claimer's *physical* concealed counts (34 counts, a
chicken counted under its own kind) and return a violation code string, or
``None`` when the claim is legal.  Rules enforced:

* 吃 chow only from 上家 (discarder == claimer − 1 mod n) and only when
  ``ruleset.chow``; the three physical tiles must form a run — a chicken joins
  only as its plain tile (1s in ``1s2s3s``), never as wild.
* 碰 pong from any other seat with two physical tiles equal to the discard
  (two chickens may pong a discarded chicken: it is a plain tile).
* 直杠 exposed kong on a discard: three natural tiles, or a natural pair + one
  chicken; never one natural + two chickens.
* 补杠 added kong on one's own pong: the fourth tile natural or a chicken.
* 暗杠 concealed kong: 4 natural; 3+1, 2+2 or 1+3 chickens; four chickens of one
  kind are a natural kong of that tile.
* Priority 胡 > 杠 > 碰 > 吃; several players may win on one discard.
* 过手碰 / 过手杠 / 过胡: see :class:`PassState`.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Iterable, Optional, Sequence

from replay.melds import Meld
from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX

PRIORITY = {"win": 4, "kong": 3, "pong": 2, "chow": 1}


def wild_kinds(ruleset: Ruleset) -> tuple[int, ...]:
    """The ruleset's chicken kinds as integers."""
    return tuple(TILE_INDEX[t] for t in ruleset.wilds)


def shangjia(seat: int, n: int) -> int:
    """上家: the seat before ``seat`` (whose discards ``seat`` may chow)."""
    return (seat - 1) % n


def _held(counts: Sequence[int], tiles: Iterable[int]) -> bool:
    need: dict[int, int] = {}
    for t in tiles:
        need[t] = need.get(t, 0) + 1
    return all(counts[t] >= k for t, k in need.items())


# --- checks ------------------------------------------------------------------

def check_chow(counts: Sequence[int], tiles: Sequence[int], discard: int, claimer: int,
               discarder: int, ruleset: Ruleset) -> Optional[str]:
    """吃: ``tiles`` (two, from hand) + ``discard`` must form a run of physical tiles."""
    if not ruleset.chow:
        return "chow_disabled"
    if discarder != shangjia(claimer, ruleset.players):
        return "chow_not_from_shangjia"
    if len(tiles) != 2:
        return "chow_needs_two_tiles"
    run = sorted([discard, *tiles])
    if run[0] >= 27 or run[0] // 9 != run[2] // 9 or run != [run[0], run[0] + 1, run[0] + 2]:
        # chickens are never wild in a chow: only their plain tile can fit
        return "chow_not_a_run"
    if not _held(counts, tiles):
        return "tiles_not_held"
    return None


def check_pong(counts: Sequence[int], tiles: Sequence[int], discard: int, claimer: int,
               discarder: int, ruleset: Ruleset) -> Optional[str]:
    """碰: two physical tiles equal to the discard (a chicken never wild in a pong)."""
    if claimer == discarder:
        return "claim_own_discard"
    if len(tiles) != 2 or any(t != discard for t in tiles):
        return "pong_tiles_mismatch"
    if not _held(counts, tiles):
        return "tiles_not_held"
    return None


def check_exposed_kong(counts: Sequence[int], kind: int, tiles: Sequence[int], discard: int,
                       claimer: int, discarder: int, ruleset: Ruleset) -> Optional[str]:
    """直杠 on a discard of ``kind``: three natural, or a natural pair + one chicken."""
    if claimer == discarder:
        return "claim_own_discard"
    if discard != kind:
        return "kong_kind_mismatch"
    if len(tiles) != 3:
        return "kong_needs_three_tiles"
    wk = set(wild_kinds(ruleset))
    nat = sum(1 for t in tiles if t == kind)
    chickens = sum(1 for t in tiles if t != kind and t in wk)
    if nat + chickens != 3:
        return "kong_tiles_mismatch"
    if nat < 2:
        # 带小鸡直杠时只能用一对加一只小鸡
        return "kong_exposed_one_natural_two_chickens" if nat == 1 else "kong_exposed_no_natural"
    if not _held(counts, tiles):
        return "tiles_not_held"
    return None


def check_added_kong(counts: Sequence[int], melds: Sequence[Meld], kind: int, tile: int,
                     ruleset: Ruleset) -> Optional[str]:
    """补杠 onto one's own pong of ``kind`` with a natural ``kind`` or a chicken."""
    if not any(m.kind == "pong" and m.of == kind for m in melds):
        return "added_kong_without_pong"
    if tile != kind and tile not in wild_kinds(ruleset):
        return "kong_tiles_mismatch"
    if counts[tile] < 1:
        return "tiles_not_held"
    return None


def check_concealed_kong(counts: Sequence[int], kind: int, tiles: Sequence[int],
                         ruleset: Ruleset) -> Optional[str]:
    """暗杠 of ``kind``: at least one natural ``kind``, the rest chickens (4, 3+1, 2+2, 1+3)."""
    if len(tiles) != 4:
        return "kong_needs_four_tiles"
    wk = set(wild_kinds(ruleset))
    nat = sum(1 for t in tiles if t == kind)
    if any(t != kind and t not in wk for t in tiles):
        return "kong_tiles_mismatch"
    if nat < 1:
        return "kong_concealed_no_natural"
    if not _held(counts, tiles):
        return "tiles_not_held"
    return None


# --- enumerators (the simulator uses these) -----------------------------------

def chow_options(counts: Sequence[int], discard: int, claimer: int, discarder: int,
                 ruleset: Ruleset) -> list[tuple[int, int]]:
    """Every pair of hand tiles that chows ``discard`` (empty when chow is not allowed)."""
    if not ruleset.chow or discarder != shangjia(claimer, ruleset.players) or discard >= 27:
        return []
    out = []
    r = discard % 9
    for lo in (discard - 2, discard - 1, discard):
        if lo < discard - r or lo + 2 > discard - r + 8:
            continue
        pair = tuple(t for t in (lo, lo + 1, lo + 2) if t != discard)
        if _held(counts, pair):
            out.append(pair)
    return out


def pong_possible(counts: Sequence[int], discard: int) -> bool:
    """Two physical tiles equal to the discard are held."""
    return counts[discard] >= 2


def exposed_kong_options(counts: Sequence[int], discard: int, ruleset: Ruleset) -> list[tuple[int, int, int]]:
    """The three-tile sets from hand that may kong ``discard``."""
    out = []
    if counts[discard] >= 3:
        out.append((discard, discard, discard))
    if counts[discard] >= 2:
        for w in wild_kinds(ruleset):
            if w != discard and counts[w] >= 1:
                out.append((discard, discard, w))
    return out


def concealed_kong_options(counts: Sequence[int], ruleset: Ruleset) -> list[tuple[int, tuple[int, ...]]]:
    """Every (kind, four tiles) concealed kong the hand can declare."""
    wk = wild_kinds(ruleset)
    out = []
    for k in range(34):
        if counts[k] == 0:
            continue
        others = [w for w in wk if w != k]
        for nat in range(min(counts[k], 4), 0, -1):
            need = 4 - nat
            if need == 0:
                out.append((k, (k,) * 4))
                continue
            for combo in combinations_with_replacement(others, need):
                if _held(counts, combo):
                    out.append((k, (k,) * nat + combo))
    return out


def added_kong_options(counts: Sequence[int], melds: Sequence[Meld], ruleset: Ruleset) -> list[tuple[int, int]]:
    """Every (kind, tile) added kong onto the player's own pongs."""
    out = []
    for m in melds:
        if m.kind != "pong":
            continue
        if counts[m.of] >= 1:
            out.append((m.of, m.of))
        for w in wild_kinds(ruleset):
            if w != m.of and counts[w] >= 1:
                out.append((m.of, w))
    return out


def can_rob(kong_kind: str) -> bool:
    """抢杠: only an added kong (补杠) can be robbed."""
    return kong_kind in ("added", "kong_added")


def resolve_claims(claims: dict[int, str], discarder: int, n: int) -> tuple[str, list[int]]:
    """Priority 胡 > 杠 > 碰 > 吃.  Returns the winning claim and its seats; several
    players may win (一炮多响), listed in seat order from the discarder's next seat."""
    if not claims:
        return ("", [])
    top = max(claims.values(), key=lambda c: PRIORITY[c])
    order = [(discarder + k) % n for k in range(1, n)]
    seats = [s for s in order if claims.get(s) == top]
    if top != "win":
        seats = seats[:1]
    return top, seats


class PassState:
    """过手碰 / 过手杠 / 过胡 for one player, until their own next draw, chow, pong or kong.

    * a pong passed on tile t forbids ponging t;
    * an exposed kong passed on tile t forbids konging t on a discard;
    * a win passed forbids every discard win, whatever its fan (self-draw stays allowed).
    """

    def __init__(self) -> None:
        self.no_pong: set[int] = set()
        self.no_kong: set[int] = set()
        self.no_discard_win = False

    def passed(self, claims: Iterable[str], tile: int) -> None:
        """Record the claims the player could make on ``tile`` and did not."""
        for c in claims:
            if c == "pong":
                self.no_pong.add(tile)
            elif c == "kong":
                self.no_kong.add(tile)
            elif c == "win":
                self.no_discard_win = True

    def acted(self) -> None:
        """The player drew, chowed, ponged or konged: restrictions end."""
        self.no_pong.clear()
        self.no_kong.clear()
        self.no_discard_win = False

    def violation(self, claim: str, tile: int) -> Optional[str]:
        """The pass rule a claim on a discard breaks, or None."""
        if claim == "pong" and tile in self.no_pong:
            return "guoshou_peng"
        if claim == "kong" and tile in self.no_kong:
            return "guoshou_gang"
        if claim == "win" and self.no_discard_win:
            return "guohu"
        return None
