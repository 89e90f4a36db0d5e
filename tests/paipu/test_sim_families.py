"""A family's parts outside its rules are found by its name (paipu/sim/families.py): the game
player, the fault classes and the bench's one command per job, with no per-family branch in
the shared modules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from audits.rules import FAMILIES
from paipu.sim import simulate
from paipu.sim.families import SimFamily, UnknownSimFamily, sim_families, sim_family, sim_parts
from paipu.sim.mutate import FAULTS
from paipu.sim.sichuan.game import SichuanGame
from schema.ruleset import resolve

ROOT = Path(__file__).resolve().parents[2]


def test_every_rule_family_has_its_parts_in_the_registrys_order():
    # found by the rules' registration alone: the same names, in FAMILIES' order
    assert list(sim_families()) == ["qujing", "sichuan", "guangdong", "xuzhou", "wuhan"]
    assert list(sim_families()) == [name for name in FAMILIES if sim_parts(name) is not None]


def test_the_game_player_is_the_familys_own_or_the_shared_driver():
    assert simulate._game_player(resolve("sichuan-xuezhan")) is SichuanGame
    assert simulate._game_player(resolve("qujing-xiaoji")) is simulate._Game
    assert simulate._game_player(resolve("guangdong-jipinghu")) is simulate._Game


def test_a_family_without_a_package_plays_on_the_shared_driver():
    # near miss: a rule family registered only with its rules (the toy families) has no parts
    assert sim_parts("toy_without_sim_package") is None
    toy = msgspec.structs.replace(resolve("qujing-xiaoji"), family="toy_without_sim_package")
    assert simulate._game_player(toy) is simulate._Game
    # a module of paipu/sim that is not a family's package is no family either
    assert sim_parts("bot") is None and sim_parts("families") is None


def test_a_rule_family_without_a_package_is_listed_nowhere(monkeypatch):
    monkeypatch.setitem(FAMILIES, "toy_without_sim_package", FAMILIES["qujing"])
    assert list(sim_families()) == ["qujing", "sichuan", "guangdong", "xuzhou", "wuhan"]
    with pytest.raises(UnknownSimFamily):
        sim_family("toy_without_sim_package")


def test_the_fault_classes_are_the_union_of_the_families_own():
    union: dict = {}
    for family in sim_families().values():
        own = family.faults()
        assert own, family.name
        assert all(f.families == (family.name,) for f in own.values()), family.name
        assert not set(own) & set(union)
        union.update(own)
    assert list(FAULTS) == list(union)
    assert "sichuan_chow" in FAULTS and "gd_bao_undue" in FAULTS and "wrong_fan" in FAULTS


def test_a_preset_names_its_family():
    assert sim_family("sichuan-xuezhan").name == "sichuan"
    assert sim_family("qujing-baiban").name == "qujing"
    assert sim_family("guangdong") == SimFamily("guangdong")
    with pytest.raises(UnknownSimFamily, match="no family or preset 'nosuchfamily'"):
        sim_family("nosuchfamily")


def test_every_family_has_its_modules_of_fixed_names():
    for family in sim_families().values():
        assert callable(family.module("coverage").main), family.name
        assert callable(family.module("samples").main), family.name
        bench = family.module("faults").FAULT_BENCH
        assert bool(bench.rooms) != (bench.room_of is not None), family.name
        diff = family.differential()
        assert diff is not None and diff.DEFAULT_HANDS >= 100_000 and callable(diff.main), family.name


def _bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_bench_faults_plants_one_familys_classes():
    run = _bench("bench/faults.py", "--family", "sichuan-xuezhan", "2", "300", "sichuan_chow,sichuan_pong_void")
    assert run.returncode == 0, run.stdout + run.stderr
    rows = {line.split()[0]: line.split()[1:4] for line in run.stdout.splitlines() if line.startswith("sichuan_")}
    assert rows == {"sichuan_chow": ["CLAIM_CHOW_DISABLED", "2/2", "2"],
                    "sichuan_pong_void": ["CLAIM_VOID_SUIT", "2/2", "2"]}


def test_bench_faults_refuses_another_familys_class():
    run = _bench("bench/faults.py", "--family", "qujing", "2", "30", "sichuan_chow")
    assert run.returncode == 2
    assert "not qujing fault classes: sichuan_chow" in run.stderr
    assert "Traceback" not in run.stderr


def test_bench_differential_runs_one_familys_check():
    run = _bench("bench/differential.py", "--family", "sichuan", "300")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "sichuan differential: 300 hands" in run.stdout and "0 disagreements" in run.stdout


def test_bench_coverage_refuses_an_unknown_family():
    run = _bench("bench/coverage.py", "--family", "nosuchfamily", "100")
    assert run.returncode == 2
    assert "no family or preset 'nosuchfamily'" in run.stderr and "Traceback" not in run.stderr
