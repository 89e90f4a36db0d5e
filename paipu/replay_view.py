"""``paipu replay``: the table at one event, as a terminal picture or JSON."""

from __future__ import annotations

import sys
from typing import Optional

import msgspec
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from audits.rules import family_of
from replay import ReplayError, Replayer, TableState
from schema import events as ev
from schema.reader import LogReader
from schema.ruleset import Ruleset
from schema.tiles import CHINESE_NAMES, NUM_KINDS, TILE_NAMES, format_hand

SEAT_WINDS = "东南西北"


def tallies(state: TableState, ruleset: Optional[Ruleset]) -> Optional[list[int]]:
    """The 点鸡 tally of each seat as the ruleset's family reads it from the table's
    neutral facts (tiles each seat received, bets); None when the room does not play 点鸡."""
    if ruleset is None or len(state.received) != ruleset.players:
        return None
    facts = family_of(ruleset).settlement.hand_facts(ruleset, state.received, state.bets)
    return facts.tallies


def state_to_json(state: TableState, ruleset: Optional[Ruleset] = None) -> dict:
    """The state with tiles in canonical spelling, for programs.  With the room's
    ``ruleset`` it also carries each seat's 点鸡 tally (``dianji``, null when the room
    does not play 点鸡)."""
    name = TILE_NAMES.__getitem__
    return {
        "game": state.game, "seq": state.seq, "hand": state.hand, "phase": state.phase,
        "players": list(state.players), "scores": list(state.scores), "dealer": state.dealer,
        "turn": state.turn, "undrawn": state.undrawn,
        "tail": [name(t) for t in state.tail],
        "wall_next": name(state.wall_next) if state.wall_next is not None else None,
        "concealed": [format_hand(h) for h in state.concealed],
        "melds": [[{"kind": m.kind, "tiles": [name(t) for t in m.tiles], "wilds": m.wilds,
                    "from_seat": m.from_seat} for m in ms] for ms in state.melds],
        "discards": [[{"tile": name(t), "claimed_by": c if c >= 0 else None} for t, c in ds]
                     for ds in state.discards],
        # tiles each seat received from the wall this hand (deal and draws), and the 点鸡 tally
        "received": [format_hand([t for t in range(NUM_KINDS) for _ in range(got[t])]) for got in state.received],
        "dianji": tallies(state, ruleset),
        "bets": list(state.bets), "kongs": list(state.kongs),
        "last_discard": ({"seat": state.last_discard[0], "tile": name(state.last_discard[1])}
                         if state.last_discard else None),
        # the new families' facts as logged (new-families.md §1): empty where a room has none
        "indicator": name(state.indicator) if state.indicator is not None else None,
        "wild": name(state.wild) if state.wild is not None else None,
        "set_aside": [[name(t) for t in ts] for ts in state.set_aside],
        "flowers_held": [[name(t) for t in ts] for ts in state.flowers_held],
        "opening_wins": [{"seat": s, "names": list(names), "tiles": [name(t) for t in tiles]}
                         for s, names, tiles in state.opening_wins],
        "birds": [name(t) for t in state.birds], "bird_origin": state.bird_origin,
        "revealed": [name(t) for t in state.revealed],
        "sea_offers": [{"seat": s, "accepted": a} for s, a in state.sea_offers],
        "dealer_streak": state.dealer_streak,
        "last_bets": [{"hand": b[0], "bet": b[1]} if b is not None else None for b in state.last_bets],
    }


def special_lines(state: TableState) -> list[str]:
    """The new families' facts of the hand, one line each, only those the log holds
    (the indicator and wild, tiles set aside and flowers held, opening wins, tiles revealed
    after a kong, 海底 offers, birds, the dealer's streak)."""
    name = TILE_NAMES.__getitem__
    out = []
    if state.indicator is not None:
        wild = name(state.wild) if state.wild is not None else "?"
        out.append(f"indicator {name(state.indicator)} ({CHINESE_NAMES[state.indicator]}) → wild {wild}")
    for label, per_seat in (("set aside", state.set_aside), ("flowers held", state.flowers_held)):
        seats = [f"seat {s}: {format_hand(ts)}" for s, ts in enumerate(per_seat) if ts]
        if seats:
            out.append(f"{label}: {', '.join(seats)}")
    for s, names, tiles in state.opening_wins:
        out.append(f"opening win (起手胡) seat {s}: {' '.join(names)} showing {format_hand(tiles)}")
    if state.revealed:
        out.append(f"revealed after a kong (开杠): {' '.join(name(t) for t in state.revealed)}")
    if state.sea_offers:
        offers = ", ".join(f"seat {s} {'took' if a else 'declined'}" for s, a in state.sea_offers)
        out.append(f"海底 offers: {offers}")
    if state.birds:
        out.append(f"birds (抓鸟) from seat {state.bird_origin}: {' '.join(name(t) for t in state.birds)}")
    if state.dealer_streak:
        out.append(f"dealer streak (连庄): {state.dealer_streak} hand(s) before this one")
    return out


