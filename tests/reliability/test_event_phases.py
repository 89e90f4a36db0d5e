"""Every event type arriving where the table does not expect it, in every family (issue 35):
a structural break or a finding, never an internal error.

The test is generated: event type × table phase × family.  The event types are the
schema's union (:data:`schema.events.EVENT_TYPES`), so a type added to it joins the
test without an edit here; each arrives as found in the sample logs (any family's) or,
for a type no sample holds, built from its schema (:func:`synthesize`).  The phases are
the places in a clean game of the family where the table is in each state (before the
first hand, dealing, in play after a draw or a discard, after a win, between hands,
after the close).  Each case inserts the event there, renumbers the sequence, and checks
the audit and the store's row derivation on the result.
"""

from __future__ import annotations

import glob
import json
import os
from functools import lru_cache
from typing import Any, Optional

import msgspec
import pytest

from audits.audit import audit_game
from audits.rules import registry
from schema import events as ev
from schema.reader import GameLog, decode_line
from schema.ruleset import RulesetError, resolve
from tests.reliability.fuzzing import is_internal_error
from tests.reliability.helpers import ROOT

#: The families whose games the test plays (every registered family, so a new one joins
#: without an edit here), and the phases it puts events in.
FAMILIES = tuple(registry.FAMILIES)

#: phase -> the event type after whose first occurrence the table is in that phase
#: (None: right after the opening; "end": after the last event, the game closed).
PHASES: dict[str, Optional[str]] = {
    "before_first_hand": None,
    "dealing": "HandStarted",
    "dealt": "TilesDealt",
    "after_draw": "TileDrawn",
    "after_discard": "TileDiscarded",
    "after_win": "HandWon",
    "between_hands": "HandSettled",
    "closed": "end",
}


def _sample_games() -> list[list[dict]]:
    """Every game of every sample log, as event dicts in log order."""
    games: list[list[dict]] = []
    for path in sorted(glob.glob(os.path.join(ROOT, "sample_logs", "**", "*.jsonl"), recursive=True)):
        by_game: dict[str, list[dict]] = {}
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    d = json.loads(line)
                    by_game.setdefault(d["game"], []).append(d)
        games.extend(by_game.values())
    return games


def _family(game: list[dict]) -> Optional[str]:
    first = game[0]
    if first.get("type") != "GameOpened":
        return None
    try:
        return resolve(first["preset"], {k: v for k, v in first.get("options", {}).items() if v is not None}).family
    except (RulesetError, ValueError, KeyError, TypeError):
        return None


@lru_cache(maxsize=None)
def family_game(family: str) -> tuple[str, ...]:
    """The shortest sample game of the family that passes through every phase (its lines as JSON)."""
    wanted = {t for t in PHASES.values() if t not in (None, "end")} | {"GameClosed"}
    fits = [g for g in _sample_games() if _family(g) == family and wanted <= {d["type"] for d in g}]
    assert fits, f"no sample game of {family} passes through every phase"
    return tuple(json.dumps(d) for d in min(fits, key=len))


@lru_cache(maxsize=None)
def _found_in_samples() -> dict[str, str]:
    """Event type name -> one such event from the sample logs (JSON), the first found."""
    out: dict[str, str] = {}
    for g in _sample_games():
        for d in g:
            out.setdefault(d["type"], json.dumps(d))
    return out


def synthesize(t: type) -> dict:
    """An event of type ``t`` that its schema accepts, built from the schema alone."""
    info = msgspec.inspect.type_info(t)
    out: dict[str, Any] = {"type": t.__name__}
    for f in info.fields:
        if f.required:
            out[f.encode_name] = _value(f.type)
    msgspec.convert(out, ev.AnyEvent)  # the schema takes it (else the synthesizer needs teaching)
    return out


