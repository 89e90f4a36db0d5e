"""Winning-hand recognition with 0–8 wild tiles (chickens / ghosts).

Vocabulary
----------
* **naturals** — a 34-count list of the concealed tiles that are *not* acting as
  wild: every non-wild tile, plus a chicken that was *discarded* and won on (a
  discarded chicken is a plain tile, qujing.md §4).
* **wilds** — how many chickens are held concealed; each may stand for any tile.
* **meld use** — a 34-count list of the tiles the player's own declared melds
  *represent* (a pong of 7z adds 3 to 7z, a kong 4 to its kind, a chow 1 to each).

The max-four rule (§4: "no reading uses more than four of one tile, counting the
chickens that stand for it and the player's own melds") is enforced as a
*headroom*: a wild may stand for tile ``t`` only while
``naturals[t] + meld_use[t] + wilds_standing_for_t <= 4``.  Natural tiles
themselves are never refused (they physically exist).

Fast path
---------
Every suit (9 kinds, runs allowed) and the honours (7 kinds, each alone, no runs)
is keyed by its counts as a base-5 number (:func:`suit_key`).  A per-suit table
maps the key to ``(a, d)``: ``a`` = the minimum wilds that make the suit "sets
only", ``a + d`` = the minimum for "sets + the pair".  A hand of ``3k+2`` tiles is
complete with ``w`` wilds iff ``Σa + min(2, d_m, d_p, d_s, d_z) <= w`` (the pair
lives in one suit, or is two wilds; leftover wilds are always a multiple of
three and form sets of their own).  The tables are filled lazily, one entry per
key on first use, from the memoised recursion's answers precomputed for every
suit of up to 14 tiles (:mod:`audits.rules.suit_minima`; the recursion itself
runs only for larger suits); afterwards a completeness check is four dict
look-ups, whatever the number of wilds.  Without wilds, four no-wild codes
(sets only 0, sets + pair 1) summing to 1 decide it.  Suits touched by a meld
use a second memo keyed by (counts, headroom).

Slow path (scoring only)
------------------------
:func:`readings` enumerates every reading (sets, pair, and the tile each wild
stands for) so the fan of the **highest** reading can be scored (§5).
"""

from __future__ import annotations

import os
import struct
import zlib
from itertools import combinations_with_replacement
from typing import Iterable, Iterator, NamedTuple, Sequence

NUM_KINDS = 34
INF = 99
_POW5 = tuple(5 ** (8 - i) for i in range(9))  # most significant digit first
_POW5_Z = tuple(5 ** (6 - i) for i in range(7))

# ---------------------------------------------------------------------------
# per-suit solver (memoised; only run on a table miss)


_SUB_MEMO: dict[tuple, tuple[int, int]] = {}


def _solve(counts: tuple, head: tuple, runs: bool) -> tuple[int, int]:
    """(sets-only, sets+pair) minimum wilds for one suit.

    ``counts`` natural counts, ``head`` how many wilds each kind may still take
    (max-four rule), ``runs`` whether runs exist (False for honours).  A
    left-to-right dynamic programme: at kind ``i`` the *slots* filled (runs
    carried in, new runs, a triplet, the pair) cover every natural tile and at
    most ``head`` wilds.
    """
    limits = tuple(c + h for c, h in zip(counts, head))
    return _dp(0, counts, limits, 0, 0, runs)


def _dp(i: int, counts: tuple, limits: tuple, p1: int, p2: int, runs: bool) -> tuple[int, int]:
    # p1: runs started at i-1 (need i and i+1); p2: runs started at i-2 (need i)
    n = len(counts)
    if i == n:
        return (0, INF) if p1 == 0 and p2 == 0 else (INF, INF)
    key = (i, counts[i:], limits[i:], p1, p2, runs)
    got = _SUB_MEMO.get(key)
    if got is not None:
        return got
    c = counts[i]
    lim = limits[i]
    carried = p1 + p2
    best_a = best_b = INF
    max_new = 0
    if runs and i <= n - 3:
        max_new = lim - carried
    for x in range(0, max(0, max_new) + 1):  # new runs starting at i
        for y in (0, 1):  # a triplet of i (two triplets would be six tiles)
            base = carried + x + 3 * y
            if base > lim:
                break
            a2, b2 = _dp(i + 1, counts, limits, x, p1, runs)
            # without the pair at i
            if base >= c:
                w = base - c
                if w + a2 < best_a:
                    best_a = w + a2
                if w + b2 < best_b:
                    best_b = w + b2
            # with the pair at i
            if base + 2 <= lim and base + 2 >= c:
                w = base + 2 - c
                if w + a2 < best_b:
                    best_b = w + a2
    res = (min(best_a, INF), min(best_b, INF))
    _SUB_MEMO[key] = res
    return res


def key_counts(key: int, n: int) -> tuple[int, ...]:
    """The ``n`` counts a suit key holds (base 5, the first kind the most significant
    digit: the reducer's ``KEY_STEP``), first kind first."""
    out = [0] * n
    for i in range(n - 1, -1, -1):
        key, out[i] = divmod(key, 5)
    return tuple(out)


# key -> (a, d): a = min wilds for sets only, a + d = min wilds for sets + pair
_SUIT_TABLE: dict[int, tuple[int, int]] = {}
_HONOUR_TABLE: dict[int, tuple[int, int]] = {}


