"""The dispute report's data: one game's audit, replay and derivation as a JSON-ready model.

:func:`build_model` reads nothing but the :class:`schema.reader.GameLog` it is given:
it audits the game with its derivation records (:func:`audits.audit.explain_records`),
replays it event by event (:class:`replay.Replayer`) into compact *frames* the page
steps through, and turns the corrected ledger into who owes whom
(:mod:`audits.corrections`).  The page (``templates/report.html.j2``) is a view of
this model and holds no rule.
"""

from __future__ import annotations

import re
from typing import Any, Optional, Sequence

import msgspec

from audits.audit import explain_records
from audits.catalogue import CATALOGUE
from audits.corrections import hand_deltas, net_corrections, unbalanced, who_owes_whom
from audits.explain import hand_command
from audits.findings import Finding
from replay import ReplayError, Replayer, TableState
from schema import events as ev
from schema.reader import GameLog
from schema.ruleset import PRESETS, Ruleset
from schema.tiles import CHINESE_NAMES, TILE_INDEX, TILE_NAMES, TileError, parse_hand

from .names import CLAIMS, CLOSE_REASONS, FAN_ENGLISH, HOW, REASONS, WINDS, rule_name

#: fan names in Chinese, as every family names them (for the opening wins and the table's extras)
from audits.rules.registry import FAMILIES as _FAMILIES  # noqa: E402
FAN_CHINESE: dict[str, str] = {}
for _f in _FAMILIES.values():
    for _k, _v in _f.scoring.fan_chinese.items():
        FAN_CHINESE.setdefault(_k, _v)

_T = TILE_NAMES


def _tiles(ts: Sequence[int]) -> str:
    return "".join(_T[t] for t in ts)


def tile_token(name: str) -> str:
    """A tile inside a sentence: ``[5m]`` (the page draws it as a picture)."""
    return f"[{name}]"


class _Names:
    """Seat → player name, for sentences."""

    def __init__(self, players: Sequence[str]):
        self.players = list(players)

    def __call__(self, seat: Optional[int]) -> str:
        if seat is None:
            return "?"
        if 0 <= seat < len(self.players):
            return self.players[seat]
        return f"seat {seat}"


def _mode(e: ev.Event) -> str:
    """A kong's mode in words: tiles revealed after it (开杠), or nothing (a replacement)."""
    return ", to reveal tiles (开杠)" if getattr(e, "mode", None) == "reveal" else ""


def table_extras(st: TableState, who: _Names) -> list[str]:
    """What the table shows beyond hands and discards, in words, tiles as ``[5m]`` tokens: the
    turned indicator and its wild, tiles set aside (flowers, single-tile kongs), the opening
    wins declared (起手胡), tiles revealed after a kong (开杠), the 海底 offers and the birds
    (扎鸟) — the new families' particulars, empty elsewhere."""
    t = tile_token
    out = []
    if st.indicator is not None:
        out.append(f"indicator 翻牌 {t(_T[st.indicator])}" + (f" → wild {t(_T[st.wild])}" if st.wild is not None else ""))
    for seat, tiles in enumerate(st.set_aside):
        if tiles:
            out.append(f"{who(seat)} set aside: " + " ".join(t(_T[x]) for x in tiles))
    for seat, names, _tiles in st.opening_wins:
        out.append(f"{who(seat)} 起手胡: " + ", ".join(FAN_CHINESE.get(n, n) for n in names))
    if st.revealed:
        out.append("开杠 revealed: " + " ".join(t(_T[x]) for x in st.revealed))
    if st.sea_offers:
        out.append("海底 offers: " + ", ".join(f"{who(s)} {'takes' if a else 'declines'}" for s, a in st.sea_offers))
    if st.birds:
        out.append(f"birds 扎鸟 from {who(st.bird_origin)}: " + " ".join(t(_T[x]) for x in st.birds))
    return out


