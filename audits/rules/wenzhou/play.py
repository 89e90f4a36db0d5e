"""Wenzhou play rules (wenzhou.md §2, §5, §8.2): the discard order (出牌顺序), the 财神 never
discarded, kongs on the reserve, 天和 / 地和 and the 买底 moment.

**Discard order** (§5, ``honour_first``): a *single honour* of a seat is an honour kind of
which its concealed hand holds exactly one tile (白板 counts as kind W, so it is an honour
only if W is; 财神 never count).  While a seat holds a single honour its discard is a
single honour (rule 2); if the discard just before this one, by another seat, was honour
kind h and the seat holds a single h, it discards h (rule 3; a discard it has just claimed
is that discard).  A discard breaking either is one HONOUR_DISCARD_ORDER.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import NamedTuple, Optional

from schema import events as ev
from schema.ruleset import Ruleset
from schema.tiles import TILE_NAMES

from .. import wilds
from ..family import PLAIN_DISCARD, DiscardVerdict, Violation, WinContext
from . import caishen
from .settlement import level_of



class _Honours(NamedTuple):
    """One hand's honour facts: W, the active stand-in (白板 while it reads as W) and the honour
    kinds counted as they lie (the 财神 kind and the stand-in left out; as a set too); W
    itself is an honour read through 白板 when W is an honour kind (``wild_honour``);
    ``by_key`` keeps, per base-5 honour key of a concealed hand (the reducer's
    ``Table.keys[seat][3]``), the single honours that hand holds (:func:`_singles`, as a tuple)."""

    wild: Optional[int]
    white: Optional[int]
    plain: tuple[int, ...]
    plain_set: frozenset
    wild_honour: bool
    by_key: dict


_HONOURS: dict[int, tuple[Ruleset, _Honours]] = {}
#: the last ruleset asked and its facts (every discard of a hand asks with the same object)
_LAST_HONOURS: list = [None, None]
#: the honour facts by (W, stand-in): the single honours by honour key are shared by the
#: hands with one 财神 kind, whichever room they are played in
_BY_WILD: dict[tuple, _Honours] = {}


def _honours(ruleset: Ruleset) -> _Honours:
    """The :class:`_Honours` of the hand's ruleset (cached per ruleset object: asked on every discard)."""
    if _LAST_HONOURS[0] is ruleset:
        return _LAST_HONOURS[1]
    got = _HONOURS.get(id(ruleset))
    if got is None or got[0] is not ruleset:
        p = caishen.facts.pei(ruleset)
        h = _BY_WILD.get((p.wild, p.stand_in))
        if h is None:
            plain = tuple(k for k in caishen.HONOURS if k != p.wild and k != p.stand_in)
            wild_honour = p.wild is not None and p.wild >= 27 and p.stand_in is not None
            h = _BY_WILD[(p.wild, p.stand_in)] = _Honours(p.wild, p.stand_in, plain, frozenset(plain), wild_honour,
                                                          {})
        if len(_HONOURS) > 4096:  # bounded: a long audit keeps a small memory
            _HONOURS.clear()
        got = _HONOURS[id(ruleset)] = (ruleset, h)
    _LAST_HONOURS[0], _LAST_HONOURS[1] = ruleset, got[1]
    return got[1]


def _singles_by_key(h: _Honours, counts, key: int) -> tuple[int, ...]:
    """The single honours of ``counts``, whose honour key is ``key`` (kept in ``h.by_key``)."""
    got = h.by_key.get(key)
    if got is None:
        if len(h.by_key) > 8192:  # bounded: a long audit keeps a small memory
            h.by_key.clear()
        got = h.by_key[key] = tuple(_singles(h, counts))
    return got


def natural_count(ruleset: Ruleset, counts, kind: int) -> int:
    """Natural tiles of ``kind`` held: 白板 count as W while they stand in; 财神 never count."""
    h = _honours(ruleset)
    if kind == h.wild:
        return counts[h.white] if h.white is not None else 0
    if kind == h.white:
        return 0
    return counts[kind]


def _singles(h: _Honours, counts) -> list[int]:
    out = [k for k in h.plain if counts[k] == 1]
    if h.wild_honour and counts[h.white] == 1:
        out.append(h.wild)
    return out


def _single(h: _Honours, counts, kind: int) -> bool:
    """``kind`` (白板 read as W) is a single honour of the concealed counts."""
    if kind in h.plain_set:
        return counts[kind] == 1
    return kind == h.wild and h.wild_honour and counts[h.white] == 1


def single_honours(ruleset: Ruleset, counts) -> list[int]:
    """The honour kinds (白板 read as W) the concealed counts hold exactly one of."""
    return _singles(_honours(ruleset), counts)