#: The no-wild codes of every complete suit pattern of at most 14 tiles: 0 = sets only,
#: 1 = sets + the pair (exclusive: 3k against 3k+2 tiles).  A hand without wilds is
#: complete iff its four codes sum to 1 (four look-ups, three adds); a pattern in no table
#: is neither.  Keyed by the suit's counts bytes and by its base-5 key.  Filled by
#: :func:`_prefill`.
_SUIT_CODE_BYTES: dict[bytes, int] = {}
_HONOUR_CODE_BYTES: dict[bytes, int] = {}
_SUIT_CODE: dict[int, int] = {}
_HONOUR_CODE: dict[int, int] = {}

#: the 34 counts, as bytes, cut into the m, p, s and honour suits
_SPLIT = struct.Struct("9s9s9s7s").unpack


def _entry(a: int, b: int) -> tuple[int, int]:
    """Encode (sets-only, sets+pair) minima as (a, d).

    When no sets-only reading exists, ``a`` is a large 49 (any sum with it exceeds
    8 wilds) and ``d`` is negative so that hosting the pair here costs exactly ``b``.
    """
    if a >= INF:
        return (INF // 2, b - INF // 2) if b < INF else (INF, 0)
    return (a, min(b, INF) - a)


#: The programme's answers for every suit of up to 14 tiles, precomputed
#: (:mod:`audits.rules.suit_minima`): read on the first table miss.
MINIMA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "suit_minima.bin")
_STORED: list = []


def stored_minima() -> tuple[bytes, bytes]:
    """The precomputed (sets only, sets + pair) byte pairs by suit key, then by honour key."""
    if not _STORED:
        with open(MINIMA_PATH, "rb") as f:
            raw = zlib.decompress(f.read())
        cut = 2 * 5 ** 9
        _STORED.extend((raw[:cut], raw[cut:]))
    return _STORED[0], _STORED[1]


def _fill(key: int, n: int, runs: bool, table: dict, stored: bytes) -> tuple[int, int]:
    a = stored[2 * key]
    if a != 255:  # precomputed (every suit a hand can hold)
        e = _entry(a, stored[2 * key + 1])
    else:
        counts = key_counts(key, n)
        e = _entry(*_solve(counts, tuple(max(0, 4 - c) for c in counts), runs))
        _maybe_trim()
    table[key] = e
    return e


def _fill_suit(key: int) -> tuple[int, int]:
    return _fill(key, 9, True, _SUIT_TABLE, stored_minima()[0])


def _fill_honour(key: int) -> tuple[int, int]:
    return _fill(key, 7, False, _HONOUR_TABLE, stored_minima()[1])


def _maybe_trim() -> None:
    # the sub-state memo only speeds up filling; bounded so a long audit keeps a small RSS
    if len(_SUB_MEMO) > 200_000:
        _SUB_MEMO.clear()


def suit_key(counts: Sequence[int], start: int, n: int = 9) -> int:
    """Base-5 key of ``counts[start:start+n]`` (first kind most significant)."""
    k = 0
    for i in range(start, start + n):
        k = k * 5 + counts[i]
    return k


def hand_keys(counts: Sequence[int]) -> tuple[int, int, int, int]:
    """The four suit keys (m, p, s, honours) of a 34-count list."""
    c = counts
    return (
        ((((((((c[0] * 5 + c[1]) * 5 + c[2]) * 5 + c[3]) * 5 + c[4]) * 5 + c[5]) * 5 + c[6]) * 5 + c[7]) * 5 + c[8]),
        ((((((((c[9] * 5 + c[10]) * 5 + c[11]) * 5 + c[12]) * 5 + c[13]) * 5 + c[14]) * 5 + c[15]) * 5 + c[16]) * 5 + c[17]),
        ((((((((c[18] * 5 + c[19]) * 5 + c[20]) * 5 + c[21]) * 5 + c[22]) * 5 + c[23]) * 5 + c[24]) * 5 + c[25]) * 5 + c[26]),
        ((((((c[27] * 5 + c[28]) * 5 + c[29]) * 5 + c[30]) * 5 + c[31]) * 5 + c[32]) * 5 + c[33]),
    )


def suit_entry(key: int, honours: bool = False) -> tuple[int, int]:
    """The table entry ``(a, d)`` of one suit key (filled on first use)."""
    t = _HONOUR_TABLE if honours else _SUIT_TABLE
    e = t.get(key)
    if e is None:
        e = _fill_honour(key) if honours else _fill_suit(key)
    return e


