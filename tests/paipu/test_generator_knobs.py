"""The generators honour their knobs: ``.gz`` outputs, ``--build``, the player pool of every
family, and a summary that counts hands and winners apart."""

from __future__ import annotations

import gzip
import json
import re

import pytest
from typer.testing import CliRunner

import paipu.cli as paipu_cli
from paipu.sim.simulate import SimConfig, SimError, simulate_games
from schema.reader import read_games

PRESETS = ("qujing-xiaoji", "guangdong-jipinghu", "sichuan", "sichuan-xuezhan")


def cli(*args):
    if not any(c.name == "simulate" for c in paipu_cli.app.registered_commands):
        paipu_cli._register_commands()  # the whole command line, as the paipu script has it
    return CliRunner().invoke(paipu_cli.app, [str(a) for a in args])


def _is_gzip(path) -> bool:
    with open(path, "rb") as f:
        return f.read(2) == b"\x1f\x8b"


@pytest.fixture(scope="module")
def clean_gz(tmp_path_factory):
    path = tmp_path_factory.mktemp("logs") / "clean.jsonl.gz"
    r = cli("simulate", "-n", 3, "--hands", 3, "-s", 4, "-o", path, "-q")
    assert r.exit_code == 0, r.output
    return path


# --- .gz: every writer ------------------------------------------------------------------


def test_mutate_writes_gzip_to_a_gz_name_and_paipu_reads_it_back(clean_gz, tmp_path):
    out = tmp_path / "bad.jsonl.gz"
    r = cli("mutate", clean_gz, "--fault", "wrong_fan", "-o", out)
    assert r.exit_code == 0, r.output
    assert _is_gzip(out)
    games, orphans = read_games([str(out)])
    assert len(games) == 3 and not orphans and all(g.problem is None for g in games)
    # the planted fault is found in the mutated file itself
    audit = cli("audit", out, "--format", "json")
    assert audit.exit_code == 1 and '"code":"FAN_MISMATCH"' in audit.stdout.replace(" ", "")
    # near miss: a plain name stays plain text
    plain = tmp_path / "bad.jsonl"
    assert cli("mutate", clean_gz, "--fault", "wrong_fan", "-o", plain).exit_code == 0
    assert not _is_gzip(plain) and plain.read_bytes().startswith(b'{"type":"GameOpened"')


def test_every_writer_gzips_a_gz_name(clean_gz, tmp_path):
    db = tmp_path / "s.duckdb"
    assert cli("ingest", clean_gz, "--db", db).exit_code == 0
    runs = {
        "simulate.jsonl.gz": ("simulate", "-n", 1, "--hands", 1, "-q", "-o"),
        "audit.json.gz": ("audit", clean_gz, "--format", "json", "-o"),
        "audit.txt.gz": ("audit", clean_gz, "-o"),
        "query.csv.gz": ("query", "--db", db, "SELECT game FROM games ORDER BY game", "--format", "csv", "-o"),
        "anomalies.json.gz": ("anomalies", "--db", db, "--format", "json", "-o"),
        "report.html.gz": ("report", clean_gz, "-o"),
        "schema.json.gz": ("schema", "-o"),
    }
    for name, args in runs.items():
        out = tmp_path / name
        r = cli(*args, out)
        assert r.exit_code in (0, 1), (name, r.output)
        assert _is_gzip(out), name
        text = gzip.decompress(out.read_bytes()).decode("utf-8")
        assert text.strip(), name
    assert gzip.decompress((tmp_path / "query.csv.gz").read_bytes()).decode().splitlines()[0] == "game"
    assert json.loads(gzip.decompress((tmp_path / "schema.json.gz").read_bytes()))["$schema"]
    # near miss: the same query to a plain name is plain
    plain = tmp_path / "query.csv"
    assert cli("query", "--db", db, "SELECT 1 AS one", "--format", "csv", "-o", plain).exit_code == 0
    assert plain.read_text().splitlines() == ["one", "1"]


# --- simulate: --build and the player pool, for every family -------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_simulate_writes_the_build_asked_for(preset, tmp_path):
    out = tmp_path / "b.jsonl"
    r = cli("simulate", "--preset", preset, "-n", 2, "--hands", 1, "--build", "7.3-rc1", "-o", out, "-q")
    assert r.exit_code == 0, r.output
    opened = [json.loads(line) for line in out.read_text().splitlines() if '"GameOpened"' in line]
    assert [o["build"] for o in opened] == ["7.3-rc1", "7.3-rc1"]
    # near miss: without --build the default build is written
    r = cli("simulate", "--preset", preset, "-n", 1, "--hands", 1, "-o", out, "-q")
    assert json.loads(out.read_text().splitlines()[0])["build"] == "1.0"


@pytest.mark.parametrize("preset", PRESETS)
def test_every_family_seats_players_from_the_pool(preset):
    rooms = list(simulate_games(SimConfig(preset=preset, games=6, seed=2, max_hands=1)))
    seatings = [tuple(room[0].seats) for room in rooms]
    players = {p for s in seatings for p in s}
    assert all(re.fullmatch(r"P(0[4-9]|1\d|2[0-4])", p) for p in players), players
    assert len(set(seatings)) > 1 and len(players) > 4  # not the same four every room


def test_the_sichuan_simulator_refuses_a_knob_it_would_ignore():
    with pytest.raises(SimError, match="does not plant colluding_pair"):
        list(simulate_games(SimConfig(preset="sichuan", games=1, colluding_pair=(0, 2))))
    # the knob it honours: the shuffle bias (first draws skew to 1-3 of a suit)
    rooms = list(simulate_games(SimConfig(preset="sichuan", games=8, seed=3, biased_shuffle=True)))
    fair = list(simulate_games(SimConfig(preset="sichuan", games=8, seed=3)))

    def low_share(rooms) -> float:
        firsts = []
        for room in rooms:
            dealt = False
            for e in room:
                name = type(e).__name__
                if name == "HandStarted":
                    dealt = True
                elif name == "TileDrawn" and dealt:
                    firsts.append(e.tile)
                    dealt = False
        return sum(1 for t in firsts if t[0] in "123") / len(firsts)

    assert low_share(rooms) > 0.55 and low_share(fair) < 0.5


# --- the summary line counts hands and winners apart ----------------------------------------


@pytest.mark.parametrize("preset", ("sichuan-xuezhan", "qujing-xiaoji"))
def test_the_summary_counts_hands_and_winners_apart(preset, tmp_path):
    out = tmp_path / "s.jsonl"
    r = cli("simulate", "--preset", preset, "-n", 4, "-s", 5, "-o", out)
    assert r.exit_code == 0, r.output
    m = re.search(r"(\d+) games, (\d+) hands \((\d+) with a winner, (\d+) without\), (\d+) winners", r.stdout)
    assert m, r.stdout
    games, hands, won, drawn, winners = map(int, m.groups())
    events = [json.loads(line) for line in out.read_text().splitlines()]
    started = [e for e in events if e["type"] == "HandStarted"]
    # count from the log: hands with a HandWon, and winner entries over every HandWon
    current, with_winner = None, set()
    winner_rows = 0
    for e in events:
        if e["type"] == "HandStarted":
            current = (e["game"], e["seq"])
        elif e["type"] == "HandWon":
            with_winner.add(current)
            winner_rows += len(e["winners"])
    assert games == 4 and hands == len(started) and won + drawn == hands
    assert won == len(with_winner) and winners == winner_rows
    if preset == "sichuan-xuezhan":
        assert winners > hands  # several winners a hand: winners are not hands