def describe(e: ev.Event, who: _Names) -> str:
    """The event in plain words, tiles as ``[5m]`` tokens."""
    t = tile_token
    if isinstance(e, ev.GameOpened):
        return f"The room opens: {', '.join(e.seats)}; {who(e.creator)} created it."
    if isinstance(e, ev.RoomResized):
        return f"The room is resized to {len(e.seats)} seats: {', '.join(e.seats)}."
    if isinstance(e, ev.HandStarted):
        level = f" at level {e.dealer_level} (连庄)" if e.dealer_level is not ev.UNSET else ""
        return f"Hand {e.hand} starts; {who(e.dealer)} deals (庄){level}."
    if isinstance(e, ev.IndicatorTurned):
        return f"The indicator {t(e.tile)} is turned (翻牌): the hand's wild is {t(e.wild)}."
    if isinstance(e, ev.PigBetPlaced):
        return f"{who(e.seat)} places a side bet of {e.bet} (养猪 / 下嘴 / 买底)."
    if isinstance(e, ev.TilesDealt):
        return "The tiles are dealt."
    if isinstance(e, ev.TailTurned):
        return "Tail tiles turned face up (翻屁股): " + " ".join(t(x) for x in e.tiles) + "."
    if isinstance(e, ev.TileDrawn):
        src = " from the face-up tail" if e.source == "tail" else ""
        return f"{who(e.seat)} draws {t(e.tile)}{src}."
    if isinstance(e, ev.TileDiscarded):
        return f"{who(e.seat)} discards {t(e.tile)}."
    if isinstance(e, ev.ClaimDeclared):
        return f"{who(e.seat)} declares {CLAIMS.get(e.claim, e.claim)}."
    if isinstance(e, ev.ClaimPassed):
        return f"{who(e.seat)} passes on {', '.join(CLAIMS.get(c, c) for c in e.claims)}."
    if isinstance(e, ev.Chowed):
        return f"{who(e.seat)} chows (吃) {t(e.tile)} from {who(e.from_seat)} with {' '.join(t(x) for x in e.tiles)}."
    if isinstance(e, ev.Ponged):
        return f"{who(e.seat)} pongs (碰) {t(e.tile)} from {who(e.from_seat)} with {' '.join(t(x) for x in e.tiles)}."
    if isinstance(e, ev.KongExposed):
        return (f"{who(e.seat)} kongs (直杠) {t(e.tile)} from {who(e.from_seat)} with "
                f"{' '.join(t(x) for x in e.tiles)}{_mode(e)}.")
    if isinstance(e, ev.KongAdded):
        return f"{who(e.seat)} adds {t(e.tile)} to the pong of {t(e.kind)} (补杠){_mode(e)}."
    if isinstance(e, ev.KongConcealed):
        return f"{who(e.seat)} declares a concealed kong (暗杠): {' '.join(t(x) for x in e.tiles)}{_mode(e)}."
    # the new families' events (shared/design/new-families.md §1)
    if isinstance(e, ev.OpeningWinDeclared):
        names = ", ".join(f"{FAN_CHINESE.get(n, n)} {n}" for n in e.names)
        return f"{who(e.seat)} declares the opening win(s) (起手胡) {names}, showing {' '.join(t(x) for x in e.tiles)}."
    if isinstance(e, ev.KongRevealed):
        return f"开杠: {' '.join(t(x) for x in e.tiles)} turned face up for {who(e.seat)}'s kong."
    if isinstance(e, ev.LastTileOffered):
        return f"The last tile (海底) is offered to {who(e.seat)}: {'taken' if e.accepted else 'declined'}."
    if isinstance(e, ev.BirdsDrawn):
        return f"Birds (扎鸟) {' '.join(t(x) for x in e.tiles)}, counted from {who(e.origin)}."
    if isinstance(e, ev.IndicatorTurned):
        return f"The indicator (翻牌) {t(e.tile)} is turned: the wild of this hand is {t(e.wild)}."
    if isinstance(e, ev.TileSetAside):
        return f"{who(e.seat)} sets {t(e.tile)} aside (补花 / 红中杠 / 癞子杠) and takes a replacement."
    if isinstance(e, ev.HandWon):
        names = " and ".join(who(w.seat) for w in e.winners)
        how = HOW.get(e.how, e.how)
        frm = f" from {who(e.from_seat)}" if e.from_seat is not None and e.how != "self_draw" else ""
        claimed = "; ".join(f"{who(w.seat)} claims {w.fan} fan, {w.points} points" for w in e.winners)
        return f"{names} win{'s' if len(e.winners) == 1 else ''} on {t(e.tile)} by {how}{frm} ({claimed})."
    if isinstance(e, ev.HandDrawn):
        return f"黄庄 exhaustive draw: {e.remaining} tiles left; no win."
    if isinstance(e, ev.HandSettled):
        pays = "; ".join(f"{who(x.payer)} pays {who(x.payee)} {x.amount} ({REASONS.get(x.reason, x.reason)})"
                         for x in e.transfers) or "no payments"
        return f"The hand is settled: {pays}. Scores: {', '.join(str(s) for s in e.scores)}."
    if isinstance(e, ev.FeeCharged):
        return f"{who(e.seat)} is charged {e.amount} 钻石 (diamonds)."
    if isinstance(e, ev.FeeRefunded):
        return f"{who(e.seat)} is refunded {e.amount} 钻石 (diamonds)."
    if isinstance(e, ev.GameClosed):
        return f"The game closes: {CLOSE_REASONS.get(e.reason, e.reason)}; final scores {', '.join(map(str, e.scores))}."
    return type(e).__name__