def _make_is_complete_keys():
    # the tables are bound as closure cells: the hot path reads them as fast as locals
    suit_code, honour_code, st, ht = _SUIT_CODE, _HONOUR_CODE, _SUIT_TABLE, _HONOUR_TABLE

    def is_complete_keys(km: int, kp: int, ks: int, kz: int, wilds: int) -> bool:
        """Hot path: is a ``3k+2`` hand with these suit keys complete with ``wilds``?

        The caller guarantees the tile count (naturals + wilds) is ``3k+2`` and that
        no meld limits the headroom (else use :func:`is_complete`).  Without wilds the
        tile count needs no guarantee and melds never matter.
        """
        if not wilds:
            # complete iff one suit is sets + the pair (code 1) and the others sets only
            # (code 0); a key in neither code table (9) is left to the tables below,
            # which are exact for any key
            code = suit_code.get(km, 9) + suit_code.get(kp, 9) + suit_code.get(ks, 9) + honour_code.get(kz, 9)
            if code < 9:
                return code == 1
            if not _prefilled:
                _prefill()
                return is_complete_keys(km, kp, ks, kz, wilds)
        e0 = st.get(km) or _fill_suit(km)
        e1 = st.get(kp) or _fill_suit(kp)
        e2 = st.get(ks) or _fill_suit(ks)
        e3 = ht.get(kz) or _fill_honour(kz)
        # the pair sits in one suit (cost d) or is two wilds (cost 2)
        return e0[0] + e1[0] + e2[0] + e3[0] + min(2, e0[1], e1[1], e2[1], e3[1]) <= wilds

    return is_complete_keys


is_complete_keys = _make_is_complete_keys()


#: suit key -> ((kind index in the suit, a, d) for each kind the suit holds), ``(a, d)``
#: the table entry of the suit less one tile of that kind
_REMOVALS: dict[int, tuple[tuple[int, int, int], ...]] = {}
_HONOUR_REMOVALS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def _removals(key: int, honours: bool) -> tuple[tuple[int, int, int], ...]:
    memo = _HONOUR_REMOVALS if honours else _REMOVALS
    got = memo.get(key)
    if got is None:
        pw = _POW5_Z if honours else _POW5
        out = []
        for i, c in enumerate(key_counts(key, len(pw))):
            if c:
                a, d = suit_entry(key - pw[i], honours)
                out.append((i, a, d))
        got = memo[key] = tuple(out)
        if len(memo) > 200_000:  # bounded, like the solver's memo
            memo.clear()
            memo[key] = got
    return got


def _summary(key: int, honours: bool) -> tuple[int, int, int, int]:
    """``(a, d, P, Q)`` of one suit key: its table entry, then over every one-tile
    removal ``(a', d')`` the least ``a' + d' - a`` (P) and the least ``a' - a`` (Q); 99
    when it holds none."""
    memo = _HONOUR_SUMMARY if honours else _SUIT_SUMMARY
    a, d = suit_entry(key, honours)
    rem = (_HONOUR_REMOVALS if honours else _REMOVALS).get(key) or _removals(key, honours) if key else ()
    got = (a, d, min((x + y - a for _, x, y in rem), default=INF), min((x - a for _, x, _ in rem), default=INF))
    if len(memo) > 200_000:  # bounded, like the solver's memo
        memo.clear()
    memo[key] = got
    return got


#: suit key -> :func:`_summary`
_SUIT_SUMMARY: dict[int, tuple[int, int, int, int]] = {}
_HONOUR_SUMMARY: dict[int, tuple[int, int, int, int]] = {}


def complete_without(keys: Sequence[int], wilds: int) -> list[int]:
    """Every kind ``t`` the hand of suit ``keys`` holds such that the hand less one ``t``
    is complete with ``wilds`` (:func:`is_complete_keys` of each), in kind order.

    Same contract as :func:`is_complete_keys` for each hand tested (``3k+2`` tiles
    once one ``t`` is gone, no meld headroom).  Each suit's removals are looked up
    once per suit key.
    """
    k0, k1, k2, k3 = keys[0], keys[1], keys[2], keys[3]
    s0 = _SUIT_SUMMARY.get(k0) or _summary(k0, False)
    s1 = _SUIT_SUMMARY.get(k1) or _summary(k1, False)
    s2 = _SUIT_SUMMARY.get(k2) or _summary(k2, False)
    s3 = _HONOUR_SUMMARY.get(k3) or _summary(k3, True)
    a0, a1, a2, a3 = s0[0], s1[0], s2[0], s3[0]
    # the wilds the hand has beyond making every suit sets only
    spare = wilds - a0 - a1 - a2 - a3
    d0, d1, d2, d3 = s0[1], s1[1], s2[1], s3[1]
    # A removal (a', d') in a suit completes the hand iff a' - a + min(d', the pair's cost
    # outside the suit) <= spare, so only if P or Q + the least d (or 2) is: most hands
    # are far from it and stop here.
    if s0[2] > spare and s1[2] > spare and s2[2] > spare and s3[2] > spare:
        room = spare - min(2, d0, d1, d2, d3)
        if s0[3] > room and s1[3] > room and s2[3] > room and s3[3] > room:
            return []
    po0, po1, po2, po3 = min(2, d1, d2, d3), min(2, d0, d2, d3), min(2, d0, d1, d3), min(2, d0, d1, d2)
    out = []
    for su, k, a_su, pair_out in ((0, k0, a0, po0), (1, k1, a1, po1), (2, k2, a2, po2), (3, k3, a3, po3)):
        if not k:
            continue
        room = spare + a_su
        ck = (su, k, room, pair_out)
        hits = _HITS.get(ck)
        if hits is None:
            base = 9 * su
            hits = tuple(base + i for i, a, d in (_HONOUR_REMOVALS if su == 3 else _REMOVALS).get(k)
                         or _removals(k, su == 3) if a + (d if d < pair_out else pair_out) <= room)
            if len(_HITS) > 200_000:
                _HITS.clear()
            _HITS[ck] = hits
        if hits:
            out.extend(hits)
    return out


