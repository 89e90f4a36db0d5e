"""``paipu hand``: score one hand for a dispute desk.

Examples::

    paipu hand 234m456p789s555z 1s --tile 1m --self-draw
    paipu hand 34m222p66p --tile 2m --melds "chow:567s ckong:4p" --after-kong --option chow=true
    paipu hand 23m456p789s55z --melds pong:7z --tile 1m --discard --json
    echo '{"hand": "123m456p789s11z22z"}' | paipu hand --batch

HAND is the concealed tiles *without* the winning tile (several arguments are
joined); ``--tile`` is the tile won on.  Without ``--tile`` a 3k+2 hand is scored
as it stands and a 3k+1 hand reports its waits.  Melds: ``chow:123m``,
``pong:7z`` (or ``pong:777z``), ``kong:4p`` exposed, ``akong:4p`` added,
``ckong:4p`` concealed; chickens spelled out, e.g. ``kong:4p4p4p1s``.

Every rule comes from the ruleset's family (:func:`audits.rules.family_of`): which
melds are legal, the waits, the scoring and what each payer pays.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any, List, Optional

import typer

from audits.rules import RuleFamily, family_of
from audits.rules.family import HandFacts, WinContext
from replay.melds import Meld
from schema import events as ev
from schema.ruleset import Ruleset, RulesetError, parse_options, resolve
from schema.tiles import TileError, counts_of, parse_hand, tile_index, tile_name

from .console import EXIT_INPUT, fail

MELD_KINDS = {"chow": "chow", "pong": "pong", "kong": "kong_exposed", "akong": "kong_added",
              "ckong": "kong_concealed"}
HOWS = ("self_draw", "discard", "robbed_kong")
#: The seats a meld is checked as if made by (the claimer and its 上家, who fed it).
_CLAIMER, _FEEDER = 1, 0


class InputError(ValueError):
    """Bad user input: reported as one sentence, exit code 2."""


def parse_meld(spec: str, ruleset: Ruleset) -> Meld:
    """Parse ``kind:tiles`` into a Meld the ruleset's family finds legal.

    A chow, a pong or an exposed kong is checked as if claimed from 上家's discard
    (its lowest tile for a chow); an added kong as a pong of three natural
    tiles plus the fourth (natural, or a chicken when one is spelled out).
    """
    family = family_of(ruleset)
    kind_s, sep, tiles_s = spec.partition(":")
    if not sep or kind_s not in MELD_KINDS:
        raise InputError(f"meld {spec!r} must look like kind:tiles with kind one of {', '.join(MELD_KINDS)}")
    kind = MELD_KINDS[kind_s]
    try:
        tiles = parse_hand(tiles_s)
    except TileError as e:
        raise InputError(f"meld {spec!r}: {e}") from None
    wild = family.table.wild_kinds(ruleset)
    if kind == "chow":
        if len(tiles) != 3:
            raise InputError(f"meld {spec!r} is not a run of three tiles")
        _refuse(spec, family.claims.check_chow(ruleset, ruleset.players, _CLAIMER, _FEEDER, tiles[0], tiles[1:]))
        return Meld("chow", tiles[0], tuple(tiles), 0, _FEEDER)
    size = 3 if kind == "pong" else 4
    if len(tiles) == 1:
        tiles = tiles * size
    if len(tiles) != size:
        raise InputError(f"meld {spec!r} needs {size} tiles")
    naturals = Counter(t for t in tiles if t not in wild) or Counter(tiles)
    of = naturals.most_common(1)[0][0]
    own = list(tiles)
    own.remove(of)  # a pong or an exposed kong claims one natural tile; the rest came from hand
    if kind == "pong":
        _refuse(spec, family.claims.check_pong(ruleset, _CLAIMER, _FEEDER, of, own))
        return Meld("pong", of, tuple(tiles), 0, _FEEDER)
    if kind == "kong_exposed":
        _refuse(spec, family.claims.check_exposed_kong(ruleset, _CLAIMER, _FEEDER, of, of, own))
    elif kind == "kong_added":
        added = next((t for t in tiles if t != of), of)
        if tiles.count(of) < 3:
            raise InputError(f"meld {spec!r}: an added kong is a pong of three natural tiles plus the fourth")
        _refuse(spec, family.claims.check_added_kong(ruleset, of, added))
    else:
        _refuse(spec, family.claims.check_concealed_kong(ruleset, of, tiles))
    wilds = sum(1 for t in tiles if t != of)
    return Meld(kind, of, tuple(tiles), wilds, _FEEDER if kind != "kong_concealed" else None)


def _refuse(spec: str, violations: list) -> None:
    """A meld the family finds illegal is bad input (with a hint for a disabled chow)."""
    if violations:
        v = violations[0]
        hint = " (add --option chow=true if the room enabled it)" if v.code == "CLAIM_CHOW_DISABLED" else ""
        raise InputError(f"meld {spec!r}: {v.message}{hint}")


def _melds_from(value: Any, ruleset: Ruleset) -> list[Meld]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    specs: list[str] = []
    for v in value:
        specs.extend(x for x in str(v).replace(",", " ").split() if x)
    return [parse_meld(s, ruleset) for s in specs]


def _payments(family: RuleFamily, ruleset: Ruleset, how: str, points: int, score=None) -> list[dict]:
    """Who pays the winner what, as the family settles it (no bets, no 点鸡, no dealer), by role."""
    winner, other = 0, 1
    frm = None if how == "self_draw" else other
    extra = _request_facts(family, ruleset, score, how, winner, frm, None)
    settled = family.settlement.settle(ruleset, [0] * ruleset.players, [(winner, points)], how,
                                       frm, HandFacts(None, None, extra), clamp=False)
    if how == "self_draw":
        amounts = sorted({t.amount for t in settled.transfers})
        return [{"payer": "each_other_player", "amount": a} for a in amounts]
    role = "discarder" if how == "discard" else "kong_adder"
    out = [{"payer": role, "amount": sum(t.amount for t in settled.transfers if t.payer == other)}]
    # families where every loser pays a discard win too (Wenzhou): the others' amounts
    others = sorted({t.amount for t in settled.transfers if t.payer != other})
    return out + [{"payer": "each_other_player", "amount": a} for a in others]


#: The fields of a request (the ``--batch`` object format).
REQUEST_FIELDS = frozenset({
    "hand", "tile", "melds", "how", "after_kong", "kong_discard", "passed_win", "preset", "options", "seat",
    "from_seat",
    # families with a void suit, 海底 and 天胡 / 地胡 (Sichuan)
    "void", "last_tile", "heavenly", "dianganghua",
    # families with winds and 一炮三响 (Guangdong); the other seats winning the same discard (Wuhan)
    "seat_wind", "round_wind", "winners", "co_winners",
    # families whose wild comes from a turned indicator, and whose money knows the dealer
    "indicator", "dealer",
    # the family's own table facts (RuleFamily.wins.request_context: Wuhan's seats' fans)
    "context",
    # families with tiles revealed after a kong and birds (Changsha 开杠, 扎鸟)
    "reveal", "birds", "bird_origin", "openings",
    # families whose money depends on the dealer's level (连庄, Wenzhou)
    "dealer_level",
    # families with flowers set aside (Hainan: 位置花, 花上开花)
    "flowers", "after_flower"})


def evaluate(req: dict) -> dict:
    """Evaluate one request (the ``--batch`` object format) and return the result dict."""
    unknown = set(req) - REQUEST_FIELDS
    if unknown:
        raise InputError(f"unknown field(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(REQUEST_FIELDS))}")
    preset = req.get("preset", "qujing-xiaoji")
    ruleset, family = _ruleset_of(req, preset)
    concealed, tile, melds = _tiles_of(req, ruleset)
    how = req.get("how", "self_draw")
    if how not in HOWS:
        raise InputError(f"how must be one of {', '.join(HOWS)}, not {how!r}")
    size = ruleset.hand_size  # 13, or 16 in the 16-tile families
    need = size + 1 - 3 * len(melds)
    n = len(concealed) + (1 if tile is not None else 0)
    out: dict[str, Any] = {"preset": preset, "hand": req.get("hand"), "tile": req.get("tile"),
                           "melds": [f"{m.kind}:{''.join(tile_name(t) for t in m.tiles)}" for m in melds],
                           "how": how}
    if tile is None and n == need - 1:
        # the family's waits: a kind whose four tiles the player already holds cannot come
        ws = family.wins.waits(ruleset, counts_of(concealed), melds)
        out.update({"wins": False, "complete": False, "waits": [tile_name(t) for t in ws],
                    "reason": f"{size}-tile hand: waits listed (a drawn wild completes any waiting hand)"
                    if ws else f"{size}-tile hand: not waiting"})
        return out
    if n != need:
        raise InputError(f"the concealed hand has {n} tiles with the winning tile; with {len(melds)} meld(s) "
                         f"it needs {need}")
    full = concealed + ([tile] if tile is not None else [])
    ctx = _win_context(req, how, tile if tile is not None else (full[-1] if full else None))
    if any(s >= ruleset.players for s in ctx.co_winners):
        raise InputError(f"--co-winners are seats of a {ruleset.players}-player table (0..{ruleset.players - 1})")
    if family.wins.request_context is not None:
        try:
            ctx = family.wins.request_context(ruleset, ctx, req)
        except (ValueError, TypeError, KeyError) as e:
            raise InputError(f"--context: {e}") from None
    elif req.get("context"):
        raise InputError(f"--context: the {ruleset.family} rules take no table facts")
    sc = family.scoring.score(ruleset, full, melds, ctx, bool(req.get("passed_win")))
    out.update(sc.to_dict())
    if req.get("void"):
        out["void"] = req["void"]
    out["fans_detail"] = [{"fan": f, "name": family.scoring.fan_chinese[f], "value": family.scoring.fan_values[f]}
                          for f in sc.fans]
    out.update(_money(req, family, ruleset, how, sc))
    return out


def _ruleset_of(req: dict, preset: str) -> tuple[Any, Any]:
    """The request's ruleset (its preset and options, and a turned indicator's wild) and family."""
    try:
        ruleset = resolve(preset, req.get("options") or None)
    except RulesetError as e:
        raise InputError(str(e)) from None
    family = family_of(ruleset)
    if req.get("indicator"):
        ruleset = _with_indicator(family, ruleset, req["indicator"])
    return ruleset, family


def _tiles_of(req: dict, ruleset: Any) -> tuple[list[int], Optional[int], list]:
    """The concealed tiles, the winning tile (None: list the waits) and the melds, each a
    physical tile of the set: no flower in a hand, no more than four of a kind."""
    hand_s = req.get("hand")
    if not hand_s or not isinstance(hand_s, str):
        raise InputError("a hand is required, e.g. 123m456p789s11z22z")
    try:
        concealed = parse_hand(hand_s)
        tile = tile_index(req["tile"]) if req.get("tile") else None
    except TileError as e:
        raise InputError(str(e)) from None
    melds = _melds_from(req.get("melds"), ruleset)
    if any(t >= 34 for t in concealed) or tile is not None and tile >= 34 \
            or any(t >= 34 for m in melds for t in m.tiles):
        raise InputError("a flower is never in a hand or a meld: name the flowers set aside with --flowers")
    if len(melds) > ruleset.hand_size // 3:
        raise InputError(f"a hand has at most {ruleset.hand_size // 3} melds")
    physical = Counter(concealed)
    for m in melds:
        physical.update(m.tiles)
    if tile is not None:
        physical[tile] += 1
    over = [tile_name(t) for t, n in physical.items() if n > 4]
    if over:
        raise InputError(f"more than four of {', '.join(over)} in the hand and melds")
    return concealed, tile, melds


def _win_context(req: dict, how: str, win_tile: Optional[int]) -> WinContext:
    """The win's context from the request's flags, each checked against the others."""
    flowers = _flowers(req.get("flowers"))
    void = req.get("void")
    if void not in (None, "", "m", "p", "s"):
        raise InputError(f"--void is a suit (m, p or s), not {void!r}")
    heavenly = req.get("heavenly") or ""
    if heavenly not in ("", "tianhe", "dihe", "renhe"):
        raise InputError(f"heavenly is tianhe, dihe or renhe, not {heavenly!r}")
    seat_wind, round_wind = _wind(req.get("seat_wind"), "seat_wind"), _wind(req.get("round_wind"), "round_wind")
    winners = req.get("winners") or 1
    if winners not in (1, 2, 3):
        raise InputError(f"winners is 1, 2 or 3 (一炮三响: 3), not {winners!r}")
    co_winners = _co_winners(req.get("co_winners"), req.get("seat"), how)
    ctx = WinContext(how=how, win_tile=win_tile,
                     after_kong=bool(req.get("after_kong")), kong_discard=bool(req.get("kong_discard")),
                     void="mps".index(void) if void else -1, sea_bottom=bool(req.get("last_tile")),
                     tiandi=heavenly if heavenly != "renhe" else "",
                     # Guangdong: 门风 / 圈风, 天/地/人和, 海底, 一炮三响
                     seat_wind=seat_wind, round_wind=round_wind, heavenly=heavenly,
                     last_tile=bool(req.get("last_tile")), winners=winners,
                     dianganghua=bool(req.get("dianganghua")), kong_reveal=_reveal(req.get("reveal"), how),
                     # Hainan: the winner's flowers set aside (位置花) and 花上开花
                     flowers=flowers, after_flower=bool(req.get("after_flower")),
                     # 一炮多响: the other legal winners of the discard (they do not pay it)
                     co_winners=co_winners)
    if ctx.after_flower and (how != "self_draw" or ctx.after_kong):
        raise InputError("--after-flower (花上开花) is a self-draw of a flower's replacement, not with --after-kong")
    if ctx.after_kong and how != "self_draw":
        raise InputError("--after-kong (杠上开花) is a self-draw from the tail pool")
    if ctx.dianganghua and not ctx.after_kong:
        raise InputError("--dianganghua (点杠花) is a 杠上开花 (--after-kong) after an exposed kong on a discard")
    if ctx.kong_discard and how != "discard":
        raise InputError("--kong-discard (杠上炮) is a discard win")
    return ctx


def _co_winners(value: Any, seat: Any, how: str) -> frozenset:
    """一炮多响 (``--co-winners 1,3``): the other seats that legally win the same tile, as seat
    numbers (a list, or a comma-separated text); none when absent."""
    if value in (None, "", [], ()):
        return frozenset()
    items = value.replace(" ", "").split(",") if isinstance(value, str) else value
    try:
        seats = frozenset(int(s) for s in items)
    except (TypeError, ValueError):
        raise InputError(f"co_winners are seat numbers, e.g. 1,3, not {value!r}") from None
    if how == "self_draw":
        raise InputError("--co-winners (一炮多响) are the other winners of a discard or a robbed kong")
    if any(s < 0 for s in seats) or seat is not None and int(seat) in seats:
        raise InputError("--co-winners are the other winners' seats, not the winner's own (--seat)")
    return seats


def _money(req: dict, family: Any, ruleset: Any, how: str, sc: Any) -> dict:
    """What a win pays: per payer, and seat to seat where the request names the seats
    (or the family derives the transfers from the score alone)."""
    if not sc.wins:
        return {"payments": []}
    if family.settlement.score_transfers is not None:
        ts = family.settlement.score_transfers(ruleset, sc)
        return {"payments": [{"payer": t.payer, "amount": t.amount, "reason": t.reason} for t in ts],
                "transfers": [{"payer": t.payer, "payee": t.payee, "amount": t.amount, "reason": t.reason}
                              for t in ts]}
    out: dict[str, Any] = {"payments": _payments(family, ruleset, how, sc.points, sc)}
    seat = req.get("seat")
    if seat is not None:
        out["transfers"] = _transfers(family, ruleset, how, sc.points, seat, req.get("from_seat"),
                                      req.get("dealer"), _extras(req), req.get("dealer_level"), sc)
    return out


def _reveal(value: Any, how: str) -> int:
    """开杠 (``--reveal N``): a self-draw on one's own revealed tiles, N of which complete the
    hand (2: 双杠开花); a discard win on a tile another seat revealed (杠上炮): 1."""
    if value in (None, 0, False, ""):
        return 0
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise InputError(f"reveal is the number of revealed tiles that complete the hand, not {value!r}") from None
    if how == "robbed_kong" or not 1 <= n <= 4 or (how == "discard" and n != 1):
        raise InputError("--reveal: 1..4 completing tiles for the konger's self-draw, 1 for a win on another's reveal")
    return n


def _extras(req: dict) -> Optional[dict]:
    """The settlement's extra facts a request names, for the families that read them: the birds
    (tiles, the seat counted from) and the opening wins per seat (``{seat: count}``)."""
    birds, origin, openings = req.get("birds"), req.get("bird_origin"), req.get("openings")
    if not birds and origin is None and not openings:
        return None
    try:
        tiles = parse_hand(str(birds).replace(" ", "")) if birds else []
    except TileError as e:
        raise InputError(f"--birds: {e}") from None
    try:
        counts = {int(k): int(v) for k, v in (openings or {}).items()}
        origin = None if origin is None else int(origin)
    except (TypeError, ValueError, AttributeError):
        raise InputError("--bird-origin is a seat; openings map seats to counts") from None
    return {"birds": tiles, "bird_origin": origin, "openings": counts}


def _context_pair(text: str) -> tuple[str, Any]:
    """``key=value`` of ``--context`` (a JSON value, else the text)."""
    if "=" not in text:
        raise InputError(f"--context {text!r} is not key=value")
    key, _, raw = text.partition("=")
    try:
        return key.strip(), json.loads(raw)
    except json.JSONDecodeError:
        return key.strip(), raw


def _wind(value: Any, name: str) -> int:
    """A wind as 0..3 (东 南 西 北), from ``east``/``south``/``west``/``north`` or a number; -1 when absent."""
    if value is None or value == "":
        return -1
    if isinstance(value, str) and value.lower() in ev.WINDS:
        return ev.WINDS.index(value.lower())
    if isinstance(value, int) and 0 <= value < 4:
        return value
    raise InputError(f"{name} is one of {', '.join(ev.WINDS)}, not {value!r}")


def _flowers(value: Any) -> tuple[int, ...]:
    """The flowers set aside (``"3f6f"`` or a list), each once; () when absent."""
    if not value:
        return ()
    try:
        got = parse_hand("".join(value) if isinstance(value, list) else str(value))
    except TileError as e:
        raise InputError(f"--flowers: {e}") from None
    if any(t < 34 for t in got) or len(set(got)) != len(got):
        raise InputError("--flowers names flowers 1f..8f, each at most once")
    return tuple(got)


def _with_indicator(family: RuleFamily, ruleset: Ruleset, indicator: Any) -> Ruleset:
    """The hand's ruleset with the wild a turned ``indicator`` names (the family's rule)."""
    import msgspec

    wild_of = family.table.wild_of
    if wild_of is None or getattr(ruleset, "wild_from", "preset") == "preset":
        raise InputError(f"--indicator: the {ruleset.family} rules take no turned indicator")
    try:
        tile = tile_index(str(indicator))
    except TileError as e:
        raise InputError(f"--indicator: {e}") from None
    return msgspec.structs.replace(ruleset, wilds=(tile_name(wild_of(ruleset, tile)),))


def _request_facts(family: RuleFamily, ruleset: Ruleset, score, how: str, winner: int,
                   from_seat: Optional[int], dealer: Optional[int], extra: Any = None) -> Any:
    """The settlement's extra facts for a scored request: the family's own
    (``SettlementRules.request_facts``: a liability decided by the score) or the request's."""
    hook = family.settlement.request_facts
    if hook is None or score is None:
        return extra
    return hook(ruleset, score, how, winner, from_seat, dealer)