def _added(before: Sequence[int], after: Sequence[int]) -> list[int]:
    """Positions in ``after`` (a sorted hand) of the tiles that were not in ``before``."""
    left: dict[int, int] = {}
    for x in before:
        left[x] = left.get(x, 0) + 1
    marks = []
    for i, x in enumerate(after):
        if left.get(x, 0) > 0:
            left[x] -= 1
        else:
            marks.append(i)
    return marks


def marks_of(prev: Optional[TableState], cur: TableState, e: ev.Event) -> list[list[Any]]:
    """What the event moved, as ``[seat, zone, index]`` (zones: ``c`` concealed, ``r``
    discards, ``m`` melds, ``t`` the tail pool with seat -1)."""
    out: list[list[Any]] = []
    if isinstance(e, ev.HandWon):
        k = _T.index(e.tile)
        for w in e.winners:
            if e.how == "self_draw" and w.seat < len(cur.concealed):
                hand = cur.concealed[w.seat]
                if k in hand:
                    out.append([w.seat, "c", len(hand) - 1 - hand[::-1].index(k)])
        if e.how == "discard" and e.from_seat is not None and e.from_seat < len(cur.discards):
            ds = cur.discards[e.from_seat]
            if ds:
                out.append([e.from_seat, "r", len(ds) - 1])
        if e.how == "robbed_kong" and e.from_seat is not None and e.from_seat < len(cur.melds):
            for i, m in enumerate(cur.melds[e.from_seat]):
                if m.kind == "kong_added" and k in m.tiles:
                    out.append([e.from_seat, "m", i])
        return out
    if prev is None or prev.hand != cur.hand or len(prev.concealed) != len(cur.concealed):
        return out
    if isinstance(e, ev.TilesDealt):
        return out
    for s in range(len(cur.concealed)):
        for i in _added(prev.concealed[s], cur.concealed[s]):
            out.append([s, "c", i])
        for i in range(len(prev.discards[s]), len(cur.discards[s])):
            out.append([s, "r", i])
        pm = prev.melds[s]
        for i, m in enumerate(cur.melds[s]):
            if i >= len(pm) or pm[i] != m:
                out.append([s, "m", i])
    for i in _added(prev.tail, cur.tail):
        out.append([-1, "t", i])
    return out