#: (suit, suit key, wilds left for it, best pair cost outside it) -> the kinds of that
#: suit whose removal completes the hand (:func:`complete_without`, memoised)
_HITS: dict[tuple[int, int, int, int], tuple[int, ...]] = {}


def _capped_entry(counts: Sequence[int], use: Sequence[int], start: int, n: int, runs: bool) -> tuple[int, int]:
    c = tuple(counts[start:start + n])
    h = tuple(max(0, 4 - c[i] - use[start + i]) for i in range(n))
    key = (c, h, runs)
    e = _CAPPED.get(key)
    if e is None:
        e = _entry(*_solve(c, h, runs))
        if len(_CAPPED) > 200_000:  # bounded: a long audit keeps a small memory
            _CAPPED.clear()
        _CAPPED[key] = e
        _maybe_trim()
    return e


#: (a suit's counts, the wilds each kind may still take, runs) -> its (a, d) entry: a suit
#: whose headroom a meld limits is solved once (:func:`_capped_entry`)
_CAPPED: dict[tuple, tuple[int, int]] = {}


def _make_is_complete():
    # the tables are bound as closure cells: the hot path reads them as fast as locals
    split, suit_code, honour_code = _SPLIT, _SUIT_CODE_BYTES, _HONOUR_CODE_BYTES
    suit_get, honour_get = suit_code.get, honour_code.get

    def is_complete(counts: Sequence[int], wilds: int = 0, meld_use: Sequence[int] | None = None) -> bool:
        """Standard completeness: do ``counts`` (naturals) plus ``wilds`` make sets + one pair?

        Melds count as sets, so pass only the concealed part (``3k+2`` tiles); the
        melds matter only through ``meld_use`` (max-four rule), which limits wilds
        alone: without wilds it is never consulted.
        """
        if not wilds:
            try:
                # the counts' bytes, one piece per suit
                m, p, s, z = split(bytearray(counts))
            except (ValueError, TypeError, struct.error):
                # a count outside 0..255, or not 34 counts: the general path
                return _is_complete_general(counts, wilds, meld_use)
            # one suit is sets + the pair (code 1), the others sets only (code 0); a
            # piece in no table (9) is neither
            code = suit_get(m, 9) + suit_get(p, 9) + suit_get(s, 9) + honour_get(z, 9)
            if code < 9:
                return code == 1
            # a piece in no table is neither (once the tables are filled), unless it
            # holds more tiles than they cover (never in a hand of at most 14 tiles)
            if not _prefilled:
                _prefill()
                return is_complete(counts, wilds, meld_use)
            if sum(counts) <= 14:
                return False
            # more tiles than the code tables cover (a 16-tile hand): the exact entries
            return _is_complete_wilds(counts, 0, None)
        return _is_complete_wilds(counts, wilds, meld_use)

    return is_complete


is_complete = _make_is_complete()


def _is_complete_wilds(counts: Sequence[int], wilds: int, meld_use: Sequence[int] | None) -> bool:
    """:func:`is_complete` with wilds."""
    if meld_use is None or not any(meld_use):
        try:
            m, p, s, z = _SPLIT(bytearray(counts))
        except (ValueError, TypeError, struct.error):
            pass
        else:
            # No meld headroom: tables whose entries also carry the suit's tile count
            # (so the 3k+2 test needs no sum()).
            st = _SUIT_BYTES
            e0 = st.get(m) or _bytes_entry(m)
            e1 = st.get(p) or _bytes_entry(p)
            e2 = st.get(s) or _bytes_entry(s)
            e3 = _HONOUR_BYTES.get(z) or _bytes_entry(z)
            if (e0[2] + e1[2] + e2[2] + e3[2] + wilds) % 3 != 2:
                return False
            return e0[0] + e1[0] + e2[0] + e3[0] + min(2, e0[1], e1[1], e2[1], e3[1]) <= wilds
    return _is_complete_general(counts, wilds, meld_use)


def sets_need(counts: Sequence[int]) -> int:
    """The fewest wilds that make ``counts`` complete sets with no pair (the sum over the suits
    of their tables' sets-only cost; no max-four room: a set of wilds alone may take any kind).
    The caller tests the tile count (``3k``)."""
    try:
        m, p, s, z = _SPLIT(bytearray(counts))
    except (ValueError, TypeError, struct.error):
        keys = hand_keys(counts)
        return sum(suit_entry(keys[i], i == 3)[0] for i in range(4))
    st = _SUIT_BYTES
    return ((st.get(m) or _bytes_entry(m))[0] + (st.get(p) or _bytes_entry(p))[0]
            + (st.get(s) or _bytes_entry(s))[0] + (_HONOUR_BYTES.get(z) or _bytes_entry(z))[0])


def _is_complete_general(counts: Sequence[int], wilds: int, meld_use: Sequence[int] | None) -> bool:
    """:func:`is_complete` for any counts: the base-5 tables, or the solver where a
    meld limits a suit's headroom."""
    total = sum(counts) + wilds
    if total % 3 != 2:
        return False
    if not wilds or meld_use is None or not any(meld_use):
        es = [suit_entry(suit_key(counts, 9 * s, 9 if s < 3 else 7), s == 3) for s in range(4)]
    else:
        es = []
        for s in range(4):
            start = 9 * s
            n = 9 if s < 3 else 7
            if any(meld_use[start:start + n]):
                es.append(_capped_entry(counts, meld_use, start, n, s < 3))
            else:
                es.append(suit_entry(suit_key(counts, start, n), s == 3))
    need = sum(e[0] for e in es) + min(2, *(e[1] for e in es))
    return need <= wilds


