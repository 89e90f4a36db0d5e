"""The rule family interface in parts: every hook lives in one part (the catalogue's
groups), the docs' table names exactly those hooks, the five new families' shared
hooks default to "nothing" in today's families, and the registry imports the
families in one place with no import cycle through the package."""

from __future__ import annotations

import ast
import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

from audits.rules import FAMILIES
from audits.rules import family as F

ROOT = Path(__file__).resolve().parents[2]

PART_CLASSES = {"table": F.TableRules, "claims": F.ClaimRules, "wins": F.WinRules, "scoring": F.ScoringRules,
                "settlement": F.SettlementRules, "billing": F.BillingRules, "own": F.OwnRules}


def _hooks(cls) -> set[str]:
    return {f.name for f in dataclasses.fields(cls)}


def test_the_parts_are_the_familys_fields_and_no_hook_is_in_two():
    fields = [f.name for f in dataclasses.fields(F.RuleFamily)]
    assert tuple(f for f in fields if f in PART_CLASSES) == F.PARTS == tuple(PART_CLASSES)
    assert set(fields) - set(PART_CLASSES) == {"name", "codes", "data"}
    seen: dict[str, str] = {}
    for part, cls in PART_CLASSES.items():
        for hook in _hooks(cls):
            assert hook not in seen, f"{hook} in {seen.get(hook)} and {part}"
            seen[hook] = part
    # the 61 hooks of the flat interface, plus the five new families' five (birds_due with the
    # simulator), plus the settlement's derivation for --explain (Xuzhou), plus what the report
    # page shows of a hand (own.particulars)
    # + paipu hand's request_context, score_transfers (Wuhan); + dealer_reads_table, pair_totals,
    # explain_pair (Changsha)
    # + TableRules.rotation (dealer levels, Wenzhou)
    # + SettlementRules.request_facts (paipu hand's liability decided by the score, Hainan's 无番抢杠)
    # + WinRules.legal_winners (一炮多响 winners judged with each other, Wuhan's 起胡 on the payers)
    # + WinRules.request_of (request_context's inverse: --explain's pasted paipu hand command, Wuhan, Wenzhou)
    # + TableRules.discard_rule_for (the discard rule bound once per ruleset, Wenzhou's discard order)
    # + TableRules.events (the event types only some rulesets log that the family's rooms do)
    assert len(seen) + 3 == 61 + 5 + 1 + 1 + 2 + 3 + 1 + 1 + 1 + 1 + 1 + 1


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_every_family_fills_each_part_with_its_class(name):
    family = FAMILIES[name]
    for part, cls in PART_CLASSES.items():
        assert type(getattr(family, part)) is cls, (name, part)


@pytest.mark.parametrize("name", ["guangdong", "qujing", "sichuan"])
def test_the_shared_ground_of_the_new_families_is_nothing_in_todays_families(name):
    family = FAMILIES[name]
    assert family.table.wild_of is None
    assert family.table.discard_rule is None
    assert family.table.discard_rule_for is None
    assert family.table.next_drawer is None
    assert family.scoring.payer_points is None
    assert family.settlement.birds_due is None
    assert family.own.particulars is None


def test_a_discard_verdict_is_plain_unless_told():
    assert F.DiscardVerdict() == (False, None, "CLAIM_ON_DEAD_DISCARD")
    bad = F.Violation("SPECIAL_TILE_DISCARDED", "a wild is not discarded")
    assert F.DiscardVerdict(dead=True, violation=bad).violation.code == "SPECIAL_TILE_DISCARDED"


def test_the_architecture_table_names_each_parts_hooks():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = {m.group(1): m.group(3) for m in re.finditer(r"^\| `(\w+)` \| `(\w+)` \| (.*) \|$", text, re.M)}
    assert set(rows) == set(PART_CLASSES)
    for part, cls in PART_CLASSES.items():
        named = set(re.findall(r"`(\w+)`", rows[part]))
        assert named == _hooks(cls), (part, named ^ _hooks(cls))