def honour_violation(ruleset: Ruleset, counts, seat: int, tile: int,
                     previous: Optional[tuple[int, int]]) -> Optional[Violation]:
    """The discard-order rule (§5) for ``tile`` discarded from ``counts`` (before the discard),
    ``previous`` the hand's latest discard (seat, tile) or None."""
    return _violation(_honours(ruleset), counts, seat, tile, previous)


def _violation(h: _Honours, counts, seat: int, tile: int, previous: Optional[tuple[int, int]]) -> Optional[Violation]:
    white = h.white
    kind = h.wild if tile == white and white is not None else tile
    last = None
    if previous is not None and previous[0] != seat:
        last = h.wild if previous[1] == white and white is not None else previous[1]
    # the common case: a single honour thrown, with no single of the honour just discarded kept
    if _single(h, counts, kind) and (last is None or last == kind or not _single(h, counts, last)):
        return None
    singles = _singles(h, counts)
    if not singles:
        return None
    broken = []
    # rule 2: while a single honour is held, the discard is a single honour
    if kind not in singles:
        broken.append("rule 2: it holds a single honour")
    # rule 3: the single of the honour just discarded by another seat goes first (one discard
    # may break both rules: still one finding, naming both, §12.5)
    if last is not None and last in singles and kind != last:
        broken.append(f"rule 3: it holds a single {TILE_NAMES[last]} just discarded")
        singles = [last]
    if not broken:
        return None
    want = [TILE_NAMES[k] for k in singles]
    return Violation("HONOUR_DISCARD_ORDER", f"seat {seat} discarded {TILE_NAMES[tile]} ("
                     + "; ".join(broken) + ")", want, TILE_NAMES[tile])


def discard_rule(ruleset: Ruleset, table, seat: int, tile: int) -> DiscardVerdict:
    """``TableRules.discard_rule``: a 财神 is never discarded (SPECIAL_TILE_DISCARDED, the
    shared ``wild_discard = forbidden``), then the discard order (HONOUR_DISCARD_ORDER)."""
    if _LAST_RULE[0] is not ruleset:
        _LAST_RULE[0], _LAST_RULE[1] = ruleset, discard_rule_for(ruleset)
    return _LAST_RULE[1](table, seat, tile)


#: the last ruleset asked and its bound discard rule (every discard of a hand asks with one object)
_LAST_RULE: list = [None, None]


def discard_rule_for(ruleset: Ruleset):
    """``TableRules.discard_rule_for``: :func:`discard_rule` bound to ``ruleset``, a function of
    (table, seat, tile), its hand's honour facts read once."""
    h = _honours(ruleset)
    wild, white, by_key = h.wild, h.white, h.by_key
    honour_first = ruleset.honour_first

    def rule(table, seat: int, tile: int) -> DiscardVerdict:
        if tile == wild:
            return wilds.default_discard_rule(ruleset, table, seat, tile)
        if not honour_first:
            return PLAIN_DISCARD
        # the seat's single honours, read off its honour key (the reducer keeps it as tiles move)
        key = table.keys[seat][3]
        singles = by_key.get(key)
        if singles is None:
            singles = _singles_by_key(h, table.hands[seat], key)
        # no single honour held: no order to keep
        if not singles:
            return PLAIN_DISCARD
        # rule 2 kept (a single honour thrown, 白板 read as W) and rule 3 kept (the discard just
        # before, by another seat, is no other honour held once)
        kind = wild if tile == white else tile
        if kind in singles:
            prev = table.latest_discard
            if prev is None or prev[0] == seat:
                return PLAIN_DISCARD
            last = wild if prev[1] == white else prev[1]
            if last == kind or last not in singles:
                return PLAIN_DISCARD
        v = _violation(h, table.hands[seat], seat, tile, table.latest_discard)
        return PLAIN_DISCARD if v is None else DiscardVerdict(False, v)

    return rule


def _calls(table) -> bool:
    """Any chow, pong or exposed kong so far (a concealed kong is not a call)."""
    return any(m.kind != "kong_concealed" for melds in table.melds for m in melds)


def heavenly(ruleset: Ruleset, table, seat: int, how: str) -> str:
    """天和 / 地和 (§8.2) from the table before the win: 天和 the dealer's dealt 17 tiles, before
    any discard or kong; 地和 by ``dihe_scope``: a non-dealer on the dealer's first discard
    before any call (the dealer's own concealed kong is not one), or a win in the first
    go-around on one's 上家's discard."""
    dealer = table.dealer
    if how == "self_draw":
        if seat == dealer and not any(table.discards) and not any(table.melds) and sum(table.received[seat]) == 17:
            return "tianhe"
        return ""
    last = table.last_discard
    if how != "discard" or last is None or seat == dealer:
        return ""
    if ruleset.dihe_scope == "dealer_first_discard":
        first = last[0] == dealer and sum(len(d) for d in table.discards) == 1
        return "dihe" if first and not _calls(table) else ""
    n = len(table.discards)
    return "dihe" if last[0] == (seat - 1) % n and not table.discards[seat] and not _calls(table) else ""