# ---------------------------------------------------------------------------
# the bytes-keyed tables (is_complete from counts) and their one-off prefill

#: counts bytes of one suit -> (a, d, tiles in the suit); the same (a, d) as the base-5 tables
_SUIT_BYTES: dict[bytes, tuple[int, int, int]] = {}
_HONOUR_BYTES: dict[bytes, tuple[int, int, int]] = {}
_prefilled = False


def _bytes_entry(b: bytes) -> tuple[int, int, int]:
    """Fill one bytes-keyed entry from the base-5 table (same key arithmetic as
    :func:`hand_keys`, so both tables always agree)."""
    if not _prefilled:
        _prefill()
        got = (_HONOUR_BYTES if len(b) == 7 else _SUIT_BYTES).get(b)
        if got is not None:
            return got
    k = 0
    for x in b:
        k = k * 5 + x
    honours = len(b) == 7
    a, d = suit_entry(k, honours)
    e = (a, d, sum(b))
    (_HONOUR_BYTES if honours else _SUIT_BYTES)[b] = e
    return e


def _complete_patterns(n: int, runs: bool) -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]]:
    """Every count pattern of one suit (``n`` kinds, ≤ 4 of a kind) that is sets only
    (up to 5 sets) or sets + one pair (up to 14 tiles), as base-5 key -> counts."""
    pw = tuple(5 ** (n - 1 - i) for i in range(n))
    shapes = [(i,) * 3 for i in range(n)]  # triplets
    if runs:
        shapes += [(i, i + 1, i + 2) for i in range(n - 2)]
    empty = (0,) * n
    layer = {0: empty}
    sets_only = dict(layer)
    for _ in range(5):
        nxt: dict[int, tuple[int, ...]] = {}
        for key, c in layer.items():
            for sh in shapes:
                k2 = key + pw[sh[0]] + pw[sh[1]] + pw[sh[2]]
                if k2 in nxt:
                    continue
                c2 = list(c)
                for i in sh:
                    c2[i] += 1
                if max(c2) <= 4:
                    nxt[k2] = tuple(c2)
        sets_only.update(nxt)
        layer = nxt
    with_pair: dict[int, tuple[int, ...]] = {}
    for key, c in sets_only.items():
        if sum(c) <= 12:
            for i in range(n):
                if c[i] <= 2:
                    k2 = key + 2 * pw[i]
                    if k2 not in with_pair:
                        c2 = list(c)
                        c2[i] += 2
                        with_pair[k2] = tuple(c2)
    return sets_only, with_pair


def _prefill() -> None:
    """Fill both tables at once for every complete suit pattern (the keys a check of a
    complete hand meets), far faster than one solver run per key.

    * sets only (``3k`` tiles, ``k`` ≤ 4): a = 0; the pair costs exactly 2 wilds
      (it needs ``≡ 2 (mod 3)`` more tiles, and some kind holds ≤ 2, so a wild pair fits).
    * sets + pair (``3k+2`` tiles): a + d = 0; a = 1 when one more tile makes sets only
      (``a ≡ 1 (mod 3)``), else the solver decides (rare).
    """
    global _prefilled
    _prefilled = True
    for n, runs, table, btable, codes, code_bytes in (
            (9, True, _SUIT_TABLE, _SUIT_BYTES, _SUIT_CODE, _SUIT_CODE_BYTES),
            (7, False, _HONOUR_TABLE, _HONOUR_BYTES, _HONOUR_CODE, _HONOUR_CODE_BYTES)):
        pw = tuple(5 ** (n - 1 - i) for i in range(n))
        sets_only, with_pair = _complete_patterns(n, runs)
        for key, c in sets_only.items():
            if sum(c) <= 12:
                codes[key] = code_bytes[bytes(c)] = 0
                e = table.get(key)
                if e is None:
                    e = table[key] = (0, 2)
                btable[bytes(c)] = (e[0], e[1], sum(c))
        for key, c in with_pair.items():
            codes[key] = code_bytes[bytes(c)] = 1
            e = table.get(key)
            if e is None:
                if any(c[i] <= 3 and key + pw[i] in sets_only for i in range(n)):
                    e = table[key] = (1, -1)
                else:
                    e = _fill_honour(key) if n == 7 else _fill_suit(key)
            btable[bytes(c)] = (e[0], e[1], sum(c))



#: suit key -> the 9-bit masks of the kinds one more tile of which leaves the suit
#: (sets only, sets + the pair): the waits of a hand without wilds, suit by suit
_ADDS: dict[int, tuple[int, int]] = {}
_SUIT_STEPS = tuple(5 ** (8 - i) for i in range(9))


def suit_code(key: int) -> int:
    """A suit key's code without wilds: 0 sets only, 1 sets + the pair, 9 neither."""
    if not _prefilled:
        _prefill()
    return _SUIT_CODE.get(key, 9)