def _value(t: Any) -> Any:
    I = msgspec.inspect
    if isinstance(t, I.Metadata):
        return _value_within(t.type, t.extra_json_schema, t)
    if isinstance(t, I.UnionType):
        return _value(next(x for x in t.types if not isinstance(x, I.NoneType)))
    if isinstance(t, I.LiteralType):
        return t.values[0]
    if isinstance(t, I.IntType):
        return max(0, t.ge or 0)
    if isinstance(t, I.FloatType):
        return 0.0
    if isinstance(t, I.BoolType):
        return False
    if isinstance(t, I.StrType):
        return "a" * max(1, t.min_length or 0) if t.pattern is None else _from_pattern(t.pattern)
    if isinstance(t, I.DateTimeType):
        return "2026-01-01T00:00:00Z"
    if isinstance(t, (I.ListType, I.TupleType, I.VarTupleType, I.SetType, I.FrozenSetType)):
        n = t.min_length or 0
        return [_value(t.item_type) for _ in range(n)]
    if isinstance(t, I.DictType):
        return {}
    if isinstance(t, I.StructType):
        return {f.encode_name: _value(f.type) for f in t.info.fields if f.required}
    if isinstance(t, I.AnyType):
        return None
    raise TypeError(f"the synthesizer cannot build a value of {t!r}; teach it this type")


def _value_within(t: Any, _extra: Any, _meta: Any) -> Any:
    return _value(t)


def _from_pattern(pattern: str) -> str:
    if "0-9a-f" in pattern:
        return "0" * 64
    raise TypeError(f"the synthesizer cannot build a string matching {pattern!r}; teach it this pattern")


def template(t: type) -> dict:
    """One event of type ``t``: as a sample log has it, else synthesized from the schema."""
    found = _found_in_samples().get(t.__name__)
    return json.loads(found) if found is not None else synthesize(t)


def _insert_at(game: list[dict], phase: str) -> int:
    marker = PHASES[phase]
    if marker is None:
        return 1
    if marker == "end":
        return len(game)
    return next(i for i, d in enumerate(game) if d["type"] == marker) + 1


def broken_game(family: str, t: type, phase: str) -> GameLog:
    """The family's game with an event of type ``t`` inserted at ``phase`` (seq renumbered)."""
    game = [json.loads(x) for x in family_game(family)]
    gid = game[0]["game"]
    e = dict(template(t), game=gid)
    game.insert(_insert_at(game, phase), e)
    events = []
    for i, d in enumerate(game):
        d["seq"] = i
        got = decode_line(json.dumps(d).encode(), "phases.jsonl", i + 1)
        assert isinstance(got, ev.Event), got  # every line is the schema's: the table is what is tested
        events.append(got)
    return GameLog(gid, "phases.jsonl", events, list(range(1, len(events) + 1)), None, True)


def _check(log: GameLog) -> None:
    from paipu.store import derive
    from paipu.store.ingest import game_rows

    audit = audit_game(log)
    internal = [f.message for f in audit.findings if is_internal_error(f)]
    assert not internal, internal
    game_rows(log)
    derive.game_lines(log)


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("t", ev.EVENT_TYPES, ids=lambda t: t.__name__)
def test_an_event_in_any_phase_is_a_break_or_a_finding_never_an_internal_error(family, t):
    for phase in PHASES:
        _check(broken_game(family, t, phase))


def test_every_event_type_has_a_template():
    # a type no sample holds is synthesized from its schema; a type the synthesizer
    # cannot build fails here, naming it (teach _value its field type)
    for t in ev.EVENT_TYPES:
        assert template(t)["type"] == t.__name__


def test_the_insertion_is_seen_near_miss():
    # the near miss: a second HandStarted inserted after the deal is a structural break
    # (the check above would pass vacuously if inserted events were never read)
    audit = audit_game(broken_game("qujing", ev.HandStarted, "dealt"))
    assert not audit.complete and "STRUCTURAL_BREAK" in [f.code for f in audit.findings]
    clean = audit_game(broken_game("qujing", ev.PigBetPlaced, "closed"))
    assert not clean.complete or clean.findings


# --- the cases the issue names, each asserted as a break or a finding ----------------------


