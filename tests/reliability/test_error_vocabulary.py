"""One error vocabulary: a broken log is a finding on the log, paipu's own failure is
``INTERNAL_ERROR`` (exit 3), and a parallel run never loses a game without saying so."""

from __future__ import annotations

from audits.audit import audit_game
from schema.reader import GameLog, decode_line
from tests.audits.helpers import selfdraw_game

#: seat 0's winning entry in the self-draw game (see ``selfdraw_game``)
WINNER = (0, ["wuji", "menqing_zimo"], 2, 4)


def _audit_built(b) -> object:
    raw = b.jsonl().splitlines()
    events = [decode_line(x, "f.jsonl", n) for n, x in enumerate(raw, 1)]
    return audit_game(GameLog(b.game if hasattr(b, "game") else "g", "f.jsonl", events,
                              list(range(1, len(events) + 1)), None, True))


def _selfdraw_won_by(winners) -> object:
    def plant(b, step):
        if step != "win":
            return False
        b.win(winners, "self_draw", "5p")
        return True

    return _audit_built(selfdraw_game("g", plant=plant))


def test_a_self_draw_claimed_by_two_winners_is_a_structural_break_not_an_internal_error():
    for winners in ([WINNER, (1, ["wuji"], 1, 2)], [WINNER, WINNER]):
        a = _selfdraw_won_by(winners)
        codes = [f.code for f in a.findings]
        assert "INTERNAL_ERROR" not in codes and not a.internal_error, a.findings
        brk = [f for f in a.findings if f.code == "STRUCTURAL_BREAK"]
        assert len(brk) == 1 and brk[0].actual == "bad_win" and not a.complete
        assert "a self-draw names 2 winners, not one" in brk[0].message and brk[0].seq > 0


SICHUAN_OPEN = (b'{"type":"GameOpened","game":"sc","seq":0,"at":"2026-01-01T00:00:00Z","schema_version":1,'
                b'"server":"s","build":"b","preset":"sichuan","seats":%s,"creator":0}')
RESIZED = b'{"type":"RoomResized","game":"sc","seq":1,"at":"2026-01-01T00:00:00Z","seats":["A","B","C"]}'


def test_a_four_seat_ruleset_at_a_table_of_three_is_a_structural_break_not_an_internal_error():
    """Found by the fuzzer once it counted INTERNAL_ERROR: a Sichuan room opened, or resized, to three seats."""
    for raw in ([SICHUAN_OPEN % b'["A","B","C"]'], [SICHUAN_OPEN % b'["A","B","C","D"]', RESIZED]):
        events = [decode_line(x, "f.jsonl", n) for n, x in enumerate(raw, 1)]
        a = audit_game(GameLog("sc", "f.jsonl", events, list(range(1, len(events) + 1)), None, False))
        assert not a.internal_error, a.findings
        brk = [f for f in a.findings if f.code == "STRUCTURAL_BREAK"]
        assert len(brk) == 1 and brk[0].actual == "bad_ruleset" and brk[0].line == len(raw), a.findings
        assert "3 seats" in brk[0].message and "four seats" in brk[0].message


def test_a_self_draw_with_one_winner_is_still_clean():
    a = _selfdraw_won_by([WINNER])
    assert a.findings == [] and a.complete


# --- a parallel run whose worker dies --------------------------------------------------------

import gzip  # noqa: E402
import json  # noqa: E402
import multiprocessing as mp  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402

import pytest  # noqa: E402

from audits import audit_paths, parallel  # noqa: E402
from tests.paipu.test_store import dianji_game  # noqa: E402

#: what the killing audit below does: ``game`` kills its worker (once if ``marker`` is a path)
KILL: dict = {"game": None, "marker": None}


def killing_audit(log):
    """The audit, except that the game named in :data:`KILL` kills the worker auditing it
    (``kill -9``), the first time only when a marker file is given."""
    if log.game == KILL["game"]:
        marker = KILL["marker"]
        if marker is None or not os.path.exists(marker):
            if marker is not None:
                open(marker, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
    return audit_game(log)


@pytest.fixture
def logs(tmp_path, monkeypatch):
    """Two files of 30 small games: a plain one (cut into spans of a few games) and a
    ``.gz`` one (dealt to every worker in small blocks): many tasks and replies per worker."""
    paths = []
    for f in range(2):
        data = b"".join((dianji_game(f"f{f}-g{g}", start_hour=g) if g % 2 else selfdraw_game(f"f{f}-g{g}"))
                        .jsonl() for g in range(30))
        p = tmp_path / (f"part{f}.jsonl" + (".gz" if f else ""))
        p.write_bytes(gzip.compress(data) if f else data)
        paths.append(str(p))
    monkeypatch.setattr(parallel, "DEAL_BYTES", 4096)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 32768)
    yield paths
    KILL.update(game=None, marker=None)