@dataclass(frozen=True)
class WenzhouContext(WinContext):
    """How a Wenzhou hand was won, with the one table fact its score needs besides 天和 / 地和."""

    #: a self-draw's turn came with a draw — a wall draw, a kong replacement, or the dealer's
    #: dealt 17 — not a chow or a pong: only such a turn wins bare with three 财神 (§7.3)
    turn_drawn: bool = True


def turn_drawn(table, seat: int) -> bool:
    """The seat's turn came with a draw (§7.3): its 17th tile is a wall draw or a replacement,
    or it is the dealer before any discard or meld (its dealt tiles); a turn reached by a chow
    or a pong is not one."""
    if table.turn_draw is not None:
        return True
    return seat == table.dealer and not any(table.discards) and not any(table.melds)


#: the contexts made so far, by their fields (a context is frozen, so equal ones are shared:
#: the audit asks for one for every score it makes)
_CONTEXTS: dict[tuple, WenzhouContext] = {}


def win_context(ruleset: Ruleset, table, seat: int, how: str, tile, after_kong: bool, kong_discard: bool,
                winners: int = 1) -> WinContext:
    """How a Wenzhou hand was won: 天和 / 地和 are the moments the score names; a self-draw
    says whether its turn came with a draw (the bare 三财神)."""
    key = (how, tile, after_kong, kong_discard, heavenly(ruleset, table, seat, how), winners,
           how != "self_draw" or turn_drawn(table, seat))
    got = _CONTEXTS.get(key)
    if got is None:
        if len(_CONTEXTS) > 4096:  # bounded: a long audit keeps a small memory
            _CONTEXTS.clear()
        got = _CONTEXTS[key] = WenzhouContext(how=how, win_tile=tile, after_kong=after_kong,
                                              kong_discard=kong_discard, heavenly=key[4], winners=winners,
                                              turn_drawn=key[6])
    return got


def request_context(ruleset: Ruleset, ctx: WinContext, req) -> WinContext:
    """``WinRules.request_context`` (``paipu hand``): ``--context after_call=true`` scores a
    self-draw whose turn was reached by a chow or a pong (no bare 三财神, §7.3)."""
    extra = dict(req.get("context") or {})
    unknown = set(extra) - {"after_call"}
    if unknown:
        raise ValueError(f"unknown context {', '.join(sorted(unknown))} (Wenzhou takes after_call)")
    after_call = extra.get("after_call", False)
    if not isinstance(after_call, bool):
        raise ValueError(f"after_call is true or false, not {after_call!r}")
    if after_call and ctx.how != "self_draw":
        raise ValueError("after_call is a self-draw's turn reached by a chow or a pong")
    return WenzhouContext(**asdict(ctx), turn_drawn=not after_call)


def request_of(ruleset: Ruleset, ctx: WinContext) -> dict:
    """``WinRules.request_of``: the inverse of ``request_context`` — a self-draw whose turn came
    by a chow or a pong is ``after_call`` (§7.3)."""
    if ctx.how == "self_draw" and not getattr(ctx, "turn_drawn", True):
        return {"context": {"after_call": True}}
    return {}


#: the kongs, each of which takes a replacement from the reserve (§2)
_KONGS = frozenset((ev.KongExposed, ev.KongAdded, ev.KongConcealed))


def event_checks(ruleset: Ruleset, table, event) -> list[Violation]:
    """A kong needs a tile left for its replacement (R ≥ 1: the reserve serves kongs, §2,
    KONG_WITHOUT_REPLACEMENT); a 买底 bet only before a dealership's first hand (§9.3)."""
    t = type(event)
    if t in _KONGS and table.undrawn <= 0:
        return [Violation("KONG_WITHOUT_REPLACEMENT", "a kong with no undrawn tile left for its replacement",
                          ">= 1 undrawn tile", 0)]
    if t is ev.PigBetPlaced and ruleset.maidi and level_of(table) != 1:
        return [Violation("YANGZHU_BET_INVALID", f"a 买底 bet in a hand dealt at level {level_of(table)} "
                          "(bets come before a dealership's first hand)", "level 1", level_of(table))]
    return []


__all__ = ["WenzhouContext", "discard_rule", "discard_rule_for", "event_checks", "heavenly", "honour_violation", "natural_count",
           "request_context", "request_of", "single_honours", "turn_drawn", "win_context"]
