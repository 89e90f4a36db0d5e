"""Small rule-legal games for the audit tests, built with GameBuilder."""

from __future__ import annotations

from typing import Callable, Optional

from schema.builder import GameBuilder
from schema.reader import GameLog

SEAT1 = "147m258p369s1234z"
SEAT2 = "147m258p369s1234z"
SEAT3 = "369m147p258s5676z"


def log_of(b: GameBuilder, closed: Optional[bool] = None) -> GameLog:
    """A GameLog from a builder's events (as the reader would hand it out)."""
    from schema import events as ev
    events = list(b.events)
    if closed is None:
        closed = bool(events) and type(events[-1]) is ev.GameClosed
    return GameLog(b.game, "test.jsonl", events, list(range(1, len(events) + 1)), None, closed)


def selfdraw_game(game: str = "g-clean", *, fee: int = 4, options: Optional[dict] = None,
                  plant: Optional[Callable[[GameBuilder, str], bool]] = None, **kw) -> GameBuilder:
    """One hand won by the dealer's self-draw after a round of draws, settled, charged, closed.

    Seat 0 holds 123456789m 234p 5p and draws 5p: 门清自摸 + 无鸡 = 2 fan, P = 4.
    ``plant(builder, step)`` may replace a step: it returns True when it wrote the step itself.
    """
    b = GameBuilder(game, fee=fee, options=options, **kw)

    def step(name: str, fn: Callable[[], object]) -> None:
        if plant is None or not plant(b, name):
            fn()

    step("open", b.open)
    step("hand", lambda: b.hand(1, dealer=0))
    step("deal", lambda: b.deal("123456789m2345p7z", SEAT1, SEAT2, SEAT3))
    step("tail", lambda: b.tail("9s", "8s"))
    step("d0", lambda: b.discard(0, "7z"))
    step("r1", lambda: b.draw(1, "9p"))
    step("d1", lambda: b.discard(1, "9p"))
    step("r2", lambda: b.draw(2, "9p"))
    step("d2", lambda: b.discard(2, "9p"))
    step("r3", lambda: b.draw(3, "8m"))
    step("d3", lambda: b.discard(3, "8m"))
    step("r0", lambda: b.draw(0, "5p"))
    step("win", lambda: b.win([(0, ["wuji", "menqing_zimo"], 2, 4)], "self_draw", "5p"))
    step("settle", lambda: b.settle([(1, 0, 4, "win"), (2, 0, 4, "win"), (3, 0, 4, "win")], [12, -4, -4, -4]))
    step("fee", lambda: b.fee(0, fee) if fee else None)
    step("close", lambda: b.close("hands_done", [12, -4, -4, -4]))
    return b


# --- short scenarios: a deal, some play, then the room is dissolved -----------

BASE_DEAL = ("123456789m2345p7z", SEAT1, SEAT2, SEAT3)
#: seat 1 holds 1m3m4m and a chicken; seat 3 a pair of 7z and two chickens
CLAIMS_DEAL = ("123456789m2345p7z", "134m258p369s1s234z", "147m258p369s1234z", "369m147p25s11s677z")
#: seat 2 waits on 7z alone (无鸡, 1 fan); seat 3 holds one 7z
GUOHU_DEAL = ("123456789m2345p7z", SEAT1, "234m567m789p222z7z", SEAT3)
#: the dealer holds four 2m to kong
KONG_DEAL = ("2222m345m678m234p7z", SEAT1, SEAT2, SEAT3)


def scenario(deal, body: Callable[[GameBuilder], object], *, options: Optional[dict] = None,
             game: str = "g-s", **kw) -> GameBuilder:
    """Open, deal ``deal`` with the tail 9s 8s face up, play ``body``, dissolve the room."""
    b = GameBuilder(game, options=options, **kw)
    b.open()
    b.hand(1, dealer=0)
    b.deal(*deal)
    b.tail("9s", "8s")
    body(b)
    b.close("dissolved", [0] * len(deal))
    return b


#: seat 2 is a chicken single wait (complete with any tile); seat 3 holds 7z7z and two chickens
ROB_DEAL = ("123456789m2345p7z", "147m258p369s1234z", "234m567m789p222z1s", "369m147p25s11s677z")


def added_kong_of_7z(b: GameBuilder) -> None:
    """Open and deal :data:`ROB_DEAL`; seat 3 pongs 7z, later draws the fourth 7z and adds it
    (补杠), which seat 2 could rob."""
    before_added_kong_of_7z(b)
    b.draw(3, "7z")
    b.kong_added(3, "7z")


def before_added_kong_of_7z(b: GameBuilder) -> None:
    """:func:`added_kong_of_7z` up to seat 3's draw: seat 3 has ponged 7z and every other
    seat has drawn and thrown once since (seat 2 waits one tile from complete)."""
    b.open()
    b.hand(1, dealer=0)
    b.deal(*ROB_DEAL)
    b.tail("9s", "8s")
    b.discard(0, "7z")
    b.pong(3, 0, "7z", "7z7z")
    b.discard(3, "6z")
    for seat, tile in ((0, "6z"), (1, "9p"), (2, "8p")):
        b.draw(seat, tile)
        b.discard(seat, tile)


# --- log files for the reader and the parallel and cluster audits ----------------------


def interleave(*games: bytes) -> bytes:
    """The lines of several games dealt round-robin, as a server serving several tables writes them."""
    split = [g.splitlines(keepends=True) for g in games]
    out = []
    for i in range(max(len(s) for s in split)):
        out += [s[i] for s in split if i < len(s)]
    return b"".join(out)


def faulty_games() -> bytes:
    """Hand-made oddities, each of which the reader treats in its own way."""
    clean = selfdraw_game("h-clean").jsonl()
    underpaid = selfdraw_game("h-underpaid", plant=lambda b, s: s == "settle" and bool(
        b.settle([(1, 0, 3, "win"), (2, 0, 4, "win"), (3, 0, 4, "win")], [11, -3, -4, -4]))).jsonl()
    lines = selfdraw_game("h-badline").jsonl().splitlines(keepends=True)
    lines.insert(5, b'{"type":"TileDrawn","game":"h-badline","seq":5,"at":"2026-01-01T00:00:00Z","seat":9}\n')
    badline = b"".join(lines)
    truncated = b"".join(selfdraw_game("h-truncated").jsonl().splitlines(keepends=True)[:-3])
    # a GameClosed line that does not decode: the game stays open (and takes no more events)
    lines = selfdraw_game("h-badclose").jsonl().splitlines(keepends=True)
    lines[-1] = lines[-1].replace(b'"reason":"hands_done"', b'"reason":"nope"')
    badclose = b"".join(lines)
    return b"".join([
        interleave(clean, underpaid, badline),
        b"not json at all\n",
        b"\n   \n",
        b'{"type":"TileDrawn","seq":1}\n',  # no game id
        b'{"type":"TileDrawn","game":7,"seq":1}\n',  # a game id that is not a string
        badclose,
        b'{"type":"Mystery","game":"h-badclose","seq":99,"at":"2026-01-01T00:00:00Z"}\n',
        truncated,
        clean,  # the same id again after it closed: a second game
    ])