def _transfers(family: RuleFamily, ruleset: Ruleset, how: str, points: int, seat: Any,
               from_seat: Any, dealer: Any = None, extra: Optional[dict] = None,
               level: Any = None, score=None) -> list[dict]:
    """The win's transfers by seat, as the family settles them (no bets, no 点鸡; the
    dealer's bonus where the family pays one and ``dealer`` is given)."""
    n = ruleset.players
    try:
        seat = int(seat)
        from_seat = None if from_seat is None else int(from_seat)
        dealer = None if dealer is None else int(dealer)
        level = None if level is None else int(level)
    except (TypeError, ValueError):
        raise InputError("--seat, --from-seat and --dealer are seat numbers, --level a number") from None
    if level is not None and level < 1:
        raise InputError(f"--level is the dealer's level (1 or more), not {level}")
    for name, value in (("--seat", seat), ("--from-seat", from_seat), ("--dealer", dealer)):
        if value is not None and not 0 <= value < n:
            raise InputError(f"{name} {value} is not a seat of a {n}-player table (0..{n - 1})")
    if how != "self_draw" and from_seat == seat:
        raise InputError("the winner cannot be the discarder or the kong adder (--from-seat)")
    extra = _request_facts(family, ruleset, score, how, seat, from_seat, dealer, extra)
    try:
        settled = family.settlement.settle(ruleset, [0] * n, [(seat, points)], how, from_seat,
                                           HandFacts(None, None, extra, dealer, level),
                                           clamp=False)
    except ValueError as e:
        raise InputError(str(e)) from None
    return [{"payer": t.payer, "payee": t.payee, "amount": t.amount, "reason": t.reason}
            for t in settled.transfers]


