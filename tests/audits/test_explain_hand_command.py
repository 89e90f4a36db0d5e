"""One hand notation: what ``--explain`` prints for a winner can be pasted into ``paipu hand``,
and it scores the hand with the context the audit scored it with (the winner record's
``request``: the request facts of the audit's WinContext)."""

from __future__ import annotations

import json
import shlex
from functools import lru_cache
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from audits.audit import explain_records
from audits.explain import command_of, hand_command, hand_request, request_facts
from audits.rules import FAMILIES, family_of
from audits.rules.family import WinContext
from paipu import hand_cmd
from schema.reader import LogReader
from schema.ruleset import resolve

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


@lru_cache(maxsize=1)
def _all_winners() -> tuple:
    out = []
    for path in sorted(SAMPLES.glob("**/*.jsonl")):  # every family's folder, clean and faulty
        for log in LogReader([str(path)]).games():
            _audit, recs = explain_records(log)
            game = next(r for r in recs if r["kind"] == "game")
            for r in recs:
                if r["kind"] == "settlement" and r["result"] is not None:
                    for w in r["winners"]:
                        if w["complete"]:
                            out.append((path.stem, game, r["result"], w))
    return tuple(out)


def _winners():
    yield from _all_winners()


def _request(game, result, w, facts=None) -> dict:
    return hand_request(w["picture"], result["tile"], result["how"], game["preset"], game["options"],
                        w["request"] if facts is None else facts)


def _app():
    app = typer.Typer()
    hand_cmd.register(app)

    @app.command("noop")
    def noop() -> None:
        pass

    return app, CliRunner()


def _as_scored(got: dict, w: dict) -> bool:
    """``paipu hand``'s result is the audit's reading: fans, total, points and legality."""
    return (sorted(got["fans"]) == sorted(f[0] for f in w["fans"]) and got["fan"] == w["fan"]
            and got["points"] == w["points"] and got["wins"] == ("illegal" not in w))


def test_the_command_drops_the_winning_tile_and_spells_melds_facts_and_options_as_paipu_hand_does():
    cmd = hand_command("234m222p66p [chow 567s] [kong_concealed 4444p]", "2m", "self_draw", "qujing-xiaoji",
                       {"chow": True}, {"after_kong": True})
    assert cmd == ('paipu hand 34m22266p --tile 2m --melds "chow:567s ckong:4444p" --self-draw --after-kong '
                   "--preset qujing-xiaoji --option chow=true")
    cmd = hand_command("12379m338m33z [pong 222z] [kong_added 111s7z]", "8m", "discard", "qujing-shuanggui",
                       {"wilds": ["5z", "7z"], "draw_reserve_by_kongs": [20, 14]}, {"kong_discard": True})
    assert cmd == ('paipu hand 1233379m33z --tile 8m --melds "pong:222z akong:111s7z" --discard --kong-discard '
                   "--preset qujing-shuanggui --option 'draw_reserve_by_kongs=[20,14]' --option wilds=5z,7z")
    cmd = hand_command("123456m789p2225s", "5s", "discard", "wuhan-hzlzg", None,
                       {"heavenly": "renhe", "seat_wind": "north", "co_winners": [1, 3], "seat": 2,
                        "context": {"seat_fans": [[1, 0], [0]], "haidi": True}, "flowers": "3f6f"})
    assert cmd == ("paipu hand 123456m789p222s --tile 5s --discard --renhe --seat-wind north --co-winners 1,3 "
                   "--seat 2 --flowers 3f6f --context haidi=true --context 'seat_fans=[[1,0],[0]]' "
                   "--preset wuhan-hzlzg")


def test_the_neutral_context_fields_are_spelled_as_request_facts_once():
    qujing = FAMILIES["qujing"]
    rules = resolve("qujing-xiaoji")
    assert request_facts(qujing, rules, WinContext()) == {}
    ctx = WinContext(how="discard", win_tile=3, kong_discard=True, seat_wind=3, round_wind=0, tiandi="dihe",
                     sea_bottom=True, winners=2, co_winners=frozenset({2}), void=1, kong_reveal=1, flowers=(36, 34))
    assert request_facts(qujing, rules, ctx) == {
        "kong_discard": True, "last_tile": True, "heavenly": "dihe", "void": "p", "seat_wind": "north",
        "round_wind": "east", "winners": 2, "co_winners": [2], "reveal": 1, "flowers": "1f3f"}


def test_explain_prints_the_command_for_every_winner_of_every_family():
    winners = list(_winners())
    assert len(winners) > 600
    assert {family_of(resolve(g["preset"])).name for _n, g, _r, _w in winners} == set(FAMILIES)
    for _name, game, result, w in winners:
        cmd = hand_command(w["picture"], result["tile"], result["how"], game["preset"], game["options"],
                           w["request"])
        assert cmd.startswith("paipu hand ") and f"--tile {result['tile']}" in cmd
        assert cmd == command_of(_request(game, result, w))