def suit_adds(key: int) -> tuple[int, int]:
    """The kinds (bit ``i``: the suit's ``i``-th kind, at most four of a kind) one more tile
    of which makes the suit of ``key`` sets only (first mask) or sets + the pair (second),
    without wilds.  A hand of ``3k+1`` suited tiles is complete with a tile ``t`` exactly
    when the suit of ``t`` reaches one code and the other suits sum to the other (one
    pair in all), so its waits are these masks, read by the codes of the other suits."""
    got = _ADDS.get(key)
    if got is None:
        if not _prefilled:
            _prefill()
        zero = one = 0
        for i, step in enumerate(_SUIT_STEPS):
            if key // step % 5 < 4:
                c = _SUIT_CODE.get(key + step, 9)
                if c == 0:
                    zero |= 1 << i
                elif c == 1:
                    one |= 1 << i
        if len(_ADDS) > 200_000:  # bounded, so a long audit keeps a small RSS
            _ADDS.clear()
        got = _ADDS[key] = (zero, one)
    return got


def is_seven_pairs(counts: Sequence[int], wilds: int = 0, has_melds: bool = False) -> bool:
    """小七对: 14 concealed tiles, no melds, seven pairs (four equal tiles are two pairs).

    Each natural kind with an odd count needs one wild; spare wilds pair up
    (two wilds of any kind, or onto an existing pair).
    """
    if has_melds or sum(counts) + wilds != 14:
        return False
    try:
        odd = bytearray(counts).translate(_ODD).count(1)  # the odd counts, at C speed
    except (ValueError, TypeError):
        odd = sum(1 for c in counts if c & 1)
    return odd <= wilds


#: byte value -> 1 when odd, else 0 (counts the odd counts of a counts bytearray)
_ODD = bytes(x & 1 for x in range(256))


def seven_pairs_without(counts: Sequence[int], wilds: int = 0, has_melds: bool = False) -> list[int]:
    """Every kind ``t`` held (``counts[t] > 0``) such that ``counts`` less one ``t`` is
    小七对 with ``wilds`` (:func:`is_seven_pairs` of each), in kind order: taking one
    ``t`` turns its count's parity, nothing else."""
    if has_melds or sum(counts) - 1 + wilds != 14:
        return []
    odd = sum(1 for c in counts if c & 1)
    return [t for t, c in enumerate(counts) if c > 0 and (odd - 1 if c & 1 else odd + 1) <= wilds]


def is_winning(counts: Sequence[int], wilds: int = 0, meld_use: Sequence[int] | None = None,
               has_melds: bool = False, seven_pairs: bool = True) -> bool:
    """4 sets + pair (melds count as sets), or seven pairs (concealed only) where the
    family allows them (``seven_pairs``)."""
    return is_complete(counts, wilds, meld_use) or (seven_pairs and is_seven_pairs(counts, wilds, has_melds))


def is_one_from_complete(counts: Sequence[int], wilds: int = 0, meld_use: Sequence[int] | None = None,
                         has_melds: bool = False, seven_pairs: bool = True) -> bool:
    """Fast "one tile from complete" (听牌) check for a ``3k+1`` concealed hand.

    One more tile completes the hand iff one more wild does: a wild can stand
    for exactly the tiles that could complete it (same headroom rule).
    """
    return is_winning(counts, wilds + 1, meld_use, has_melds, seven_pairs)


def waits(counts: Sequence[int], wilds: int = 0, meld_use: Sequence[int] | None = None,
          has_melds: bool = False, seven_pairs: bool = True, physical: Sequence[int] | None = None) -> list[int]:
    """Plain tiles ``t`` such that naturals + ``t`` (+ the same wilds) win.

    A drawn chicken always completes a hand that has any wait.  ``physical``: the
    physical copies of each kind the player holds (concealed, wild kinds included,
    and in its own melds); a kind already held four times cannot be drawn.
    """
    if not is_one_from_complete(counts, wilds, meld_use, has_melds, seven_pairs):
        return []
    out = []
    c = list(counts)
    use = meld_use or [0] * NUM_KINDS
    for t in range(NUM_KINDS):
        if c[t] + use[t] >= 4 or (physical is not None and physical[t] >= 4):
            continue  # a fifth copy of t cannot exist
        c[t] += 1
        if is_winning(c, wilds, meld_use, has_melds, seven_pairs):
            out.append(t)
        c[t] -= 1
    return out


def meld_use_of(melds: Iterable) -> list[int]:
    """34 counts of the tiles the melds represent (``Meld`` from ``replay.melds``)."""
    use = [0] * NUM_KINDS
    for m in melds:
        if m.kind == "chow":
            for t in range(m.of, m.of + 3):
                use[t] += 1
        elif m.kind == "pong":
            use[m.of] += 3
        else:
            use[m.of] += 4
    return use


def split_wilds(tiles: Iterable[int], wild_kinds: Iterable[int], plain: int | None = None
                ) -> tuple[list[int], int, dict[int, int]]:
    """Split concealed tiles into (naturals counts, wild count, wilds held by kind).

    ``plain`` is a discarded chicken won on: it stays a plain tile (§4).
    """
    wk = set(wild_kinds)
    counts = [0] * NUM_KINDS
    by_kind: dict[int, int] = {}
    w = 0
    plain_left = plain is not None and plain in wk
    for t in tiles:
        if t in wk:
            if plain_left and t == plain:
                plain_left = False
                counts[t] += 1
                continue
            w += 1
            by_kind[t] = by_kind.get(t, 0) + 1
        else:
            counts[t] += 1
    return counts, w, by_kind