def _render(res: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console()
    if "waits" in res:
        con.print(f"[bold]{res['hand']}[/bold]: {res['reason']}")
        if res["waits"]:
            con.print("waits: " + " ".join(res["waits"]))
        return
    verdict = "[green]WINS[/green]" if res["wins"] else "[red]does not win[/red]"
    con.print(f"[bold]{res['hand']}[/bold] + {res.get('tile') or '-'} ({res['how']}): {verdict}"
              + (f" — {res['reason']}" if res.get("reason") else ""))
    r = res.get("reading")
    if r:
        groups = "  ".join(
            ("".join(g["tiles"]) + (f" [yellow](鸡={','.join(g['wilds_as'])})[/yellow]" if g["wilds_as"] else ""))
            for g in r["groups"])
        con.print(f"best reading{' (小七对)' if r['seven_pairs'] else ''}: {groups}")
        if r["wild_assignments"]:
            con.print("chickens stand for: " + ", ".join(r["wild_assignments"]))
    if res["melds"]:
        con.print("melds: " + "  ".join(res["melds"]))
    if res.get("fans_detail"):
        t = Table("fan", "名", "value")
        for f in res["fans_detail"]:
            t.add_row(f["fan"], f["name"], str(f["value"]))
        con.print(t)
    if res.get("complete"):
        con.print(f"fan total {res['fan']}, capped {res['capped_fan']}, P = {res['points']}")
    for step in res.get("steps", []):
        con.print(f"  {step}")
    for p in res.get("payments", []):
        payer = p["payer"] if isinstance(p["payer"], str) else f"seat {p['payer']}"
        con.print(f"{payer.replace('_', ' ')} pays {p['amount']}" + (f" ({p['reason']})" if p.get("reason") else ""))
    for t in res.get("transfers", []):
        con.print(f"seat {t['payer']} → seat {t['payee']}: {t['amount']} ({t['reason']})")


def _fail(msg: str) -> None:
    fail(msg.rstrip(".") + ".")


def register(app: typer.Typer) -> None:
    """Add the ``hand`` command to ``app``."""

    @app.command("hand")
    def hand(
        hand: Optional[List[str]] = typer.Argument(None, help="Concealed tiles without the winning tile, e.g. 23m456p789s55z"),
        tile: Optional[str] = typer.Option(None, "--tile", "-t", help="The tile won on, e.g. 1m"),
        melds: Optional[List[str]] = typer.Option(None, "--melds", "-m", help='Melds, e.g. "pong:7z chow:123m ckong:4p"'),
        self_draw: bool = typer.Option(False, "--self-draw", help="自摸 (default)"),
        discard: bool = typer.Option(False, "--discard", help="点炮: won on a discard"),
        robbed_kong: bool = typer.Option(False, "--robbed-kong", help="抢杠: won on an added kong"),
        after_kong: bool = typer.Option(False, "--after-kong", help="杠上开花: tile from the tail pool after own kong"),
        dianganghua: bool = typer.Option(False, "--dianganghua",
                                         help="点杠花: --after-kong, the kong exposed on a discard (Sichuan)"),
        kong_discard: bool = typer.Option(False, "--kong-discard", help="杠上炮: the discard followed the discarder's kong"),
        passed_win: bool = typer.Option(False, "--passed-win", help="过胡: the player passed a win since their last action"),
        void: Optional[str] = typer.Option(None, "--void", help="定缺: the winner's declared void suit (m, p or s; Sichuan)"),
        last_tile: bool = typer.Option(False, "--last-tile", help="海底: won on the last wall tile or the final discard"),
        tianhe: bool = typer.Option(False, "--tianhe", help="天胡: the dealer's dealt tiles (Sichuan, Wenzhou)"),
        dihe: bool = typer.Option(False, "--dihe", help="地胡 / 地和: a non-dealer's first self-draw (Sichuan, Guangdong), "
                                                           "the dealer's first discard (Wenzhou)"),
        renhe: bool = typer.Option(False, "--renhe", help="人和: a win on a discard before one's first draw (Guangdong)"),
        seat_wind: Optional[str] = typer.Option(None, "--seat-wind", help="门风: east, south, west or north (Guangdong)"),
        round_wind: Optional[str] = typer.Option(None, "--round-wind", help="圈风: east, south, west or north (Guangdong)"),
        winners: int = typer.Option(1, "--winners", help="Winners on the discard (3: 一炮三响, Guangdong)"),
        co_winners: Optional[str] = typer.Option(None, "--co-winners",
                                                 help="一炮多响: the other seats winning the same tile, e.g. 1,3 "
                                                      "(they do not pay it; Wuhan)"),
        seat: Optional[int] = typer.Option(None, "--seat", help="Winner's seat, to list transfers by seat"),
        from_seat: Optional[int] = typer.Option(None, "--from-seat", help="Discarder / kong adder seat"),
        dealer: Optional[int] = typer.Option(None, "--dealer", help="The hand's dealer seat (坐庄 bonuses, Xuzhou; "
                                             "dealer pairs, Wenzhou)"),
        level: Optional[int] = typer.Option(None, "--level", help="The dealer's level 连庄 (Wenzhou: D_L)"),
        indicator: Optional[str] = typer.Option(None, "--indicator",
                                                help="The turned indicator: the wild is the family's (Xuzhou 配子, "
                                                     "Wenzhou 财神)"),
        context: Optional[List[str]] = typer.Option(None, "--context", "-c",
                                                    help="The family's table facts key=value (Wenzhou: after_call; Wuhan: seat_fans, "
                                                         "haidi, third_feeder, feeder_ready)"),
        reveal: int = typer.Option(0, "--reveal",
                                   help="开杠: won on revealed tiles (N completing the konger's hand; 1 on another's, Changsha)"),
        birds: Optional[str] = typer.Option(None, "--birds", help="扎鸟: the bird tiles, e.g. 7m4p (Changsha)"),
        bird_origin: Optional[int] = typer.Option(None, "--bird-origin", help="The seat birds count from (Changsha)"),
        flowers: Optional[str] = typer.Option(None, "--flowers",
                                              help="Flowers the winner set aside, e.g. 3f6f (Hainan 位置花)"),
        after_flower: bool = typer.Option(False, "--after-flower",
                                          help="花上开花: self-drawn on the replacement of a flower (Hainan)"),
        preset: str = typer.Option("qujing-xiaoji", "--preset", help="Ruleset preset"),
        option: Optional[List[str]] = typer.Option(None, "--option", "-o", help="Ruleset option key=value"),
        as_json: bool = typer.Option(False, "--json", help="One JSON object on stdout"),
        batch: bool = typer.Option(False, "--batch", help="Read one JSON request per stdin line, write one JSON result per line"),
    ) -> None:
        """Does this hand win, with which reading, fans and points?"""
        if batch:
            failed = False
            for lineno, line in enumerate(sys.stdin, 1):
                if not line.strip():
                    continue
                try:
                    req = json.loads(line)
                    if not isinstance(req, dict):
                        raise InputError("each line must be a JSON object")
                    res = evaluate(req)
                except json.JSONDecodeError as e:
                    res = {"error": f"line {lineno}: not JSON ({e.msg})"}
                except InputError as e:
                    res = {"error": f"line {lineno}: {e}"}
                if "error" in res:
                    failed = True
                    typer.echo(res["error"], err=True)
                typer.echo(json.dumps(res, ensure_ascii=False))
            if failed:
                raise typer.Exit(EXIT_INPUT)
            return
        if not hand:
            _fail("a hand is required, e.g. paipu hand 123m456p789s11z2z --tile 2z")
        hows = [h for h, on in (("self_draw", self_draw), ("discard", discard), ("robbed_kong", robbed_kong)) if on]
        if len(hows) > 1:
            _fail("choose one of --self-draw, --discard, --robbed-kong")
        try:
            opts = parse_options(option or [])
        except RulesetError as e:
            _fail(str(e))
        req = {"hand": "".join(hand), "tile": tile, "melds": melds, "how": hows[0] if hows else "self_draw",
               "after_kong": after_kong, "kong_discard": kong_discard, "passed_win": passed_win,
               "preset": preset, "options": opts, "seat": seat, "from_seat": from_seat,
               "void": void, "last_tile": last_tile, "dianganghua": dianganghua,
               "heavenly": "tianhe" if tianhe else ("dihe" if dihe else ("renhe" if renhe else "")),
               "seat_wind": seat_wind, "round_wind": round_wind, "winners": winners, "co_winners": co_winners,
               "dealer": dealer, "indicator": indicator, "reveal": reveal, "birds": birds,
               "bird_origin": bird_origin, "dealer_level": level,
               "flowers": flowers, "after_flower": after_flower}
        if context:
            try:
                req["context"] = dict(_context_pair(c) for c in context)
            except InputError as e:
                _fail(str(e))
        try:
            res = evaluate(req)
        except InputError as e:
            _fail(str(e))
            return
        if as_json:
            typer.echo(json.dumps(res, ensure_ascii=False))
        else:
            _render(res)