def frame_of(i: int, st: TableState, e: ev.Event, marks: list, who: _Names) -> dict:
    """One step of the viewer: the table after event ``e`` in compact form."""
    return {
        "i": i, "seq": st.seq, "hand": st.hand, "phase": st.phase, "turn": st.turn, "dealer": st.dealer,
        "type": type(e).__name__, "seat": getattr(e, "seat", None), "text": describe(e, who),
        "players": list(st.players), "scores": list(st.scores),
        "c": [_tiles(h) for h in st.concealed],
        "m": [[[m.kind, _tiles(m.tiles), m.from_seat, m.wilds] for m in ms] for ms in st.melds],
        "r": ["".join(("*" if c >= 0 else "") + _T[t] for t, c in ds) for ds in st.discards],
        "tail": _tiles(st.tail), "undrawn": st.undrawn, "marks": marks, "findings": [],
        "x": table_extras(st, who),
        # tiles set aside by seat (flowers, single-tile kongs): the hand's summary lists them
        "aside": [_tiles(x) for x in st.set_aside] if any(st.set_aside) else [],
    }


def _picture(text: str) -> dict:
    """A derivation's hand picture (``234m22p567s [pong 666p]``) as tiles and melds."""
    concealed, *rest = text.split(" [", 1)
    melds = re.findall(r"\[(\w+) ([0-9mpsz]+)\]", "[" + rest[0] if rest else "")
    try:
        tiles = [_T[x] for x in parse_hand(concealed)] if concealed.strip() else []
        mtiles = [[kind, [_T[x] for x in parse_hand(ts)]] for kind, ts in melds]
    except TileError:
        return {"text": text, "tiles": [], "melds": []}
    return {"text": text, "tiles": tiles, "melds": mtiles}


def _pair_rows(recomputed: list, logged: list) -> list[dict]:
    """Transfers side by side: per (payer, payee, reason), the recomputed and logged sums."""
    keys: list[tuple] = []
    rec: dict[tuple, int] = {}
    log: dict[tuple, int] = {}
    label: dict[tuple, str] = {}
    for p, q, a, r, lab in recomputed:
        k = (p, q, r)
        if k not in rec and k not in log:
            keys.append(k)
        rec[k] = rec.get(k, 0) + a
        label[k] = lab
    for p, q, a, r in logged:
        k = (p, q, r)
        if k not in rec and k not in log:
            keys.append(k)
        log[k] = log.get(k, 0) + a
    return [{"payer": p, "payee": q, "reason": r, "label": label.get((p, q, r), REASONS.get(r, r)),
             "recomputed": rec.get((p, q, r), 0), "logged": log.get((p, q, r), 0),
             "differs": rec.get((p, q, r), 0) != log.get((p, q, r), 0)} for p, q, r in keys]


def _settlement(rec: dict, hand: Optional[int], dealer: Optional[int], game: Optional[dict] = None,
                who: Optional["_Names"] = None) -> dict:
    winners = []
    res = rec["result"]
    words = (lambda text: player_words(text, who)) if who is not None else str
    for w in rec["winners"]:
        item = {"seat": w["seat"], "picture": _picture(w["picture"]), "complete": w["complete"],
                "logged_fan": w["logged_fan"], "logged_points": w["logged_points"], "command": None, "illegal": None,
                # the family's own derivation of the value (its Score.steps), shown instead of the fan table
                "steps": [words(x) for x in w.get("steps", ())]}
        if res is not None and w["picture"] and w["picture"] != "?":
            try:
                item["command"] = hand_command(w["picture"], res["tile"], res["how"], (game or {}).get("preset", ""),
                                               (game or {}).get("options"), w.get("request"))
            except (TileError, ValueError):
                item["command"] = None
        if w["complete"]:
            item.update(fans=[{"id": f, "zh": zh, "en": FAN_ENGLISH.get(f, f), "value": v} for f, zh, v in w["fans"]],
                        fan=w["fan"], cap=w["cap"], capped=w["capped"], base=w["base"], points=w["points"],
                        differs=(w["fan"] != w["logged_fan"] or w["points"] != w["logged_points"]),
                        steps=list(w.get("steps") or []))
            if w.get("illegal"):  # a complete hand that wins no money: the rule it breaks, in words
                zh, en = rule_name(w["illegal"]["code"]) if w["illegal"]["code"] else ("", "")
                item["illegal"] = {"zh": zh, "en": en, "reason": words(w["illegal"]["reason"])}
        else:
            item.update(fans=[], differs=True)
        winners.append(item)
    return {
        "hand": hand, "dealer": dealer,
        "result": None if res is None else {"how": HOW.get(res["how"], res["how"]), "tile": res["tile"],
                                            "from_seat": res["from_seat"], "self_draw": res["how"] == "self_draw"},
        "winners": winners, "bets": rec["bets"], "tallies": rec["tallies"],
        "transfers": _pair_rows(rec["transfers"], rec["logged_transfers"]),
        # the family's derivation of the corrected settlement (per-pair shares, caps, 包, dealer
        # bonuses, side bets), line by line as --explain prints it
        "steps": [words(x) for x in rec.get("steps") or ()],
        "scores_after": rec["scores_after"], "logged_scores": rec["logged_scores"],
        "differs": rec["scores_after"] != rec["logged_scores"],
    }


