"""The corrected ledger in the store: ``ledger`` and ``corrections`` rows agree with the audit."""
import glob
import json
import os

import duckdb
import pytest

from paipu import store

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = os.path.join(ROOT, "sample_logs")


def _expected_finals() -> dict[tuple[str, str], dict]:
    """(log file, game) → the final scores its ``.expected.json`` states, logged and corrected."""
    finals: dict[tuple[str, str], dict] = {}
    for path in sorted(glob.glob(os.path.join(SAMPLES, "*", "*.expected.json"))):
        log = path[: -len(".expected.json")] + ".jsonl"
        with open(path, encoding="utf-8") as f:
            for game, scores in json.load(f).get("final_scores", {}).items():
                finals[(os.path.abspath(log), game)] = scores
    return finals


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("ledger") / "s.duckdb")
    logs = sorted(glob.glob(os.path.join(SAMPLES, "*", "*.jsonl")))
    result = store.ingest(logs, db)
    if not result.audited:
        pytest.skip("the audit is not importable")
    con = duckdb.connect(db, read_only=True)
    yield con
    con.close()


def test_last_ledger_row_of_each_game_is_the_expected_final_scores(sample_db):
    finals = _expected_finals()
    assert finals, "the samples state their final scores"
    rows = sample_db.execute(
        "SELECT g.file, game, list(logged ORDER BY seat), list(corrected ORDER BY seat) FROM ledger "
        "JOIN games g USING (game) "
        "WHERE (game, hand) IN (SELECT game, max(hand) FROM ledger GROUP BY game) GROUP BY ALL").fetchall()
    stored = {(os.path.abspath(f), g): {"logged": lg, "ledger": cor} for f, g, lg, cor in rows}
    # a game id that another file already holds is refused by the store, so not every sample is there
    checked = [k for k in finals if k in stored]
    assert len(checked) >= 20
    for k in checked:
        assert stored[k] == finals[k], k


def test_gap_is_corrected_minus_logged_and_error_its_change(sample_db):
    bad = sample_db.execute("SELECT count(*) FROM ledger WHERE gap <> corrected - logged").fetchone()[0]
    assert bad == 0
    # the errors of a seat add up to its final gap
    off = sample_db.execute("""
        SELECT count(*) FROM (
            SELECT game, seat, sum(error) AS errors, arg_max(gap, hand) AS last_gap FROM ledger GROUP BY ALL)
        WHERE errors <> last_gap""").fetchone()[0]
    assert off == 0


def test_a_shorted_player_is_owed_by_the_one_overpaid(sample_db):
    # dianji_wrong_amount: seat 1 should have ended on 5 and got 4; seat 0 on -5 and got -4
    rows = sample_db.execute(
        "SELECT debtor_seat, creditor_seat, amount FROM corrections c JOIN games g USING (game) "
        "WHERE g.file LIKE '%dianji_wrong_amount.jsonl'").fetchall()
    assert rows == [(0, 1, 1)]


def test_a_game_paid_right_has_no_corrections_and_no_gap(sample_db):
    clean = sample_db.execute(
        "SELECT count(*) FROM corrections JOIN games g USING (game) WHERE g.file LIKE '%/clean/%'").fetchone()[0]
    gaps = sample_db.execute(
        "SELECT count(*) FROM ledger JOIN games g USING (game) WHERE g.file LIKE '%/clean/%' AND gap <> 0"
    ).fetchone()[0]
    assert (clean, gaps) == (0, 0)


def test_corrections_balance_each_game(sample_db):
    # what the debtors pay is what the creditors are short, seat by seat
    rows = sample_db.execute("""
        WITH paid AS (
            SELECT game, seat, sum(amount) AS amount FROM (
                SELECT game, creditor_seat AS seat, amount FROM corrections
                UNION ALL SELECT game, debtor_seat, -amount FROM corrections) GROUP BY ALL),
        final AS (SELECT game, seat, arg_max(gap, hand) AS gap FROM ledger GROUP BY ALL)
        SELECT count(*) FROM final LEFT JOIN paid USING (game, seat)
        WHERE coalesce(paid.amount, 0) <> final.gap""").fetchone()[0]
    assert rows == 0