def test_the_pasted_command_scores_the_hand_as_the_audit_did():
    app, runner = _app()
    for name, game, result, w in _winners():
        cmd = hand_command(w["picture"], result["tile"], result["how"], game["preset"], game["options"],
                           w["request"])
        r = runner.invoke(app, [*shlex.split(cmd)[1:], "--json"])
        assert r.exit_code == 0, (name, cmd, r.output)
        assert _as_scored(json.loads(r.stdout), w), (name, cmd, r.stdout, w)


def test_the_batch_request_scores_the_hand_as_the_audit_did():
    for name, game, result, w in _winners():
        req = json.loads(json.dumps(_request(game, result, w)))  # as a --batch line carries it
        assert _as_scored(hand_cmd.evaluate(req), w), (name, req)


def test_paipu_hand_reads_back_every_fact_it_is_given():
    """request -> paipu hand's context -> request is the identity: no fact is dropped or altered."""
    for name, game, result, w in _winners():
        req = _request(game, result, w)
        ruleset, family = hand_cmd._ruleset_of(req, req["preset"])
        ctx = hand_cmd._win_context(req, req["how"], None)
        if family.wins.request_context is not None:
            ctx = family.wins.request_context(ruleset, ctx, req)
        want = {k: v for k, v in w["request"].items() if k != "indicator"}
        assert request_facts(family, ruleset, ctx) == want, name


#: the facts whose absence the near-miss test shows changing a sample winner's score
_FACTS = ("after_kong", "kong_discard", "last_tile", "heavenly", "seat_wind", "round_wind", "winners",
          "co_winners", "reveal", "flowers", "dianganghua", "context", "void")


def test_near_miss_a_command_without_one_of_its_facts_scores_differently():
    """Each fact the command carries is needed: for each, some sample winner scores otherwise
    without it (a request with every fact dropped is the command before the facts travelled)."""
    needed: dict[str, str] = {}
    for name, game, result, w in _winners():
        for fact in set(w["request"]) & set(_FACTS) - set(needed):
            facts = {k: v for k, v in w["request"].items() if k != fact}
            try:
                got = hand_cmd.evaluate(_request(game, result, w, facts))
            except hand_cmd.InputError:
                continue  # a fact another one needs (--dianganghua without --after-kong)
            if not _as_scored(got, w):
                needed[fact] = name
    assert set(needed) == set(_FACTS), sorted(set(_FACTS) - set(needed))


def test_near_miss_the_guangdong_seat_wind_is_the_difference():
    # gd_ex03_cap: 门风 and 圈风 (east, the dealer's own) count only with the winds given
    w = next(w for n, _g, _r, w in _winners() if n == "gd_ex03_cap")
    game, result = next((g, r) for n, g, r, x in _winners() if x is w)
    assert "menfeng" in [f[0] for f in w["fans"]] and w["request"]["seat_wind"] == "east"
    full = hand_cmd.evaluate(_request(game, result, w))
    bare = hand_cmd.evaluate(_request(game, result, w, {**w["request"], "seat_wind": "west"}))
    assert "menfeng" in full["fans"] and "menfeng" not in bare["fans"] and bare["fan"] < full["fan"]


@pytest.mark.parametrize("how", ["self_draw", "discard"])
def test_a_family_hook_gives_back_what_its_request_context_reads(how):
    wuhan = FAMILIES["wuhan"]
    rules = resolve("wuhan-hzlzg")
    req = {"preset": "wuhan-hzlzg", "how": how, "seat": 2, "dealer": 1, "indicator": "4p",
           "context": {"seat_fans": [[1, 0, 0, 0, 0], [0, 0, 1, 0, 0], [2, 1, 0, 0, 0], [0, 0, 0, 0, 0]],
                       "third_feeder": 0, "haidi": how == "self_draw"}}
    ctx = wuhan.wins.request_context(rules, WinContext(how=how), req)
    facts = wuhan.wins.request_of(rules, ctx)
    want = {"seat": 2, "dealer": 1, "context": {k: v for k, v in req["context"].items() if v is not False}}
    if how == "discard":
        want["from_seat"] = 1  # the seat before the winner when the request names none
    assert facts == want


def test_wenzhou_names_a_self_draw_after_a_call_and_nothing_else():
    wenzhou = FAMILIES["wenzhou"]
    rules = resolve("wenzhou")
    called = wenzhou.wins.request_context(rules, WinContext(), {"context": {"after_call": True}})
    assert wenzhou.wins.request_of(rules, called) == {"context": {"after_call": True}}
    drawn = wenzhou.wins.request_context(rules, WinContext(), {})
    assert wenzhou.wins.request_of(rules, drawn) == {}
    assert wenzhou.wins.request_of(rules, WinContext(how="discard")) == {}