def _set_aside_words(compact: str) -> str:
    """Tiles set aside as the page writes them: ``3f7f`` -> ``秋 3f, 菊 7f``."""
    names = [compact[k:k + 2] for k in range(0, len(compact), 2)]
    return ", ".join(f"{CHINESE_NAMES[TILE_INDEX[x]]} {x}" for x in names)


def _particulars(rules) -> list[str]:
    """What is particular to the room's family, in words (its ``RuleFamily.data["particulars"]``:
    flowers, seat flowers, rates …); [] for a family that states none."""
    if rules is None:
        return []
    from audits.rules import FAMILIES
    family = FAMILIES.get(rules.family)
    say = family.data.get("particulars") if family is not None else None
    return list(say(rules)) if say is not None else []


def _ruleset_rows(opened: Optional[ev.GameOpened], rules) -> list[dict]:
    if rules is None:
        return []
    mine = msgspec.structs.asdict(rules)
    preset = PRESETS.get(opened.preset) if opened is not None else None
    theirs = msgspec.structs.asdict(preset) if preset is not None else {}
    rows = []
    for k, v in mine.items():
        if isinstance(v, tuple):
            shown = " ".join(map(str, v)) if all(isinstance(x, str) for x in v) else ", ".join(map(str, v))
        elif isinstance(v, str):
            shown = v
        else:
            shown = msgspec.json.encode(v).decode()  # true / false / numbers as the log spells them
        rows.append({"name": k, "value": "—" if shown == "" else shown, "changed": k in theirs and theirs[k] != v})
    return rows


def _money_text(f: Finding, hands: list[int], deltas: list[list[int]], who: _Names) -> str:
    """What a finding's hand moved wrongly, in words."""
    if CATALOGUE.get(f.code) is not None and CATALOGUE[f.code].group == "billing":
        return (f"Room fee in 钻石 (diamonds), not points: expected {f.expected!r}, logged {f.actual!r}."
                if f.expected is not None or f.actual is not None else "Room fee in 钻石 (diamonds), not points.")
    if f.hand not in hands:
        return "No settled hand to correct here."
    d = deltas[hands.index(f.hand)]
    if not any(d):
        return f"Hand {f.hand}'s payments stand as logged: no points moved wrongly."
    too_much = [f"{who(s)} {-v:+d}" for s, v in enumerate(d) if v < 0]
    too_little = [f"{who(s)} {v:+d}" for s, v in enumerate(d) if v > 0]
    moved = sum(v for v in d if v > 0)
    parts = []
    if too_much:
        parts.append("got too much: " + ", ".join(x.replace("+", "") for x in too_much))
    if too_little:
        parts.append("got too little: " + ", ".join(x.replace("+", "") for x in too_little))
    return f"Hand {f.hand}'s payments moved {moved} point{'s' if moved != 1 else ''} wrongly — " + "; ".join(parts) + "."