# ---------------------------------------------------------------------------
# readings (slow path, for scoring)


class Group(NamedTuple):
    """One concealed group of a reading.

    ``kind`` is ``chow``, ``pong`` or ``pair``; ``tiles`` the represented tiles
    (sorted); ``wild_as`` the represented tiles that chickens supply.
    """

    kind: str
    tiles: tuple[int, ...]
    wild_as: tuple[int, ...] = ()


class Reading(NamedTuple):
    """One way to read the concealed tiles: its groups, and whether it is 小七对."""

    groups: tuple[Group, ...]
    seven_pairs: bool = False

    @property
    def wild_assignments(self) -> tuple[int, ...]:
        """The tile each wild stands for (sorted)."""
        return tuple(sorted(t for g in self.groups for t in g.wild_as))

    @property
    def sets(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.kind != "pair")

    @property
    def pairs(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.kind == "pair")


_RUN_STARTS = tuple(s * 9 + r for s in range(3) for r in range(7))


def _candidate_kinds(counts: Sequence[int], use: Sequence[int], extra: Iterable[int], exhaustive: bool) -> list[int]:
    if exhaustive:
        return list(range(NUM_KINDS))
    kinds = set(range(27, 34)) | set(extra) | {13}  # honours, 5p (五梅花)
    suits = {t // 9 for t in range(27) if counts[t] or use[t]}
    if not suits:
        suits = {0}
    for s in suits:
        kinds.update(range(9 * s, 9 * s + 9))
    return sorted(kinds)


def readings(counts: Sequence[int], wilds: int = 0, meld_use: Sequence[int] | None = None,
             has_melds: bool = False, exhaustive: bool = False,
             extra_kinds: Iterable[int] = ()) -> Iterator[Reading]:
    """Every reading of a complete concealed part (standard and 小七对).

    Sets that hold at least one natural tile are enumerated exhaustively.
    Groups made of chickens only range over every kind when ``exhaustive``;
    otherwise over the kinds that can change a Qujing fan (every honour, 5p,
    ``extra_kinds`` such as the wild kinds, and every kind of a suit present in
    the hand).  Duplicate readings are yielded once.
    """
    c = list(counts)
    head: list[int] = []
    kinds: list[int] = []
    if wilds:  # the room each kind has for a chicken, and the kinds a chicken-only group may be
        use = list(meld_use) if meld_use is not None else [0] * NUM_KINDS
        head = [4 - a - b if a + b < 4 else 0 for a, b in zip(c, use)]
        kinds = _candidate_kinds(c, use, extra_kinds, exhaustive)
    seen: set = set()
    if (sum(c) + wilds) % 3 == 2:
        found: list[list[Group]] = []
        if wilds:
            _std(c, wilds, head, False, [], kinds, found)
        else:
            _plain(c, False, [], found, 0)
        for groups in found:
            key = tuple(sorted(groups))
            if key not in seen:
                seen.add(key)
                yield Reading(key, False)
    if is_seven_pairs(counts, wilds, has_melds):
        for groups in _pairs7(c, wilds, head, kinds):
            key = tuple(sorted(groups))
            if key not in seen:
                seen.add(key)
                yield Reading(key, True)


#: the groups a reading takes, made once (they are values): the triplet and the pair of
#: each kind by how many chickens it takes, and each run by the positions chickens fill
#: in it (bit ``j`` for its ``j``-th tile)
_TRIPLETS = tuple(tuple(Group("pong", (i, i, i), (i,) * x) for x in range(4)) for i in range(NUM_KINDS))
_PAIRS = tuple(tuple(Group("pair", (i, i), (i,) * x) for x in range(3)) for i in range(NUM_KINDS))
_RUNS = {s: tuple(Group("chow", (s, s + 1, s + 2), tuple(s + j for j in range(3) if m >> j & 1)) for m in range(8))
         for s in _RUN_STARTS}


def _std(c: list[int], w: int, head: list[int], pair_used: bool, acc: list[Group],
         kinds: list[int], out: list[list[Group]], start: int = 0) -> None:
    # Appends each standard grouping to ``out`` in search order (plain recursion: a
    # generator chain as deep as the groups costs more than the search).
    # every set taken here uses natural tiles of kind i or later only, so the kinds
    # before i stay empty below: the deeper calls search from i
    if not w:
        _plain(c, pair_used, acc, out, start)
        return
    for i in range(start, NUM_KINDS):
        if c[i]:
            break
    else:
        _wild_only(w, head, pair_used, acc, kinds, out)
        return
    n = c[i]
    # the chickens a group of i may take: those left, within i's headroom
    spare = w if w < head[i] else head[i]
    # triplet of i: k natural tiles and x = 3 - k chickens
    for k in range(3 - spare if spare < 2 else 1, (n if n < 3 else 3) + 1):
        x = 3 - k
        c[i] -= k
        head[i] -= x
        acc.append(_TRIPLETS[i][x])
        _std(c, w - x, head, pair_used, acc, kinds, out, i)
        acc.pop()
        c[i] += k
        head[i] += x
    # pair of i
    if not pair_used:
        for k in range(2 - spare if spare < 1 else 1, (n if n < 2 else 2) + 1):
            x = 2 - k
            c[i] -= k
            head[i] -= x
            acc.append(_PAIRS[i][x])
            _std(c, w - x, head, True, acc, kinds, out, i)
            acc.pop()
            c[i] += k
            head[i] += x
    # runs through i (suits only); a run starting below i needs chickens there
    if i < 27:
        base = i - i % 9
        for s in (i - 2, i - 1, i):
            if s < base or s > base + 6 or (s < i and not w):
                continue
            used_nat = []
            used_w = []
            ok = True
            for p in range(s, s + 3):
                if p == i or (p > i and c[p] > 0):
                    used_nat.append(p)
                elif head[p] >= 1 and len(used_w) < w:
                    used_w.append(p)
                    head[p] -= 1
                else:
                    ok = False
                    break
            if ok:
                for p in used_nat:
                    c[p] -= 1
                mask = 0
                for p in used_w:
                    mask |= 1 << (p - s)
                acc.append(_RUNS[s][mask])
                _std(c, w - len(used_w), head, pair_used, acc, kinds, out, i)
                acc.pop()
                for p in used_nat:
                    c[p] += 1
            for p in used_w:
                head[p] += 1


def _plain(c: list[int], pair_used: bool, acc: list[Group], out: list[list[Group]], start: int) -> None:
    # :func:`_std` once no chicken is left (most of its calls), in its order: the triplet
    # of i, its pair, the run from i (a run from below i, or a group with a chicken,
    # needs one); no headroom is spent
    for i in range(start, NUM_KINDS):
        if c[i]:
            break
    else:
        if pair_used:
            out.append(acc[:])  # what :func:`_wild_only` makes of no chicken left
        return
    n = c[i]
    if n >= 3:
        c[i] = n - 3
        acc.append(_TRIPLETS[i][0])
        _plain(c, pair_used, acc, out, i)
        acc.pop()
        c[i] = n
    if n >= 2 and not pair_used:
        c[i] = n - 2
        acc.append(_PAIRS[i][0])
        _plain(c, True, acc, out, i)
        acc.pop()
        c[i] = n
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] = n - 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        acc.append(_RUNS[i][0])
        _plain(c, pair_used, acc, out, i)
        acc.pop()
        c[i] = n
        c[i + 1] += 1
        c[i + 2] += 1