def _fresh(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_package_init_imports_none_of_its_modules():
    # the package's __init__ used to import its families while they imported it back;
    # now only the registry imports them, and the package reaches it on first use
    tree = ast.parse((ROOT / "audits" / "rules" / "__init__.py").read_text(encoding="utf-8"))
    top = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert [(n.module, n.level) for n in top if isinstance(n, ast.ImportFrom)] == [("__future__", 0), ("typing", 0)]
    assert not [n for n in top if isinstance(n, ast.Import)]
    registry = (ROOT / "audits" / "rules" / "registry.py").read_text(encoding="utf-8")
    assert {m for m in re.findall(r"^from \.(\w+) import", registry, re.M)} == {"family", *FAMILIES}


@pytest.mark.parametrize("first", ["audits.rules.guangdong", "audits.rules.sichuan", "audits.rules.qujing.fans"])
def test_a_family_imported_first_finds_the_package_whole(first):
    # whichever module comes first, the package is whole before any family imports from it
    out = _fresh(f"import {first}\nfrom audits.rules import family_of\nfrom schema.ruleset import resolve\n"
                 "print(family_of(resolve('guangdong-jipinghu')).name)")
    assert out == "guangdong"


def test_an_unknown_name_is_not_a_registry_name():
    import audits.rules as r
    with pytest.raises(AttributeError):
        r.QUJING  # noqa: B018 - the families are reached through FAMILIES / family_of


def test_computed_once_computes_a_fan_input_value_on_its_first_read_and_keeps_it():
    calls = []

    class Reading:
        @F.computed_once
        def suits(self) -> set:
            """the suits held"""
            calls.append(self)
            return {0, 2}

    a, b = Reading(), Reading()
    assert a.suits == {0, 2} and a.suits is a.suits
    assert calls == [a]  # kept after the first read
    assert b.suits == {0, 2} and calls == [a, b]  # near miss: each object computes its own
    assert isinstance(Reading.suits, F.computed_once) and Reading.suits.__doc__ == "the suits held"


def test_ruleset_with_makes_each_variant_once_per_ruleset_object():
    from audits.rules.wilds import plain_rules
    from schema.ruleset import resolve

    room = resolve("qujing-xiaoji")
    floorless = F.ruleset_with(room, qiaoluo=False)
    assert floorless.qiaoluo is False and floorless.wilds == room.wilds
    assert F.ruleset_with(room, qiaoluo=False) is floorless  # kept, not copied (and validated) again
    assert F.ruleset_with(room, base=2) is not floorless and F.ruleset_with(room, base=2).base == 2
    assert F.ruleset_with(resolve("qujing-xiaoji"), qiaoluo=False) == floorless  # the same variant of an equal room
    assert plain_rules(room).wilds == () and plain_rules(room) is plain_rules(room)


def test_a_part_from_a_module_reads_the_hooks_it_names_as_qujing_does_and_takes_the_rest_given():
    from types import SimpleNamespace

    from audits.rules.qujing import claims as qujing_claims

    def own_pong(*a):
        return []

    part = F.claim_rules_from(qujing_claims, check_pong=own_pong, tile_passes=(), pass_violation=None)
    assert part.check_chow is qujing_claims.check_chow and part.claim_rank is qujing_claims.CLAIM_RANK
    assert part.check_pong is own_pong  # given wins over the module's
    # near miss: a module without a required hook, nothing given for it, is refused at once
    partial_module = SimpleNamespace(**{name: getattr(qujing_claims, name)
                                        for name in F.CLAIM_HOOKS.values() if name != "can_rob"})
    with pytest.raises(TypeError, match="can_rob"):
        F.claim_rules_from(partial_module, tile_passes=(), pass_violation=None)
    # an optional hook the module lacks stays at its default
    wins = SimpleNamespace(is_winning=len, waits=len, seat_waits=len, completes=len)
    got = F.win_rules_from(wins, SimpleNamespace(fan_enough=max))
    assert got.fan_enough is max and got.describe_wait is None and got.drawn_within_waits is None
    fans = SimpleNamespace(score_hand=len, reading_fans=len, points=len, FAN_VALUES={"a": 1}, CHINESE={"a": "甲"})
    scoring = F.scoring_rules_from(fans, fan_finding=min)
    assert scoring.score is len and scoring.fan_values == {"a": 1} and scoring.fan_finding is min
    assert scoring.winner_points is None


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_every_family_bills_the_room_fee_one_way(name):
    from audits.rules.qujing.settlement import ROOM_FEES

    assert FAMILIES[name].billing is ROOM_FEES
