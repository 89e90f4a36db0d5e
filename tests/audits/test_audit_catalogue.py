"""The catalogue: stable codes, one-line rules, severities; docs/findings.md in step."""

import re
from pathlib import Path

from audits.catalogue import CATALOGUE, findings_doc


def test_codes_are_upper_snake_with_a_one_line_rule_and_a_severity():
    for name, c in CATALOGUE.items():
        assert re.fullmatch(r"[A-Z][A-Z0-9_]+", name) and c.code == name
        assert c.severity in ("error", "warning", "info")
        assert c.rule and "\n" not in c.rule and c.rule.endswith(".")


def test_the_brief_s_codes_are_all_present():
    for name in ("CLAIM_CHOW_WRONG_SEAT", "CLAIM_CHOW_DISABLED", "CLAIM_TILES_NOT_IN_HAND", "CLAIM_WILD_IN_PONG",
                 "CLAIM_WILD_IN_CHOW", "KONG_ILLEGAL_CHICKENS", "KONG_REPLACEMENT_NOT_FROM_TAIL", "CLAIM_PRIORITY",
                 "GUOSHOU_PENG", "GUOSHOU_GANG", "WIN_INCOMPLETE", "WIN_ZERO_FAN_DISCARD", "WIN_DURING_GUOHU",
                 "ROB_CONCEALED_KONG", "WIN_MISSED_MULTI", "FAN_MISMATCH", "POINTS_MISMATCH", "TRANSFER_MISMATCH",
                 "DIANJI_MISMATCH", "YANGZHU_MISMATCH", "QIANGGANG_PAYER", "MULTI_WIN_ORDER", "SCORE_MISMATCH",
                 "SCORE_BELOW_ZERO", "GAME_NOT_ENDED_AT_ZERO", "SCORE_CONTINUITY", "TILE_OVERCOUNT", "HAND_SIZE",
                 "DRAW_NOT_WALL_ORDER", "TAIL_REFILL_WRONG", "EXHAUSTIVE_DRAW_MISSED", "EXHAUSTIVE_DRAW_EARLY",
                 "DEALER_ROTATION", "TURN_ORDER", "FEE_NOT_CHARGED", "FEE_CHARGED_EARLY", "FEE_CHARGED_TWICE",
                 "FEE_ON_DISSOLVED", "REFUND_MISSING", "STREAM_SEQ_GAP", "STREAM_SEQ_REPEAT",
                 "STREAM_UNREADABLE_LINE", "GAME_TRUNCATED", "STRUCTURAL_BREAK"):
        assert name in CATALOGUE


def test_docs_findings_md_is_generated_from_the_catalogue():
    doc = Path(__file__).resolve().parents[2] / "docs" / "findings.md"
    assert doc.read_text(encoding="utf-8") == findings_doc()