def _one_job(paths):
    orphans: list = []
    return list(audit_paths(paths, jobs=1, orphans=orphans)), orphans


def _no_workers_left():
    return not [p for p in mp.active_children() if p.name.startswith("paipu-audit")]


def test_a_worker_killed_mid_run_from_outside_loses_no_game(logs, capsys):
    expected = _one_job(logs)
    orphans: list = []
    it = parallel.audit_parallel(logs, jobs=2, orphans=orphans, window=1)
    got = [next(it)]
    victim = next(p for p in mp.active_children() if p.name == "paipu-audit-1")
    os.kill(victim.pid, signal.SIGKILL)  # with window=1 it is at most a block ahead: far from done
    got += list(it)
    assert (got, orphans) == expected
    err = capsys.readouterr().err
    assert "paipu: audit worker 1 died (killed by SIGKILL); a new worker audits the games it had not reported" in err
    assert _no_workers_left()


@pytest.mark.parametrize("game", ["f0-g7", "f1-g7"], ids=["span", "dealt"])
def test_a_worker_killed_on_a_game_is_replaced_and_the_game_audited(logs, tmp_path, capsys, game):
    expected = _one_job(logs)
    KILL.update(game=game, marker=str(tmp_path / "killed-once"))
    orphans: list = []
    got = list(parallel.audit_parallel(logs, jobs=2, orphans=orphans, audit=killing_audit))
    assert os.path.exists(KILL["marker"])  # the worker did die
    assert (got, orphans) == expected
    assert "died (killed by SIGKILL); a new worker audits" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["f0-g12", "f1-g12"], ids=["span", "dealt"])
def test_a_game_that_kills_every_worker_is_reported_not_audited_and_the_run_goes_on(logs, capsys, game):
    expected, _ = _one_job(logs)
    KILL.update(game=game, marker=None)  # kills the worker every time
    got = list(parallel.audit_parallel(logs, jobs=2, audit=killing_audit))
    # every game is reported once, in order; none is dropped
    assert [(a.game, a.file) for a in got] == [(a.game, a.file) for a in expected]
    by = {a.game: a for a in got}
    dead = by[game]
    assert not dead.complete and dead.internal_error
    assert [f.code for f in dead.findings] == ["INTERNAL_ERROR"]
    assert dead.findings[0].message.startswith("not audited: audit worker ")
    assert "died twice on the part of the input holding this game (killed by SIGKILL)" in dead.findings[0].message
    assert "--jobs 1" in dead.findings[0].message
    # the games after that span or block, and all of the other file, are audited as by one job
    others = [a for a, b in zip(got, expected) if a != b]
    assert all(a.findings[0].message.startswith("not audited") for a in others)
    assert len(others) < 10 and all(a.file == dead.file for a in others)
    assert got[0] == expected[0] and got[-1] == expected[-1]
    err = capsys.readouterr().err
    assert "died again (killed by SIGKILL); the games it was on are reported as not audited" in err
    assert _no_workers_left()


def test_the_audit_command_reports_a_killed_worker_without_a_traceback(logs, tmp_path, monkeypatch, capsys):
    import audits.audit
    from paipu.audit_cmd import run_audit

    KILL.update(game="f0-g12", marker=None)
    monkeypatch.setattr(audits.audit, "audit_game", killing_audit)  # what the workers call
    out = tmp_path / "out.json"
    code = run_audit(logs, "json", str(out), jobs=2, progress=False)
    assert code == 3  # games not audited: INTERNAL_ERROR findings
    err = capsys.readouterr().err
    assert "Traceback" not in err and "paipu: audit worker" in err and "INTERNAL_ERROR" in err
    records = [json.loads(x) for x in out.read_text().splitlines() if x.strip()]
    summaries = [r for r in records if r.get("record") == "summary"]
    assert len(summaries) == 60 and len({(r["file"], r["game"]) for r in summaries}) == 60
    assert any(r.get("code") == "INTERNAL_ERROR" and r.get("game") == "f0-g12" for r in records)
