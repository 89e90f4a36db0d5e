"""The bots' kept wait entries: each seat's family wait entry (``RuleFamily.wins.seat_waits``),
kept with the signature of the hand it was made for until that hand changes.  Shared by
the simulator's table (:mod:`paipu.sim.simulate`) and the Sichuan game
(:mod:`paipu.sim.sichuan.game`)."""

from __future__ import annotations

from typing import Any, Optional

from replay.state import KEY_STEP, SUIT_OF

#: per seat: (hand signature, wait entry) or None
Kept = list[Optional[tuple[tuple, Any]]]


def signature(keys, melds_n: int, kongs: int) -> tuple:
    """What identifies a seat's hand for its wait entry: its concealed suit keys, its
    number of melds and of kongs (an added kong keeps the number of melds)."""
    return (keys[0], keys[1], keys[2], keys[3], melds_n, kongs)


def kept_wait_entry(kept: Kept, seat_waits, rules, table, seat: int) -> Any:
    """The seat's wait entry from ``seat_waits`` (the family's), made again only when the
    seat's hand changed since it was kept."""
    keys = table.keys[seat]
    melds = table.melds[seat]
    sig = signature(keys, len(melds), table.kongs[seat])
    got = kept[seat]
    if got is not None and got[0] == sig:
        return got[1]
    entry = seat_waits(rules, table.hands[seat], keys, table.held[seat], melds)
    kept[seat] = (sig, entry)
    return entry


def kept_before_draw(kept: Kept, table, seat: int, tile: int) -> Optional[tuple[tuple, Any]]:
    """The (signature, entry) kept for the seat's hand before it drew ``tile``, or None
    when none was kept for that hand."""
    got = kept[seat]
    if got is None:
        return None
    sig = got[0]
    keys = table.keys[seat]
    su = SUIT_OF[tile]
    # the :func:`signature` of the hand before the draw: the drawn tile's suit one tile short
    if sig[su] + KEY_STEP[tile] != keys[su] or sig[4] != len(table.melds[seat]) or sig[5] != table.kongs[seat]:
        return None
    if (su == 0 or sig[0] == keys[0]) and (su == 1 or sig[1] == keys[1]) and (su == 2 or sig[2] == keys[2]) \
            and (su == 3 or sig[3] == keys[3]):
        return got
    return None


def waited_before_draw(kept: Kept, table, seat: int, tile: int) -> bool:
    """False when the entry kept for the seat's hand before it drew ``tile`` says no tile
    completes that hand; True when it allows one or no entry was kept for that hand."""
    got = kept_before_draw(kept, table, seat, tile)
    return got is None or bool(got[1])
