"""``--explain`` as data: each hand's settlement derived step by step, and its text view.

The walker appends plain records (JSON-ready dicts) while it audits a game:

* ``{"kind": "game", ...}`` — the room;
* ``{"kind": "hand", "hand", "dealer"}`` — a hand starts;
* ``{"kind": "settlement", ...}`` — how the hand ended, each winner's reading
  (fans with their Chinese names and values, total, cap, points, and what was
  logged), the side bets (养猪, 下嘴) and 点鸡 tallies, the recomputed transfers (labelled),
  the logged ones, and the recomputed and logged scores after.

:func:`render` turns the records and the findings into the text ``paipu audit
--explain`` prints; a report can render the same records another way.
"""

from __future__ import annotations

import re
import shlex
from typing import Optional, Sequence

import msgspec

from schema import events as ev
from schema.tiles import TILE_NAMES

from .findings import Finding
from .rules.family import RuleFamily, Score, WinContext


def game_record(e: ev.GameOpened) -> dict:
    """The room as opened (``options``: the overrides the log set on its preset)."""
    return {"kind": "game", "game": e.game, "preset": e.preset, "seats": list(e.seats), "creator": e.creator,
            "start_points": e.start_points, "options": msgspec.to_builtins(e.options)}


#: Meld kinds as ``paipu hand --melds`` spells them.
_MELD_SPEC = {"chow": "chow", "pong": "pong", "kong_exposed": "kong", "kong_added": "akong",
              "kong_concealed": "ckong"}
_PICTURE_MELD = re.compile(r"\[(\w+) ([0-9mpsz]+)\]")


def request_facts(family: RuleFamily, rules, win: WinContext) -> dict:
    """The ``paipu hand`` request facts (``--batch`` spelling) that make ``paipu hand`` score
    with the context ``win`` the audit scored a winner with: the neutral fields' here, the
    family's own by its ``WinRules.request_of`` (the inverse of its ``request_context``).
    A field at its neutral default names no fact."""
    facts: dict = {}
    for name, on in (("after_kong", win.after_kong), ("dianganghua", win.dianganghua),
                     ("kong_discard", win.kong_discard), ("after_flower", win.after_flower),
                     # 海底: a request's last tile is both Guangdong's last_tile and Sichuan's sea_bottom
                     ("last_tile", win.last_tile or win.sea_bottom)):
        if on:
            facts[name] = True
    heavenly = win.heavenly or win.tiandi  # 天/地/人和: Guangdong's heavenly, Sichuan's tiandi
    if heavenly:
        facts["heavenly"] = heavenly
    if 0 <= win.void < 3:
        facts["void"] = "mps"[win.void]
    for name, wind in (("seat_wind", win.seat_wind), ("round_wind", win.round_wind)):
        if 0 <= wind < 4:
            facts[name] = ev.WINDS[wind]
    if win.winners != 1:
        facts["winners"] = win.winners
    if win.co_winners:
        facts["co_winners"] = sorted(win.co_winners)
    if win.kong_reveal:
        facts["reveal"] = win.kong_reveal
    if win.flowers:
        facts["flowers"] = "".join(TILE_NAMES[f] for f in sorted(win.flowers))
    hook = family.wins.request_of
    if hook is not None:
        facts.update(hook(rules, win))
    return facts


def hand_request(picture: str, tile: str, how: str, preset: str = "", options: Optional[dict] = None,
                 facts: Optional[dict] = None) -> dict:
    """The ``paipu hand --batch`` request that scores a winner's hand as the audit did: the
    concealed tiles without the winning tile, the tile, the melds in ``paipu hand``'s spelling,
    how it was won, the preset, the room's options and the win's ``facts``
    (:func:`request_facts`, and the hand's turned indicator).  ``picture`` is a settlement
    record's winner picture."""
    from schema.tiles import format_hand, parse_hand, tile_index

    concealed = picture.split(" [", 1)[0].strip()
    tiles = parse_hand(concealed) if concealed else []
    won = tile_index(tile)
    if won in tiles:
        tiles.remove(won)
    req: dict = {"hand": format_hand(tiles), "tile": tile, "how": how}
    melds = [f"{_MELD_SPEC.get(kind, kind)}:{ts}" for kind, ts in _PICTURE_MELD.findall(picture)]
    if melds:
        req["melds"] = " ".join(melds)
    req.update(facts or {})
    if preset:
        req["preset"] = preset
    if options:
        req["options"] = dict(options)
    return req


#: Request facts spelled as a bare ``paipu hand`` flag when true.
_SWITCHES = {"after_kong": "--after-kong", "dianganghua": "--dianganghua", "kong_discard": "--kong-discard",
             "last_tile": "--last-tile", "after_flower": "--after-flower", "passed_win": "--passed-win"}
