"""paipu.policy: selection, waivers and fail-on as pure functions over findings."""

from __future__ import annotations

import datetime as dt

import pytest

from audits import Finding, GameAudit
from paipu.policy import Policy, PolicyError, Waiver, build_policy, judge, parse_codes, unmatched_waivers

TODAY = dt.date(2026, 6, 1)


def _f(code: str, severity: str = "error", game: str = "g1", hand: int = 1) -> Finding:
    return Finding(code=code, severity=severity, game=game, hand=hand, seq=5)


def _audit(*findings: Finding, server: str = "qj-01", build: str = "4.2.0") -> GameAudit:
    return GameAudit(game="g1", file="x.jsonl", findings=list(findings), server=server, build=build)


def test_patterns_expand_to_catalogue_codes_and_unknown_names_are_refused():
    assert parse_codes(["CLAIM_CHOW_*"]) == {"CLAIM_CHOW_DISABLED", "CLAIM_CHOW_WRONG_SEAT"}
    assert parse_codes(["fee_amount, TURN_ORDER"]) == {"FEE_AMOUNT", "TURN_ORDER"}
    with pytest.raises(PolicyError, match="unknown finding code 'NO_SUCH'"):
        parse_codes(["TURN_ORDER,NO_SUCH"])
    with pytest.raises(PolicyError, match="matches no finding code"):
        parse_codes(["ZZZ_*"])


def test_select_and_ignore_drop_findings_and_fail_on_sets_the_verdict():
    a = _audit(_f("TURN_ORDER"), _f("FEE_AMOUNT", "warning"))
    v = judge(a, Policy())
    assert v.failed and [f.code for f in v.failures] == ["TURN_ORDER"] and len(v.reported) == 2
    v = judge(a, Policy(ignore=frozenset({"TURN_ORDER"})))
    assert not v.failed and [f.code for f in v.reported] == ["FEE_AMOUNT"] and v.dropped == 1
    v = judge(a, Policy(ignore=frozenset({"TURN_ORDER"}), fail_on="warning"))
    assert v.failed and [f.code for f in v.failures] == ["FEE_AMOUNT"]
    v = judge(a, Policy(select=frozenset({"FEE_AMOUNT"})))
    assert [f.code for f in v.reported] == ["FEE_AMOUNT"] and not v.failed


def test_a_waiver_matches_on_every_field_it_names():
    w = Waiver(code="TURN_ORDER", reason="r", expires=TODAY, server="qj-01", hand=1)
    assert w.matches(_f("TURN_ORDER"), "qj-01", "x")
    assert not w.matches(_f("TURN_ORDER"), "qj-02", "x")
    assert not w.matches(_f("TURN_ORDER", hand=2), "qj-01", "x")
    assert not w.matches(_f("FEE_AMOUNT"), "qj-01", "x")
    v = judge(_audit(_f("TURN_ORDER")), Policy(waivers=(w,)))
    assert not v.failed and v.reported == [] and v.waived == [(_f("TURN_ORDER"), w)]
    other = Waiver(code="TURN_ORDER", reason="r", expires=TODAY, build="9.9")
    assert unmatched_waivers(Policy(waivers=(w, other)), [w]) == [other]


def _toml(tmp_path, text: str):
    p = tmp_path / "w.toml"
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_a_waivers_file_with_defaults_builds_the_policy_and_options_override_it(tmp_path):
    path = _toml(tmp_path, """
[audit]
ignore = ["FEE_*"]
fail-on = "warning"

[[waiver]]
code = "TURN_ORDER"
game = "g1"
reason = "known server quirk"
expires = 2026-06-01
""")
    p = build_policy(waivers=path, today=TODAY)
    assert p.fail_on == "warning" and "FEE_AMOUNT" in p.ignore and p.source == path
    assert p.waivers[0].code == "TURN_ORDER" and p.waivers[0].game == "g1"
    assert p.waivers[0].expires == TODAY  # valid through its last day
    p = build_policy(ignore=["TURN_ORDER"], fail_on="error", waivers=path, today=TODAY)
    assert p.ignore == {"TURN_ORDER"} and p.fail_on == "error"


def test_paipu_toml_in_the_working_directory_is_found(tmp_path):
    (tmp_path / "paipu.toml").write_text('[audit]\nselect = ["TURN_ORDER"]\n')
    p = build_policy(cwd=str(tmp_path), today=TODAY)
    assert p.select == {"TURN_ORDER"} and p.source.endswith("paipu.toml")
    assert build_policy(cwd=str(tmp_path / "nowhere"), today=TODAY) == Policy()


@pytest.mark.parametrize("text, message", [
    ('[[waiver]]\ncode = "TURN_ORDER"\nreason = "x"\nexpires = 2026-05-31\n', "expired on 2026-05-31"),
    ('[[waiver]]\ncode = "NO_SUCH"\nreason = "x"\nexpires = 2099-01-01\n', "unknown finding code 'NO_SUCH'"),
    ('[[waiver]]\ncode = "TURN_ORDER"\nexpires = 2099-01-01\n', "gives no reason"),
    ('[[waiver]]\ncode = "TURN_ORDER"\nreason = "x"\n', "has no expiry date"),
    ('[[waiver]]\ncode = "TURN_ORDER"\nreason = "x"\nexpires = "soon"\n', "expires must be a date"),
    ('[[waiver]]\ncode = "TURN_ORDER"\nreason = "x"\nexpires = 2099-01-01\nseat = 2\n', "unknown key 'seat'"),
    ('[audit]\nfail-on = "info"\n', "fail-on must be one of error, warning"),
    ('[audit]\nselect = ["NOPE"]\n', "unknown finding code 'NOPE'"),
    ('[auditt]\n', "unknown table 'auditt'"),
    ('[[waiver]\n', "is not valid TOML"),
])
def test_a_bad_waivers_file_is_one_clear_error(tmp_path, text, message):
    with pytest.raises(PolicyError, match=message.replace("(", r"\(")):
        build_policy(waivers=_toml(tmp_path, text), today=TODAY)


def test_a_missing_waivers_file_is_an_error(tmp_path):
    with pytest.raises(PolicyError, match="does not exist"):
        build_policy(waivers=str(tmp_path / "none.toml"))