def _codes(log: GameLog) -> list[str]:
    return [f.code for f in audit_game(log).findings]


@pytest.mark.parametrize("t", [ev.TilesDealt, ev.TileDrawn, ev.VoidDeclared, ev.HandSettled, ev.TileDiscarded],
                         ids=lambda t: t.__name__)
def test_a_sichuan_hand_event_before_hand_started_is_a_structural_break(t):
    audit = audit_game(broken_game("sichuan", t, "before_first_hand"))
    codes = [f.code for f in audit.findings]
    assert "INTERNAL_ERROR" not in codes
    if t is ev.HandSettled:  # the reducer takes a settlement anywhere; the audit judges it
        assert codes
    else:
        assert "STRUCTURAL_BREAK" in codes and not audit.complete


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("phase", list(PHASES))
def test_a_second_game_opened_is_a_structural_break(family, phase):
    audit = audit_game(broken_game(family, ev.GameOpened, phase))
    breaks = [f for f in audit.findings if f.code == "STRUCTURAL_BREAK"]
    assert not audit.complete and breaks and "second GameOpened" in breaks[0].message
    assert "INTERNAL_ERROR" not in [f.code for f in audit.findings]


def test_one_game_opened_is_no_break_near_miss():
    clean = [json.loads(x) for x in family_game("sichuan")]
    events = [decode_line(json.dumps(d).encode(), "c.jsonl", i) for i, d in enumerate(clean, 1)]
    audit = audit_game(GameLog(clean[0]["game"], "c.jsonl", events, list(range(1, len(events) + 1)), None, True))
    assert audit.complete and "STRUCTURAL_BREAK" not in [f.code for f in audit.findings]


#: The event types that name the kind of the meld they make (a new one joins the test).
KIND_TYPES = tuple(t for t in ev.EVENT_TYPES if "kind" in t.__struct_fields__)


def _game_with(family: str, t: type) -> Optional[list[dict]]:
    fits = [g for g in _sample_games() if _family(g) == family and any(d["type"] == t.__name__ for d in g)]
    return min(fits, key=len) if fits else None


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("t", KIND_TYPES, ids=lambda t: t.__name__)
def test_a_meld_whose_kind_differs_from_its_tiles_is_a_finding(family, t):
    from schema.tiles import TILE_NAMES

    game = _game_with(family, t)
    if game is None:
        pytest.skip(f"no {family} sample holds a {t.__name__}")
    at = next(i for i, d in enumerate(game) if d["type"] == t.__name__)
    real = game[at]["kind"]
    for kind in TILE_NAMES:
        if kind == real:
            continue
        events = [decode_line(json.dumps(dict(d, kind=kind) if i == at else d).encode(), "k.jsonl", i + 1)
                  for i, d in enumerate(game)]
        log = GameLog(game[0]["game"], "k.jsonl", events, list(range(1, len(events) + 1)), None, True)
        audit = audit_game(log)
        codes = [f.code for f in audit.findings]
        assert "INTERNAL_ERROR" not in codes, (kind, [f.message for f in audit.findings if f.code == "INTERNAL_ERROR"])
        assert codes, f"a {t.__name__} of {kind} made of {game[at].get('tiles')} passed unremarked"


@pytest.mark.parametrize("family", FAMILIES)
def test_a_hand_dealt_five_copies_of_a_kind_is_a_structural_break(family):
    # found by bench/fuzz.py (a list resized in a deal): no set holds a fifth copy
    game = [json.loads(x) for x in family_game(family)]
    deal = next(d for d in game if d["type"] == "TilesDealt")
    tile = deal["hands"][0][0]
    deal["hands"][0] = [tile] * 5 + deal["hands"][0][5:]
    events = [decode_line(json.dumps(d).encode(), "d.jsonl", i + 1) for i, d in enumerate(game)]
    audit = audit_game(GameLog(game[0]["game"], "d.jsonl", events, list(range(1, len(events) + 1)), None, True))
    breaks = [f.message for f in audit.findings if f.code == "STRUCTURAL_BREAK"]
    assert breaks and "5 copies" in breaks[0] and not audit.complete
    assert "INTERNAL_ERROR" not in [f.code for f in audit.findings]