#: Request facts spelled as a ``paipu hand`` flag with a value.
_VALUED = {"void": "--void", "seat_wind": "--seat-wind", "round_wind": "--round-wind", "winners": "--winners",
           "co_winners": "--co-winners", "reveal": "--reveal", "flowers": "--flowers", "seat": "--seat",
           "from_seat": "--from-seat", "dealer": "--dealer", "dealer_level": "--level", "indicator": "--indicator",
           "birds": "--birds", "bird_origin": "--bird-origin"}


def _json_text(value) -> str:
    return msgspec.json.encode(list(value) if isinstance(value, tuple) else value).decode()


def command_of(req: dict) -> str:
    """A ``paipu hand`` request (:func:`hand_request`) as the command line that asks the same."""
    parts = ["paipu hand", req.get("hand") or '""', "--tile", req["tile"]]
    if req.get("melds"):
        parts += ["--melds", '"' + req["melds"] + '"']
    parts.append({"self_draw": "--self-draw", "discard": "--discard", "robbed_kong": "--robbed-kong"}[req["how"]])
    for key, value in req.items():
        if key in _SWITCHES and value:
            parts.append(_SWITCHES[key])
        elif key == "heavenly" and value:
            parts.append(f"--{value}")
        elif key in _VALUED and value is not None:
            shown = ",".join(str(v) for v in value) if key == "co_winners" else str(value)
            parts += [_VALUED[key], shlex.quote(shown)]
    for key, value in sorted((req.get("context") or {}).items()):
        parts += ["--context", shlex.quote(f"{key}={_json_text(value)}")]
    if req.get("preset"):
        parts += ["--preset", req["preset"]]
    for key, value in sorted((req.get("options") or {}).items()):
        if key == "wilds" and isinstance(value, (list, tuple)):
            parts += ["--option", f"wilds={','.join(str(v) for v in value)}"]
        else:
            parts += ["--option", shlex.quote(f"{key}={_json_text(value)}")]
    return " ".join(parts)


def hand_command(picture: str, tile: str, how: str, preset: str = "", options: Optional[dict] = None,
                 facts: Optional[dict] = None) -> str:
    """The ``paipu hand`` command line that scores a winner's hand as the audit did
    (:func:`hand_request` spelled as flags): ``facts`` is the winner record's ``request``."""
    return command_of(hand_request(picture, tile, how, preset, options, facts))


def winner_record(family: RuleFamily, rules, winner: ev.Winner, score: Optional[Score], picture: str,
                  indicator: Optional[str] = None, win: Optional[WinContext] = None) -> dict:
    """One winner's derivation: the family's best reading beside what was logged, and
    ``request``: the ``paipu hand`` request facts of the context ``win`` the audit scored it
    with (:func:`request_facts`) and the hand's turned indicator (where the family turns one)."""
    rec = {"seat": winner.seat, "picture": picture, "complete": bool(score and score.complete),
           "logged_fan": winner.fan, "logged_points": winner.points}
    facts = request_facts(family, rules, win) if win is not None else {}
    if indicator:
        facts["indicator"] = indicator
    rec["request"] = facts
    if score is not None and score.complete:
        rec.update(fans=[[f, family.scoring.fan_chinese.get(f, f), family.scoring.fan_values[f]] for f in score.fans],
                   fan=score.fan, cap=rules.fan_cap, capped=score.capped, base=rules.base,
                   points=score.points)
        if score.steps:  # the family's own derivation (Guangdong §7.6)
            rec["steps"] = list(score.steps)
        if not score.wins:  # a complete hand that is no legal win: the family says why
            rec["illegal"] = {"code": score.code, "reason": score.reason}
    return rec


def side_bets_word(family: Optional[RuleFamily]) -> str:
    """What the family calls its side bets (养猪, 下嘴), read from the word its settlement
    gives their transfers; ``side bets`` for a family that names none."""
    label = family.settlement.transfer_labels.get("yangzhu", "") if family is not None else ""
    word = label.removeprefix("pays").strip()
    return f"{word} bets" if word else "side bets"


def settlement_record(family: RuleFamily, won: Optional[ev.HandWon], winners: list[dict], facts,
                      corrected: Sequence[ev.Transfer], settled: ev.HandSettled, ledger: Sequence[int]) -> dict:
    """One hand's settlement, recomputed and logged."""
    return {
        "kind": "settlement",
        "result": None if won is None else {"how": won.how, "tile": won.tile, "from_seat": won.from_seat},
        "winners": winners,
        "bets": facts.bets,
        "bets_word": side_bets_word(family),
        "tallies": facts.tallies,
        "transfers": [[t.payer, t.payee, t.amount, t.reason, family.settlement.transfer_labels.get(t.reason, t.reason)]
                      for t in corrected],
        "logged_transfers": [[t.payer, t.payee, t.amount, t.reason] for t in settled.transfers],
        # a family's liabilities (Guangdong 包): [winner, liable seat, reason, why]
        "liabilities": [[w, b.payer, b.reason, b.why] for w, b in sorted(getattr(facts.extra, "liable", {}).items())],
        "scores_after": list(ledger),
        "logged_scores": list(settled.scores),
    }