def build_model(log: GameLog) -> dict:
    """The report of one game as a JSON-ready dict (see the module docstring)."""
    audit, records = explain_records(log)
    frames, broken, last, opened = _frames(log)
    players = list(audit.players or (opened.seats if opened else []))
    who = _Names(players)
    hands = list(audit.ledger_hands)
    deltas = hand_deltas(audit.logged_scores, audit.ledger)
    findings = _finding_rows(audit, frames, hands, deltas, who)
    hand_list = _hand_rows(log, audit, records, frames, findings, who)
    ledger_rows = [{"hand": h, "logged": list(logged), "corrected": list(corr), "delta": deltas[k],
                    "differs": list(logged) != list(corr)}
                   for k, (h, logged, corr) in enumerate(zip(hands or range(1, len(audit.ledger) + 1),
                                                             audit.logged_scores, audit.ledger))]
    net = net_corrections(audit.logged_scores, audit.ledger)
    owes = [{"from": who(p.debtor), "from_seat": p.debtor, "to": who(p.creditor), "to_seat": p.creditor,
             "amount": p.amount} for p in who_owes_whom(net)]
    first_dealer = hand_list[0]["dealer"] if hand_list else (opened.creator if opened else 0)
    return {
        "room": _room(log, audit, opened, players, first_dealer, last),
        "complete": audit.complete, "broken": broken, "clean": not audit.findings,
        "errors": audit.errors, "findings": findings, "frames": frames, "hands": hand_list,
        "ledger": ledger_rows, "net": [{"seat": s, "player": who(s), "amount": v} for s, v in enumerate(net)],
        "owes": owes, "unbalanced": unbalanced(net),
        "final_logged": list(audit.logged_scores[-1]) if audit.logged_scores else [],
        "final_corrected": list(audit.ledger[-1]) if audit.ledger else [],
    }


def _frames(log: GameLog) -> tuple[list[dict], Optional[dict], Optional[TableState], Optional[ev.GameOpened]]:
    """The table after each event (replayed up to a structural break), the break if any, the
    last table and the room's opening."""
    r = Replayer()
    frames: list[dict] = []
    broken: Optional[dict] = None
    prev: Optional[TableState] = None
    for e, line in zip(log.events, log.lines):
        try:
            r.apply(e, line)
        except ReplayError as x:
            broken = {"seq": x.seq, "line": x.line, "message": x.message, "hand": x.hand}
            break
        st = r.state()
        who = _Names(st.players)
        frames.append(frame_of(len(frames), st, e, marks_of(prev, st, e), who))
        prev = st
    if broken is None and log.problem is not None:
        p = log.problem
        broken = {"seq": None, "line": getattr(p, "line", None), "message": str(p), "hand": None}
    return frames, broken, prev, r.opened


def _finding_rows(audit, frames: list[dict], hands: list, deltas: list, who: "_Names") -> list[dict]:
    """The findings, each pointing at the frame of its event (or the last one before it)."""
    seqs = [fr["seq"] for fr in frames]
    findings = []
    for n, f in enumerate(audit.findings):
        idx = None
        for i in range(len(seqs) - 1, -1, -1):
            if seqs[i] <= f.seq:
                idx = i
                break
        exact = idx is not None and seqs[idx] == f.seq
        if idx is not None:
            frames[idx]["findings"].append(n)
        zh, en = rule_name(f.code)
        event_text = frames[idx]["text"] if exact and idx is not None else \
            "an event that could not be applied to the table (the table shown is the one before it)."
        findings.append({
            "n": n, "code": f.code, "severity": f.severity, "zh": zh, "en": en,
            "rule": room_rule(f.rule, audit.ruleset.family if audit.ruleset else None),
            "hand": f.hand, "seq": f.seq, "line": f.line, "seat": f.seat,
            "player": who(f.seat) if f.seat is not None else None,
            # a message that only repeats the rule is left out (the rule is shown, in the room's words)
            "message": player_words(f.message, who) if f.message and f.message != f.rule else None,
            "expected": _show(f.expected, who), "actual": _show(f.actual, who), "frame": idx, "exact": exact,
            "event": event_text, "money": _money_text(f, hands, deltas, who),
        })
    return findings