_WILD_GROUPS: dict[tuple[int, ...], tuple[Group, ...]] = {}


def _wild_groups(kinds: list[int]) -> tuple[Group, ...]:
    """The sets chickens alone can form over ``kinds`` (memoised: a handful of kind lists recur)."""
    key = tuple(kinds)
    got = _WILD_GROUPS.get(key)
    if got is None:
        out = [Group("pong", (t, t, t), (t, t, t)) for t in kinds]
        kset = set(kinds)
        for s in _RUN_STARTS:
            if s in kset and s + 2 in kset:
                out.append(Group("chow", (s, s + 1, s + 2), (s, s + 1, s + 2)))
        got = _WILD_GROUPS[key] = tuple(out)
    return got


def _wild_only(w: int, head: list[int], pair_used: bool, acc: list[Group], kinds: list[int],
               out: list[list[Group]]) -> None:
    # leftover chickens (at least one: :func:`_plain` ends a search without) form whole
    # groups on their own (each grouping appended to ``out``)
    pairs: list[Group | None] = [None]
    if not pair_used:
        if w < 2:
            return
        pairs = [Group("pair", (t, t), (t, t)) for t in kinds]
        w -= 2
    if w % 3:
        return
    sets_n = w // 3
    options = _wild_groups(kinds)
    for p in pairs:
        if p is not None:
            if head[p.tiles[0]] < 2:
                continue
            head[p.tiles[0]] -= 2
        for combo in combinations_with_replacement(range(len(options)), sets_n):
            need: dict[int, int] = {}
            for j in combo:
                for t in options[j].wild_as:
                    need[t] = need.get(t, 0) + 1
            if all(head[t] >= x for t, x in need.items()):
                out.append(acc + [options[j] for j in combo] + ([p] if p else []))
        if p is not None:
            head[p.tiles[0]] += 2


def _pairs7(c: list[int], w: int, head: list[int], kinds: list[int]) -> Iterator[list[Group]]:
    groups: list[Group] = []
    for t in range(NUM_KINDS):
        n = c[t]
        if n == 0:
            continue
        groups.extend([Group("pair", (t, t))] * (n // 2))
        if n & 1:  # an odd count takes a chicken, where its kind has room for one
            if not w or head[t] < 1:
                return
            groups.append(Group("pair", (t, t), (t,)))
            w -= 1
    if w < 0 or w & 1:
        return
    if not w:
        yield groups
        return
    spare = w // 2
    hd = list(head)
    for t in range(NUM_KINDS):
        if c[t] & 1:
            hd[t] -= 1
    for combo in combinations_with_replacement(kinds, spare):
        need: dict[int, int] = {}
        for t in combo:
            need[t] = need.get(t, 0) + 2
        if all(hd[t] >= x for t, x in need.items()):
            yield groups + [Group("pair", (t, t), (t, t)) for t in combo]