_HOW = {"self_draw": "自摸 self-draw", "discard": "点炮 on a discard", "robbed_kong": "抢杠 robbing a kong"}


def won_line(won: "ev.HandWon", players: tuple[str, ...]) -> str:
    """Who won, on which tile and how (shown while the table is at a won hand)."""
    def name(s: Optional[int]) -> str:
        return f"{players[s]} (seat {s})" if s is not None and 0 <= s < len(players) else f"seat {s}"

    who = " and ".join(f"{name(w.seat)} with {w.fan} fan, {w.points} points" for w in won.winners)
    frm = f" from {name(won.from_seat)}" if won.from_seat is not None and won.how != "self_draw" else ""
    return f"won: {who} — on {won.tile} ({CHINESE_NAMES[TILE_NAMES.index(won.tile)]}) by {_HOW.get(won.how, won.how)}{frm}"


def render(state: TableState, console: Console, ruleset: Optional[Ruleset] = None) -> None:
    """Draw the table: one row per seat (with the 点鸡 tally when the room plays it)."""
    console.print(
        f"[bold]game[/] {escape(state.game or '')}  [bold]hand[/] {state.hand}  [bold]seq[/] {state.seq}  "
        f"[bold]phase[/] {state.phase}  [bold]undrawn[/] {state.undrawn}  "
        f"[bold]tail[/] {' '.join(TILE_NAMES[t] for t in state.tail) or '—'}",
        highlight=False,
    )
    for line in special_lines(state):
        console.print(line, highlight=False, markup=False)
    table = Table(show_lines=True)
    tally = tallies(state, ruleset)
    for col in ("seat", "player", "score", "concealed", "melds", "discards") + (("点鸡",) if tally else ()):
        table.add_column(col)
    for s, player in enumerate(state.players):
        marks = []
        if s == state.dealer:
            marks.append("庄")
        if s == state.turn and state.phase in ("draw", "discard", "replacement"):
            marks.append("▶")
        seat = Text(f"{s} {' '.join(marks)}")
        hand = state.concealed[s] if s < len(state.concealed) else ()
        melds = " ".join(f"{m.kind.replace('kong_', '')}:{format_hand(m.tiles)}" for m in state.melds[s]) \
            if s < len(state.melds) else ""
        discards = Text()
        for t, claimed in (state.discards[s] if s < len(state.discards) else ()):
            discards.append(TILE_NAMES[t] + " ", style="dim strike" if claimed >= 0 else "")
        hand_text = format_hand(hand)
        if hand:
            hand_text += "\n" + " ".join(CHINESE_NAMES[t] for t in hand)
        extra = (str(tally[s]),) if tally else ()
        table.add_row(seat, Text(player), str(state.scores[s]), hand_text, melds, discards, *extra)
    console.print(table)


def run_replay(file: str, game: Optional[str], at: Optional[int], as_json: bool) -> int:
    """Replay one game of ``file`` up to ``at``; returns the exit code."""
    out = Console()
    err = Console(stderr=True)
    reader = LogReader([file])
    chosen = None
    for log in reader.games():
        if game is None or log.game == game:
            chosen = log
            break
    if chosen is None:
        for p in reader.orphans:
            err.print(f"paipu: {p}", highlight=False, markup=False)
        err.print(f"paipu: {'no game ' + repr(game) if game else 'no game'} in {file}", highlight=False,
                  markup=False)
        return 2
    r = Replayer()
    code = 0
    won: Optional[ev.HandWon] = None
    try:
        for e, line in zip(chosen.events, chosen.lines):
            if at is not None and e.seq > at:
                break
            r.apply(e, line)
            if isinstance(e, ev.HandWon):
                won = e
        else:
            if chosen.problem is not None and (at is None or at >= 0):
                err.print(f"paipu: {chosen.problem}; showing the table before it", highlight=False, markup=False)
                code = 1
    except ReplayError as x:
        err.print(f"paipu: {chosen.file}: {x}; showing the table before it", highlight=False, markup=False)
        code = 1
    if r.opened is None:
        err.print(f"paipu: game {chosen.game} has no readable GameOpened", highlight=False, markup=False)
        return 2
    state = r.state()
    if at is not None and state.seq < at and code == 0:
        err.print(f"paipu: game {chosen.game} ends at seq {state.seq}, before {at}", highlight=False, markup=False)
        return 2
    if as_json:
        sys.stdout.write(msgspec.json.encode(state_to_json(state, r.ruleset)).decode() + "\n")
    else:
        render(state, out, r.ruleset)
        if won is not None and state.phase == "won":
            out.print(won_line(won, state.players), highlight=False, markup=False, soft_wrap=True)
    return code