def _hand_rows(log: GameLog, audit, records: list[dict], frames: list[dict], findings: list[dict],
               who: "_Names") -> list[dict]:
    """Each hand: its frame range, dealer (and level, indicator and wild where the family has
    them), settlement, findings and the family's particulars."""
    hand_list: list[dict] = []
    by_hand: dict[int, dict] = {}
    for fr in frames:
        h = fr["hand"]
        if h and h not in by_hand:
            by_hand[h] = {"hand": h, "first": fr["i"], "last": fr["i"], "dealer": fr["dealer"],
                          "settlement": None, "findings": [], "particulars": [], "level": None,
                          "indicator": None, "wild": None}
            hand_list.append(by_hand[h])
        if h:
            by_hand[h]["last"] = fr["i"]
            if fr.get("aside"):
                by_hand[h]["set_aside"] = [[seat, _set_aside_words(x)] for seat, x in enumerate(fr["aside"]) if x]
    # what a hand turned and at which dealer level (families with a per-hand wild, 连庄 levels)
    hand_no = 0
    for e in log.events[:len(frames)]:
        if type(e) is ev.HandStarted:
            hand_no = e.hand
            if hand_no in by_hand and e.dealer_level is not ev.UNSET:
                by_hand[hand_no]["level"] = e.dealer_level
        elif type(e) is ev.IndicatorTurned and hand_no in by_hand:
            by_hand[hand_no]["indicator"], by_hand[hand_no]["wild"] = e.tile, e.wild
    cur_hand = None
    dealer = None
    game_rec: Optional[dict] = None
    bets_word = side_bets_word(audit.ruleset)
    for rec in records:
        if rec["kind"] == "game":
            game_rec = rec
        elif rec["kind"] == "hand":
            cur_hand, dealer = rec["hand"], rec["dealer"]
        elif rec["kind"] == "settlement":
            s = _settlement(rec, cur_hand, dealer, game_rec, who)
            s["bets_label"] = bets_word
            if cur_hand in by_hand:
                by_hand[cur_hand]["settlement"] = s
    for fd in findings:
        if fd["hand"] in by_hand:
            by_hand[fd["hand"]]["findings"].append(fd["n"])
    for h, rows in hand_particulars(log, audit.ruleset, who).items():
        if h in by_hand:
            by_hand[h]["particulars"] = rows
    return hand_list


def _room(log: GameLog, audit, opened: Optional[ev.GameOpened], players: list[str], first_dealer: int,
          last: Optional[TableState]) -> dict:
    """The room: its players (wind, creator, fee charged), preset, server, ruleset and particulars."""
    n = len(players)
    fees = list(last.fees_charged) if last is not None else [0] * n
    return {
        "game": log.game, "file": log.file,
        "players": [{"seat": s, "name": players[s], "wind": WINDS[(s - first_dealer) % n] if n else "",
                     "creator": opened is not None and s == opened.creator,
                     "fee": fees[s] if s < len(fees) else 0} for s in range(n)],
        "preset": opened.preset if opened else "", "server": audit.server, "build": audit.build,
        "fee": opened.fee if opened else 0, "billing": opened.billing if opened else "",
        "start_points": opened.start_points if opened else 0,
        "ruleset": _ruleset_rows(opened, audit.ruleset),
        "wilds": list(audit.ruleset.wilds) if audit.ruleset else [],
        "particulars": _particulars(audit.ruleset),
        "opened_at": opened.at.isoformat() if opened else "",
    }