def _discard_win_after_draw(family: str, matching_discard: bool) -> GameLog:
    """The family's game cut after its first draw with a discard win on the drawn tile, which
    nobody discarded (the fuzzer's seed 36 input 504951), or, for the near miss, cut after its
    first discard with a win on that discard."""
    game = [json.loads(x) for x in family_game(family)]
    gid = game[0]["game"]
    after = "TileDiscarded" if matching_discard else "TileDrawn"
    at = next(i for i, d in enumerate(game) if d["type"] == after) + 1
    drawer, tile = game[at - 1]["seat"], game[at - 1]["tile"]
    winner = (drawer + 1) % len(game[0]["seats"])
    won = {"type": "HandWon", "game": gid, "at": "2026-01-01T00:00:00Z", "how": "discard", "tile": tile,
           "from_seat": drawer, "winners": [{"seat": winner, "fans": [], "fan": 0, "points": 0}]}
    game = game[:at] + [won]
    events = [decode_line(json.dumps(dict(d, seq=i)).encode(), "w.jsonl", i + 1) for i, d in enumerate(game)]
    return GameLog(gid, "w.jsonl", events, list(range(1, len(events) + 1)), None, True)


@pytest.mark.parametrize("family", FAMILIES)
def test_a_discard_win_on_a_tile_nobody_discarded_is_a_structural_break(family):
    # found by bench/fuzz.py (seed 36, input 504951): a Wuhan discard win with no discard to
    # take reached the family's scoring and failed there (INTERNAL_ERROR)
    audit = audit_game(_discard_win_after_draw(family, matching_discard=False))
    codes = [f.code for f in audit.findings]
    assert "INTERNAL_ERROR" not in codes, [f.message for f in audit.findings]
    breaks = [f for f in audit.findings if f.code == "STRUCTURAL_BREAK"]
    assert breaks and breaks[0].actual == "no_such_discard" and not audit.complete


@pytest.mark.parametrize("family", FAMILIES)
def test_a_discard_win_on_the_last_discard_is_no_break_near_miss(family):
    audit = audit_game(_discard_win_after_draw(family, matching_discard=True))
    assert "INTERNAL_ERROR" not in [f.code for f in audit.findings]
    assert "STRUCTURAL_BREAK" not in [f.code for f in audit.findings], audit.findings


#: Inputs bench/fuzz.py found paipu failing on, kept as found (``tests/reliability/found/``),
#: with the findings each must give now.  seed 36 input 504951: a Wuhan room paying the
#: discarder alone, a discard win on a tile nobody discarded, scored before the reducer saw
#: it.  Seed 36 input 995792: a seat declared a win the log left out of the winners, scored
#: after the win had taken the discard (no discarder left on the table).
FOUND = {
    "wuhan_discard_win_without_discard.jsonl": ["TURN_ORDER", "STRUCTURAL_BREAK"],
    "wuhan_win_scored_after_the_discard_left.jsonl": ["CLAIM_PRIORITY", "WIN_NOT_OPENED", "TRANSFER_MISMATCH"],
}


@pytest.mark.parametrize("name", sorted(FOUND))
def test_the_fuzzers_finds_are_findings_not_internal_errors(name):
    from schema.reader import read_games

    games, problems = read_games([os.path.join(ROOT, "tests", "reliability", "found", name)])
    assert len(games) == 1 and not problems
    audit = audit_game(games[0])
    codes = [f.code for f in audit.findings]
    assert "INTERNAL_ERROR" not in codes, [f.message for f in audit.findings]
    assert codes == FOUND[name]


def test_every_kept_find_is_named():
    assert sorted(os.listdir(os.path.join(ROOT, "tests", "reliability", "found"))) == sorted(FOUND)