def _settlement_lines(rec: dict, game: Optional[dict] = None) -> list[str]:
    out = []
    res = rec["result"]
    if res is None:
        out.append("  黄庄 exhaustive draw: no win payments")
    else:
        frm = "" if res["from_seat"] is None else f" from seat {res['from_seat']}"
        out.append(f"  {res['how']} on {res['tile']}{frm}")
    for w in rec["winners"]:
        s = w["seat"]
        out.append(f"  seat {s} hand: {w['picture']}")
        if res is not None and w["picture"] and w["picture"] != "?":
            out.append("    " + hand_command(w["picture"], res["tile"], res["how"], (game or {}).get("preset", ""),
                                             (game or {}).get("options"), w.get("request")))
        if not w["complete"]:
            out.append(f"  seat {s}: not a complete hand — no payment")
            continue
        parts = " + ".join(f"{zh} {name} {value}" for name, zh, value in w["fans"])
        if w.get("steps"):
            out.append(f"  seat {s}: {parts or 'no fan'}; raw {w['fan']} fan   "
                       f"(logged: {w['logged_fan']} fan, P {w['logged_points']})")
            out.extend(f"    {step}" for step in w["steps"])
        elif w.get("illegal"):
            why = w["illegal"]
            code = f" ({why['code']})" if why["code"] else ""
            reason = f": {why['reason']}" if why["reason"] else ""
            out.append(f"  seat {s}: {parts or 'no fan'} = {w['fan']} fan; not a legal win{code}{reason} — no payment"
                       f"   (logged: {w['logged_fan']} fan, P {w['logged_points']})")
        else:
            out.append(f"  seat {s}: {parts or 'no fan'} = {w['fan']} fan; cap {w['cap']} → {w['capped']}; "
                       f"P = {w['base']} × 2^{w['capped']} = {w['points']}   "
                       f"(logged: {w['logged_fan']} fan, P {w['logged_points']})")
    for step in rec.get("steps", ()):
        out.append(f"  {step}")
    for winner, payer, reason, why in rec.get("liabilities", ()):
        out.append(f"  包 {reason}: seat {payer} pays 3·P for seat {winner}'s self-draw — {why}")
    if res is not None and res["how"] == "self_draw" and "liabilities" in rec and not rec["liabilities"] \
            and game is not None and str(game.get("preset", "")).startswith("guangdong"):
        out.append("  包: none (no 杠上开花 after an exposed kong, no 大四喜/大三元 last set fed, "
                   "no first 12张落地 feed): the other seats pay P each")
    if rec["bets"] is not None:
        out.append(f"  {rec['bets_word']}: {rec['bets']}")
    if rec["tallies"] is not None:
        out.append(f"  点鸡 chickens: {rec['tallies']}")
    for payer, payee, amount, _reason, label in rec["transfers"]:
        out.append(f"    seat {payer} {label} {amount} to seat {payee}")
    logged = ", ".join(f"{p}->{q} {a} {r}" for p, q, a, r in rec["logged_transfers"]) or "none"
    out.append(f"  logged transfers: {logged}")
    out.append(f"  scores after: recomputed {rec['scores_after']}, logged {rec['logged_scores']}")
    return out


def render(records: Sequence[dict], findings: Sequence[Finding]) -> list[str]:
    """The text view: one line per step, then the findings (or "no findings")."""
    out: list[str] = []
    game: Optional[dict] = None
    for rec in records:
        kind = rec["kind"]
        if kind == "game":
            game = rec
            out.append(f"game {rec['game']}: preset {rec['preset']}, seats {', '.join(rec['seats'])}, "
                       f"creator seat {rec['creator']}, start {rec['start_points']}")
        elif kind == "hand":
            out.append(f"hand {rec['hand']}: dealer seat {rec['dealer']}")
        elif kind == "settlement":
            out.extend(_settlement_lines(rec, game))
        elif kind == "stopped":
            out.append(f"(the audit stopped: {rec['reason']})")
    if findings:
        out.append("findings:")
        for f in findings:
            seat = f" seat {f.seat}" if f.seat is not None else ""
            vals = f" (expected {f.expected!r}, actual {f.actual!r})" if f.expected is not None or \
                f.actual is not None else ""
            out.append(f"  [{f.severity}] {f.code} hand {f.hand} seq {f.seq}{seat}: {f.message}{vals}")
    else:
        out.append("no findings")
    return out


def tile_names(tiles) -> list[str]:
    """Integers to canonical tile names."""
    return [TILE_NAMES[t] for t in tiles]