def hand_particulars(log: GameLog, ruleset, who: "_Names") -> dict[int, list[dict]]:
    """What is particular to the room's family in each hand, by hand number: the family's
    ``OwnRules.particulars`` rows (label, tiles, text, whether the tiles are the hand's wild
    kinds), asked with each hand's events; none for a family without the hook."""
    if ruleset is None:
        return {}
    from audits.rules import UnknownFamily, family_of

    try:
        hook = family_of(ruleset).own.particulars
    except UnknownFamily:
        return {}
    if hook is None:
        return {}
    hands: dict[int, list[ev.Event]] = {}
    events: Optional[list[ev.Event]] = None
    for e in log.events:
        if type(e) is ev.HandStarted:
            events = hands.setdefault(e.hand, [])
        if events is not None:
            events.append(e)
    out = {}
    for h, evs in hands.items():
        try:
            rows = hook(ruleset, evs)
        except (ValueError, KeyError, IndexError, TileError):  # a hand the family cannot read: nothing shown
            continue
        out[h] = [{"label": p.label, "tiles": list(p.tiles), "text": player_words(p.text, who), "wild": p.wild}
                  for p in rows]
    return out


_PAIR = re.compile(r"^(\d+)->(\d+) (-?\d+) (\w+)$")
_SEAT = re.compile(r"\bseat (\d+)\b")
_PAREN = re.compile(r"\s*\(([^()]*)\)")


def _show(value: Any, who: "_Names") -> Optional[str]:
    """A finding's expected or actual value in a player's words: per-seat lists by player name,
    ``payer->payee amount reason`` lines as payments, (seat, amount) pairs by name."""
    if value is None:
        return None
    if isinstance(value, str):
        return player_words(value, who)
    n = len(who.players)
    if isinstance(value, list) and n and len(value) == n and all(isinstance(v, int) for v in value):
        return ", ".join(f"{who(s)} {v}" for s, v in enumerate(value))
    if isinstance(value, list) and value and all(isinstance(v, str) and _PAIR.match(v) for v in value):
        out = []
        for v in value:
            p, q, amount, reason = _PAIR.match(v).groups()
            out.append(f"{who(int(p))} pays {who(int(q))} {amount} ({REASONS.get(reason, reason.replace('_', ' '))})")
        return "; ".join(out)
    if isinstance(value, list) and value and all(isinstance(v, list) and len(v) == 2 and
                                                 all(isinstance(x, int) for x in v) for v in value):
        return ", ".join(f"{who(s)} {a}" for s, a in value)
    if isinstance(value, list) and not value:
        return "none"
    return msgspec.json.encode(value).decode()


def player_words(text: str, who: "_Names") -> str:
    """``text`` with seat numbers as the players' names (``seat 2`` → ``P14``)."""
    return _SEAT.sub(lambda m: who(int(m.group(1))), text)


def side_bets_word(ruleset: Optional[Ruleset]) -> str:
    """What the room's family calls its side bets (:func:`audits.explain.side_bets_word`)."""
    from audits.explain import side_bets_word as word_of

    return word_of(_FAMILIES.get(ruleset.family) if ruleset is not None else None)


def room_rule(rule: str, family: Optional[str]) -> str:
    """A catalogue rule as it applies to the room: in a parenthesis, the clauses that name
    another family (``Guangdong kong_payments = on_win: …``) are left out, and a parenthesis
    left empty goes."""
    if not family:
        return rule
    from audits.rules import FAMILIES

    families = {name.lower() for name in FAMILIES} | {"qujing", "guangdong", "sichuan"}

    def named(clause: str) -> Optional[str]:
        first = re.split(r"[\s:,]", clause.strip(), maxsplit=1)[0].lower()
        return first if first in families else None

    def keep(m: "re.Match[str]") -> str:
        clauses = m.group(1).split("; ")
        if not any(named(c) for c in clauses):
            return m.group(0)
        kept = [c for c in clauses if named(c) in (None, family)]
        return f" ({'; '.join(kept)})" if kept else ""

    return _PAREN.sub(keep, rule)


__all__ = ["build_model", "describe", "frame_of", "hand_particulars", "marks_of", "player_words", "room_rule",
           "tile_token"]
